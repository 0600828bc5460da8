/**
 * Runs `work` over `items`, at most `limit` at a time, starting each next item only while
 * `keepGoing` says so (a scheduled run stops starting work when its Lambda's time runs short).
 */
export async function inPool<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
  keepGoing: () => boolean = () => true,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length && keepGoing()) {
      const item = items[next++];
      if (item !== undefined) await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
