/**
 * Runs `work` on every item, at most `limit` at a time, and waits for all of them. A work that
 * throws does not stop the others; the first error is thrown once all have ended.
 */
export async function inParallel<T>(
  items: Iterable<T>,
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, queue.length) }, worker));
  if (failure) throw failure.error;
}
