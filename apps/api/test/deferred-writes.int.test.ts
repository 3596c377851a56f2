import { sql, type Insertable } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { OrdersTable } from '../src/db/tables/orders.js';
import { insertOrder, orderAsWritten } from '../src/modules/orders/orders.repository.js';
import { deferWritesIn, keepInsert, keepUpdate, keptUpdateStatement } from '../src/platform/db/deferred-writes.js';
import { orderFactory } from './factories/orders.js';
import { organizationFactory } from './factories/organizations.js';
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

it("answers a kept order as the database's RETURNING row of the same insert", async () => {
  const db = server.runtime.database.db;
  const { organization } = await organizationFactory(server, { name: 'Kept orders' });
  const made = await orderFactory(server, organization.id);
  const stored = await db.selectFrom('orders').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
  // The same order again, as a renewal writes one: defaulted columns left out, JSON columns as text.
  const { refunded_amount, applied_balance_amount, refunded_tax_amount, invoice_path, ...rest } = stored;
  expect([refunded_amount, applied_balance_amount, refunded_tax_amount, invoice_path]).toEqual([0, 0, 0, null]);
  const copy = (id: string): Insertable<OrdersTable> => ({
    ...rest,
    id,
    invoice_number: `KEPT-${id}`,
    tax_details: JSON.stringify({ rate_basis_points: 2000, inclusive: false, lines: [{ label: 'VAT' }] }),
    billing_address: JSON.stringify({ country: 'FR', line1: '1 rue "Haute"' }),
    metadata: JSON.stringify({ plan: 'pro', seats: 3 }),
    custom_field_data: JSON.stringify({ colour: 'blue' }),
  });
  const returned = await insertOrder(db, copy(ids[0]));
  expect(orderAsWritten(copy(ids[0]))).toEqual(returned);
  // Kept in a deferring transaction, the answer is the same row.
  const kept = await db.transaction().execute(async (tx) => {
    deferWritesIn(tx);
    return insertOrder(tx, copy(ids[1]));
  });
  const read = await db.selectFrom('orders').selectAll().where('id', '=', ids[1]).executeTakeFirstOrThrow();
  expect(kept).toEqual(read);
  expect({ ...read, id: ids[0], invoice_number: `KEPT-${ids[0]}` }).toEqual(returned);
});

it('finds the rows of kept updates by their primary key, not by reading the table whole', async () => {
  const db = server.runtime.database.db;
  await sql`insert into kept_rows (id, label, amount) select gen_random_uuid(), 'row ' || n, n from generate_series(1, 20000) n`.execute(
    db,
  );
  await sql`analyze kept_rows`.execute(db);
  const group = (await sql<{ id: string }>`select id from kept_rows limit 25`.execute(db)).rows.map((row) => row.id);
  const statement = keptUpdateStatement(
    'kept_rows',
    ['amount'],
    JSON.stringify(group.map((id, index) => ({ id, amount: -index }))),
    group,
  );
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': unknown }>({
    ...statement,
    sql: `explain (format json) ${statement.sql}`,
  });
  const plan = JSON.stringify(rows[0]!['QUERY PLAN']);
  expect(plan).toContain('"Index Name":"kept_rows_pkey"');
  expect(plan).not.toContain('"Node Type":"Seq Scan"');
  // And it updates them.
  const updated = await db.executeQuery(statement);
  expect(Number(updated.numAffectedRows)).toBe(25);
  await sql`delete from kept_rows`.execute(db);
});
