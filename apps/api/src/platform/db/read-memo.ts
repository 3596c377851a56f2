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

/**
 * A read by ids whose answer is one value per id, memoized id by id under `name`: in a transaction that
 * memoizes reads, the ids it has not read yet are read together in one statement and each answer is kept
 * for the id, so a group's work can read every member's rows at once (`prefetch` by calling it with all
 * the ids) and each member's later reads of its own id make no statement. `read` answers every id it is
 * given (an empty value where there is nothing).
 */
export function memoizedPerId<V>(
  name: string,
  read: (db: Executor, ids: readonly string[]) => Promise<Map<string, V>>,
): (db: Executor, ids: readonly string[]) => Promise<Map<string, V>> {
  return async (db, ids) => {
    const memo = memos.get(db);
    if (!memo) return read(db, ids);
    const missing = [...new Set(ids)].filter((id) => !memo.has(`${name}#${id}`));
    if (missing.length > 0) {
      const answer = read(db, missing);
      for (const id of missing) {
        const one = answer.then((byId) => byId.get(id) as V);
        memo.set(`${name}#${id}`, one);
        one.catch(() => memo.delete(`${name}#${id}`));
      }
    }
    const answers = await Promise.all(ids.map((id) => memo.get(`${name}#${id}`) as Promise<V | undefined>));
    const byId = new Map<string, V>();
    // An id the read did not answer (a row that does not exist) is left out, as the read leaves it out.
    ids.forEach((id, index) => {
      if (answers[index] !== undefined) byId.set(id, answers[index]);
    });
    return byId;
  };
}

/** Forgets what `memoizedPerId(name)` read for `ids` in the transaction `db`: they were just changed. */
export function forgetPerId(db: Executor, name: string, ids: readonly string[]): void {
  const memo = memos.get(db);
  if (memo) for (const id of ids) memo.delete(`${name}#${id}`);
}

/**
 * Rows a transaction read, and locked, for several pieces of work at once, each row handed to the first
 * read of it that asks (`takeHandedOut`) and then forgotten: a billing group locks its members'
 * subscriptions, customers and charges in one statement each instead of one per member. Only rows that
 * nothing else in the transaction changes before their own work takes them may be handed out (each
 * member's rows are its own, and each member's first read of them is this one).
 */
const handedOut = new WeakMap<Executor, Map<string, unknown>>();

export function handOut<T>(db: Executor, name: string, rows: Iterable<readonly [string, T]>): void {
  if (!db.isTransaction) return;
  let rowsOf = handedOut.get(db);
  if (!rowsOf) handedOut.set(db, (rowsOf = new Map()));
  for (const [id, row] of rows) rowsOf.set(`${name}#${id}`, row);
}

/** The row handed out under `name` for `id` (then forgotten), or undefined: the caller reads it itself. */
export function takeHandedOut<T>(db: Executor, name: string, id: string): T | undefined {
  const rowsOf = handedOut.get(db);
  const key = `${name}#${id}`;
  const row = rowsOf?.get(key) as T | undefined;
  if (row !== undefined) rowsOf!.delete(key);
  return row;
}
