import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openEmbedded, type EmbeddedDatabase } from '../src/platform/db/embedded.js';
import pg from 'pg';

/**
 * The embedded database in a DATA_DIR, as `npm start` opens it: created on the first start in a child
 * process, whose memory (the grown WebAssembly memory of initdb, about 650 MB) goes with it.
 */
const dirs: string[] = [];
const opened: EmbeddedDatabase[] = [];
afterEach(async () => {
  for (const database of opened.splice(0)) await database.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function open(dataDir: string): Promise<EmbeddedDatabase> {
  const database = await openEmbedded({ dataDir, socketDir: join(dataDir, 'run') });
  opened.push(database);
  return database;
}

async function query(database: EmbeddedDatabase, text: string): Promise<unknown[]> {
  const client = new pg.Client(database.connection);
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

it('creates the cluster of a first start in another process, then opens it here, and keeps what it holds', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'temb-'));
  dirs.push(dataDir);
  const before = process.memoryUsage().external;
  const first = await open(dataDir);
  // This process holds one fresh instance (about 140 MB), not the one initdb grew (about 720 MB).
  expect(process.memoryUsage().external - before).toBeLessThan(400 * 1024 * 1024);
  expect(existsSync(join(dataDir, 'pgdata', 'PG_VERSION'))).toBe(true);
  await query(first, 'CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)');
  await first.stop();
  opened.splice(0);

  const second = await open(dataDir);
  expect(await query(second, 'SELECT n FROM kept')).toEqual([{ n: 7 }]);
}, 120_000);
