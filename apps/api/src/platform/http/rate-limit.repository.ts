import { sql } from 'kysely';
import type { Executor } from '../db/database.js';

export interface CounterHit {
  key: string;
  windowStart: Date;
  expiresAt: Date;
  /** How much to add (1 unless a batch of counts made elsewhere is flushed). */
  by?: number;
}

/**
 * Adds to every counter in one statement (atomic upsert on (key, window)) and returns the new counts by
 * key. Runs on the pool, never in a request's transaction: a refused or failed request still counts.
 * Rows are written in key order, so two statements over the same counters cannot deadlock. One hit per key.
 */
export async function incrementCounters(db: Executor, hits: CounterHit[]): Promise<Map<string, number>> {
  if (hits.length === 0) return new Map();
  const sorted = [...hits].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const rows = await db
    .insertInto('rate_limits')
    .values(
      sorted.map((hit) => ({
        key: hit.key,
        window_start: hit.windowStart,
        count: hit.by ?? 1,
        expires_at: hit.expiresAt,
      })),
    )
    .onConflict((conflict) =>
      conflict.columns(['key', 'window_start']).doUpdateSet({ count: sql<number>`rate_limits.count + excluded.count` }),
    )
    .returning(['key', 'count'])
    .execute();
  return new Map(rows.map((row) => [row.key, Number(row.count)]));
}

/** Deletes counters whose window has ended; returns how many. */
export async function deleteExpiredCounters(db: Executor, now: Date): Promise<number> {
  const result = await db.deleteFrom('rate_limits').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A counter's value in its window (0 when absent), without counting. */
export async function readCounter(db: Executor, key: string, windowStart: Date): Promise<number> {
  const row = await db
    .selectFrom('rate_limits')
    .select('count')
    .where('key', '=', key)
    .where('window_start', '=', windowStart)
    .executeTakeFirst();
  return row ? Number(row.count) : 0;
}
