import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGliteServer } from '../src/platform/db/pglite-server.js';

/** The embedded database's wire server under concurrent connections (the case that must never mix). */
let dir: string;
let db: PGlite;
let server: PGliteServer;
let pool: pg.Pool;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tpgs-'));
  db = await PGlite.create();
  server = new PGliteServer(db);
  await server.listen(join(dir, '.s.PGSQL.5432'));
  pool = new pg.Pool({ host: dir, port: 5432, user: 'postgres', database: 'postgres', max: 10 });
  await pool.query('CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)');
  await pool.query('INSERT INTO counter VALUES (1, 0)');
});

afterAll(async () => {
  await pool?.end();
  await server?.close();
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('PGliteServer', () => {
  it('keeps parameterised reads and transactions of ten connections apart', async () => {
    let committed = 0;
    let wrongReads = 0;
    const errors: string[] = [];
    const reader = async (i: number) => {
      const result = await pool.query('SELECT $1::int AS v, $2::text AS s', [i, `r${i}`]);
      if (result.rows[0]?.v !== i || result.rows[0]?.s !== `r${i}`) wrongReads++;
    };
    const writer = async () => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const before = await client.query('SELECT n FROM counter WHERE id = $1 FOR UPDATE', [1]);
        await client.query('UPDATE counter SET n = $1 WHERE id = $2', [before.rows[0].n + 1, 1]);
        await client.query('COMMIT');
        committed++;
      } finally {
        client.release();
      }
    };
    const deadline = Date.now() + 1500;
    await Promise.all(
      Array.from({ length: 10 }, async (_, worker) => {
        let i = worker * 1_000_000;
        while (Date.now() < deadline) {
          try {
            await (worker % 2 ? reader(i++) : writer());
          } catch (error) {
            errors.push((error as Error).message);
          }
        }
      }),
    );
    expect(errors).toEqual([]);
    expect(wrongReads).toBe(0);
    expect(committed).toBeGreaterThan(10);
    // No lost update: every committed increment is there.
    expect((await pool.query('SELECT n FROM counter WHERE id = 1')).rows[0].n).toBe(committed);
  });

  it('returns large results intact (several megabytes in one answer)', async () => {
    const rows = await pool.query('SELECT i, repeat(chr(65 + i % 26), 1024) AS s FROM generate_series(1, 4096) AS i');
    expect(rows.rows).toHaveLength(4096);
    expect(
      rows.rows.every((row: { i: number; s: string }) => row.s === String.fromCharCode(65 + (row.i % 26)).repeat(1024)),
    ).toBe(true);
    const one = await pool.query("SELECT string_agg(repeat('y', 1000), '') AS s FROM generate_series(1, 5000)");
    expect(one.rows[0].s).toHaveLength(5_000_000);
  });

  it('rolls back and frees the database when a client disconnects inside a transaction', async () => {
    const client = new pg.Client({ host: dir, port: 5432, user: 'postgres', database: 'postgres' });
    client.on('error', () => {});
    await client.connect();
    await client.query('BEGIN');
    await client.query('UPDATE counter SET n = -1 WHERE id = 1');
    // Another connection waits for its turn while the transaction is open...
    const waiting = pool.query('SELECT n FROM counter WHERE id = 1');
    // ...until the client vanishes without COMMIT or ROLLBACK.
    (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    const after = await waiting;
    expect(after.rows[0].n).not.toBe(-1);
  });
});
