// The one concurrency pool: async work with at most `limit` tasks in flight. `Pool` serves callers that produce
// tasks as they read (so the reader waits when the pool is full instead of queueing the whole file in memory);
// `mapLimit` serves a list known in advance.

export class Pool {
  private readonly running = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  constructor(private readonly limit: number) {}

  /** Starts `task` once a slot is free. Task errors are kept and rethrown by drain(). */
  async add(task: () => Promise<void>): Promise<void> {
    await this.free();
    const p: Promise<void> = task()
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => this.running.delete(p));
    this.running.add(p);
  }

  /** Resolves once fewer than `limit` tasks are in flight. */
  async free(): Promise<void> {
    while (this.running.size >= this.limit) await Promise.race(this.running);
  }

  /** Waits for every task; rethrows the first task error. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.race(this.running);
    if (this.failure) throw this.failure.error;
  }

  get failed(): boolean {
    return this.failure !== undefined;
  }
}

/**
 * Maps `items` through `fn` with at most `limit` in flight, keeping order. Once an item fails, no new one starts and
 * the first error is rethrown after those in flight end. `shouldStart`, asked before each item, lets a caller stop
 * starting new items (Ctrl-C) while those in flight finish: the items never started are undefined.
 */
export function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]>;
export function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  shouldStart: () => boolean,
): Promise<Array<R | undefined>>;
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  shouldStart: () => boolean = () => true,
): Promise<Array<R | undefined>> {
  const out = new Array<R | undefined>(items.length);
  const pool = new Pool(Math.max(1, limit));
  for (let i = 0; i < items.length; i++) {
    await pool.free();
    if (pool.failed || !shouldStart()) break;
    await pool.add(async () => {
      out[i] = await fn(items[i]!, i);
    });
  }
  await pool.drain();
  return out;
}
