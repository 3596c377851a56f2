import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deferWritesIn, keepInsert, keepUpdate } from '../src/platform/db/deferred-writes.js';
import { startTestServer, type TestServer } from './harness.js';

/**
 * Writes a transaction keeps (platform/db/deferred-writes.ts): every later statement of the transaction
 * sees them, a rollback drops them, an update that misses its row fails the transaction.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ work: false });
  await sql`create table kept_rows (id uuid primary key, label text not null, at timestamptz, amount int)`.execute(
    server.runtime.database.db,
  );
});
afterAll(async () => {
  await server?.stop();
});

const ids = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'] as const;

it('sends kept writes before the next statement, in one statement per kind', async () => {
  const db = server.runtime.database.db;
  const at = new Date('2026-12-04T10:00:00.123Z');
  await db.transaction().execute(async (tx) => {
    deferWritesIn(tx);
    await keepInsert(tx, 'kept_rows', { id: ids[0], label: 'one', at, amount: 1 });
    await keepInsert(tx, 'kept_rows', { id: ids[1], label: 'two "quoted" é', at: null, amount: null });
    await keepUpdate(tx, 'kept_rows', { id: ids[0], amount: 5 });
    const seen = await tx
      .selectFrom('kept_rows' as never)
      .selectAll()
      .orderBy('id' as never)
      .execute();
    expect(seen).toEqual([
      { id: ids[0], label: 'one', at, amount: 5 },
      { id: ids[1], label: 'two "quoted" é', at: null, amount: null },
    ]);
  });
  await sql`delete from kept_rows`.execute(db);
});

it('drops kept writes on rollback and fails an update that misses its row', async () => {
  const db = server.runtime.database.db;
  await expect(
    db.transaction().execute(async (tx) => {
      deferWritesIn(tx);
      await keepInsert(tx, 'kept_rows', { id: ids[0], label: 'one', at: null, amount: 1 });
      throw new Error('rolled back');
    }),
  ).rejects.toThrow('rolled back');
  await expect(
    db.transaction().execute(async (tx) => {
      deferWritesIn(tx);
      await keepUpdate(tx, 'kept_rows', { id: ids[1], amount: 2 });
    }),
  ).rejects.toThrow('0 of 1 rows updated');
  const { rows } = await sql`select count(*)::int as count from kept_rows`.execute(db);
  expect(rows).toEqual([{ count: 0 }]);
});
