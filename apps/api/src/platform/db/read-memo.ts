import type { Executor } from './database.js';

/**
 * Reads a transaction makes once. A billing run's transaction renews or charges a group of
 * subscriptions that mostly share a few products and one organization: reading each one's product,
 * prices, benefits, custom fields, medias, tax rules and email settings again for every member costs
 * most of its statements. A transaction that changes none of those (`memoizeReadsIn`) gets the first
 * answer of each read again; every other transaction reads as usual. Answers are shared: callers treat
 * them as read-only, as they do every row they read.
 */
const memos = new WeakMap<Executor, Map<string, Promise<unknown>>>();

/** From now on, the transaction `db` makes each memoized read once (it must not change what they read). */
export function memoizeReadsIn(db: Executor): void {
  if (db.isTransaction && !memos.has(db)) memos.set(db, new Map());
}

/** `read()`, or its first answer in a transaction that memoizes reads. */
export function memoized<T>(db: Executor, key: string, read: () => Promise<T>): Promise<T> {
  const memo = memos.get(db);
  if (!memo) return read();
  let answer = memo.get(key) as Promise<T> | undefined;
  if (!answer) {
    answer = read();
    memo.set(key, answer);
    // A failed read is not an answer (the transaction fails with it anyway).
    answer.catch(() => memo.delete(key));
  }
  return answer;
}

/** A read by ids, memoized under `name` and the ids (their order and repeats do not matter). */
export function memoizedByIds<T>(
  name: string,
  read: (db: Executor, ids: readonly string[]) => Promise<T>,
): (db: Executor, ids: readonly string[]) => Promise<T> {
  return (db, ids) => memoized(db, idsKey(name, ids), () => read(db, ids));
}

/** A key for a read by ids (order and repeats do not matter). */
export function idsKey(name: string, ids: readonly string[]): string {
  return `${name}:${[...new Set(ids)].sort().join(',')}`;
}
