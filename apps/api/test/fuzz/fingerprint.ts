import type pg from 'pg';

/**
 * Bookkeeping a refused request may write by design, left out of the fingerprint: rate-limit counters
 * and windows (failed attempts count), stored Idempotency-Key answers, a token's last use.
 */
const IGNORED_TABLES = new Set(['rate_limits', 'license_key_rate_windows', 'idempotency_keys', 'schema_migrations']);
const IGNORED_COLUMNS = ['last_used_at'];

export type Fingerprint = Map<string, string>;

/**
 * A cheap digest of every business table (row count and an order-independent sum of row hashes), to
 * tell whether a request changed anything.
 */
export async function databaseFingerprint(pool: pg.Pool): Promise<Fingerprint> {
  const { rows: tables } = await pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const drop = IGNORED_COLUMNS.map((column) => ` - '${column}'`).join('');
  const parts = tables
    .map((t) => t.table_name)
    .filter((name) => !IGNORED_TABLES.has(name))
    .map(
      (name) =>
        `SELECT '${name}' AS name, count(*)::text || ':' || ` +
        `coalesce(sum(hashtextextended((to_jsonb(t)${drop})::text, 0)::numeric), 0)::text AS digest FROM "${name}" t`,
    );
  const { rows } = await pool.query<{ name: string; digest: string }>(parts.join(' UNION ALL '));
  return new Map(rows.map((row) => [row.name, row.digest]));
}

/** The tables whose digest differs. */
export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name)).sort();
}
