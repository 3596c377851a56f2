import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { MIGRATIONS_DIR } from '../../paths.js';

/**
 * Checked-in SQL migrations (`apps/api/migrations/NNNN_name.sql`), applied in order, each in its own
 * transaction, under an advisory lock so that two processes starting together apply them once.
 */
export interface Migration {
  name: string;
  sql: string;
}

const LOCK_KEY = 7_242_019_001;

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({ name: file.replace(/\.sql$/, ''), sql: readFileSync(join(dir, file), 'utf8') }));
}

async function ensureTable(client: pg.PoolClient): Promise<void> {
  await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
}

export async function appliedMigrations(pool: pg.Pool): Promise<string[]> {
  const exists = await pool.query(`SELECT to_regclass('public.schema_migrations') AS t`);
  if (!exists.rows[0].t) return [];
  const result = await pool.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
  return result.rows.map((row) => row.name);
}

export async function pendingMigrations(pool: pg.Pool): Promise<string[]> {
  const applied = new Set(await appliedMigrations(pool));
  return listMigrations()
    .map((m) => m.name)
    .filter((name) => !applied.has(name));
}

/** Applies pending migrations; returns the names applied. */
export async function migrate(pool: pg.Pool): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    try {
      await ensureTable(client);
      const done = new Set(
        (await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name),
      );
      for (const migration of listMigrations()) {
        if (done.has(migration.name)) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [migration.name]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
        }
        applied.push(migration.name);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
    }
  } finally {
    client.release();
  }
  return applied;
}
