// Bounded concurrency for a batch. `shouldStart` lets a caller stop starting new items (Ctrl-C, a fatal error)
// while those in flight finish.

/** Runs `work` over `items` with at most `limit` in flight, keeping results in input order. */
export async function runPool<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
  shouldStart: () => boolean = () => true,
): Promise<Array<R | undefined>> {
  const results: Array<R | undefined> = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length && shouldStart()) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Starts `work` over `items` in input order, at most `limit` at a time, and returns at once one promise per item,
 * so a later stage can wait for the item it needs while the rest carry on. An item never started (shouldStart
 * said no) resolves to undefined; a failure of `work` rejects that item's promise only.
 */
export function startEach<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
  shouldStart: () => boolean = () => true,
): Array<Promise<R | undefined>> {
  const settle = items.map(() => ({}) as { resolve: (value: R | undefined) => void; reject: (err: unknown) => void });
  const promises = items.map(
    (_, i) =>
      new Promise<R | undefined>((resolve, reject) => {
        settle[i] = { resolve, reject };
      }),
  );
  // A failure nobody waits for (the caller stopped early) must not end the process as an unhandled rejection.
  for (const p of promises) p.catch(() => undefined);
  let next = 0;
  const worker = async () => {
    while (next < items.length && shouldStart()) {
      const index = next++;
      try {
        settle[index]!.resolve(await work(items[index]!, index));
      } catch (err) {
        settle[index]!.reject(err);
      }
    }
    // Stopped early: whoever waits for the items left learns they were never started.
    while (next < items.length) settle[next++]!.resolve(undefined);
  };
  for (let i = 0; i < Math.min(limit, items.length); i++) void worker();
  return promises;
}
