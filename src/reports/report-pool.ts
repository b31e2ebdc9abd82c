// Runs `work` over `items` with at most `limit` in flight, keeping results in input order.
// `shouldStart` lets a caller stop starting new items (Ctrl-C, a fatal error) while those in flight finish.

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
