/**
 * Runs `work` over `items` with at most `limit` at a time, in order of start, and resolves once all are
 * done. Every item runs even when another fails; the first failure is rethrown at the end (so a batch
 * job retries after doing everything else it could). Returns how many items `work` reported as done.
 */
export async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<boolean | void>,
): Promise<number> {
  let next = 0;
  let done = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      try {
        if ((await work(item)) !== false) done += 1;
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failure) throw failure.error;
  return done;
}
