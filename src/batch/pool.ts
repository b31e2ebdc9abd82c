// Runs async work with at most `limit` tasks in flight, for callers that produce tasks as they read (so the reader
// waits when the pool is full instead of queueing the whole file in memory).

export class Pool {
  private readonly running = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  constructor(private readonly limit: number) {}

  /** Starts `task` once a slot is free. Task errors are kept and rethrown by drain(). */
  async add(task: () => Promise<void>): Promise<void> {
    while (this.running.size >= this.limit) await Promise.race(this.running);
    const p: Promise<void> = task()
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => this.running.delete(p));
    this.running.add(p);
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

/** Maps `items` through `fn` with bounded concurrency, keeping order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  const pool = new Pool(Math.max(1, limit));
  for (let i = 0; i < items.length; i++) {
    if (pool.failed) break;
    await pool.add(async () => {
      out[i] = await fn(items[i]!, i);
    });
  }
  await pool.drain();
  return out;
}
