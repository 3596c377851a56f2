import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/schema.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { startTestServer, type TestServer } from './harness.js';

/**
 * The hourly rollups of the metrics (migration 0043, docs/metrics.md) against a recomputation from the
 * orders and checkouts, after every step of seeded random write sequences: inserts of several rows, status
 * changes, refunds, amounts, instants and products moved, deletes, in one statement or several, committed
 * or rolled back. Then the rebuild (the backfill) from a damaged state.
 */
let server: TestServer;
let db: Kysely<DB>;
let organizations: OrganizationFixture[];
const products = new Map<string, { id: string; price: string }[]>();
const customers = new Map<string, string[]>();
const subscriptions = new Map<string, string[]>();

/** A seeded generator (mulberry32). */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const ORDER_STATUSES = ['pending', 'paid', 'paid', 'refunded', 'partially_refunded'];
const CHECKOUT_STATUSES = ['open', 'expired', 'confirmed', 'succeeded', 'failed'];

beforeAll(async () => {
  server = await startTestServer();
  db = server.runtime.database.db;
  organizations = [
    await organizationFactory(server, { name: 'Roll' }),
    await organizationFactory(server, { name: 'Up' }),
  ];
  const created = new Date('2025-01-01T00:00:00Z');
  for (const organization of organizations) {
    const org = organization.organization.id;
    products.set(org, []);
    customers.set(org, []);
    subscriptions.set(org, []);
    for (const interval of [null, null, 'month']) {
      const id = crypto.randomUUID();
      const price = crypto.randomUUID();
      await sql`INSERT INTO products (id, created_at, organization_id, name, recurring_interval)
                VALUES (${id}, ${created}, ${org}, 'P', ${interval})`.execute(db);
      await sql`INSERT INTO product_prices (id, created_at, product_id, position, amount_type, price_currency, price_amount)
                VALUES (${price}, ${created}, ${id}, 0, 'fixed', 'usd', 1000)`.execute(db);
      products.get(org)!.push({ id, price });
    }
    for (let i = 0; i < 4; i++) {
      const id = crypto.randomUUID();
      await sql`INSERT INTO customers (id, created_at, organization_id, email)
                VALUES (${id}, ${created}, ${org}, ${`r${i}-${id}@example.test`})`.execute(db);
      customers.get(org)!.push(id);
    }
    for (let i = 0; i < 3; i++) {
      const id = crypto.randomUUID();
      await sql`INSERT INTO subscriptions (id, created_at, organization_id, customer_id, product_id, amount, currency,
                  recurring_interval, status, current_period_start, anchor_day, started_at)
                VALUES (${id}, ${created}, ${org}, ${customers.get(org)![i]!}, ${products.get(org)![2]!.id}, 1000, 'usd',
                  'month', 'active', ${created}, 1, ${created})`.execute(db);
      subscriptions.get(org)!.push(id);
    }
  }
}, 120_000);
afterAll(() => server?.stop());

/** The rollups' rows with a non-zero value, in a stable order. */
async function rollups() {
  const { rows } = await sql<Record<string, unknown>>`
    SELECT organization_id, hour, product_id, orders, revenue, net_revenue, one_time_orders, one_time_revenue,
           checkouts, succeeded_checkouts
    FROM metrics_hours
    WHERE orders <> 0 OR revenue <> 0 OR net_revenue <> 0 OR one_time_orders <> 0 OR one_time_revenue <> 0
       OR checkouts <> 0 OR succeeded_checkouts <> 0
    ORDER BY organization_id, hour, product_id`.execute(db);
  return rows.map((row) => ({ ...row, hour: new Date(row.hour as string).toISOString() }));
}

/** The same, computed from the orders and checkouts as they are (the definitions of docs/metrics.md). */
async function recomputed() {
  const { rows } = await sql<Record<string, unknown>>`
    WITH o AS (
      SELECT organization_id, date_trunc('hour', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS hour, product_id,
             count(*) AS orders, sum(net_amount) AS revenue, sum(net_amount - refunded_amount) AS net_revenue,
             count(*) FILTER (WHERE subscription_id IS NULL) AS one_time_orders,
             coalesce(sum(net_amount) FILTER (WHERE subscription_id IS NULL), 0) AS one_time_revenue
      FROM orders WHERE status IN ('paid', 'refunded', 'partially_refunded') GROUP BY 1, 2, 3
    ),
    c AS (
      SELECT organization_id, date_trunc('hour', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS hour, product_id,
             count(*) AS checkouts, count(*) FILTER (WHERE status = 'succeeded') AS succeeded_checkouts
      FROM checkouts GROUP BY 1, 2, 3
    )
    SELECT organization_id, hour, product_id,
           coalesce(o.orders, 0) AS orders, coalesce(o.revenue, 0) AS revenue, coalesce(o.net_revenue, 0) AS net_revenue,
           coalesce(o.one_time_orders, 0) AS one_time_orders, coalesce(o.one_time_revenue, 0) AS one_time_revenue,
           coalesce(c.checkouts, 0) AS checkouts, coalesce(c.succeeded_checkouts, 0) AS succeeded_checkouts
    FROM o FULL JOIN c USING (organization_id, hour, product_id)
    ORDER BY organization_id, hour, product_id`.execute(db);
  return rows.map((row) => ({ ...row, hour: new Date(row.hour as string).toISOString() }));
}

/** Values compared as numbers (bigint sums come back as strings). */
const plain = (rows: Record<string, unknown>[]) =>
  rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [
        key,
        typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value,
      ]),
    ),
  );

describe('metrics rollups', () => {
  it('stay equal to a recomputation after every step of random write sequences', async () => {
    const next = random(43);
    const pick = <T>(values: T[]) => values[Math.floor(next() * values.length)]!;
    // Instants in a few hours of two days, on hour boundaries and between them.
    const hours = ['2026-03-01T00:00:00Z', '2026-03-01T00:59:59.999Z', '2026-03-01T01:00:00Z', '2026-03-29T01:30:00Z'];
    const instant = () =>
      next() < 0.5
        ? new Date(pick(hours))
        : new Date(Date.parse('2026-03-01T00:00:00Z') + Math.floor(next() * 6) * 1_800_000);
    const orderIds: string[] = [];
    const checkoutIds: string[] = [];
    let invoice = 0;
    let steps = 0;
    const insertOrders = async (executor: Kysely<DB>) => {
      const org = pick(organizations).organization.id;
      const values = Array.from({ length: 1 + Math.floor(next() * 4) }, () => {
        const id = crypto.randomUUID();
        orderIds.push(id);
        const subscription = next() < 0.4 ? pick(subscriptions.get(org)!) : null;
        const net = Math.floor(next() * 5000) + 1;
        const status = pick(ORDER_STATUSES);
        const refunded = status === 'refunded' ? net : status === 'partially_refunded' ? Math.floor(net / 3) : 0;
        return sql`(${id}, ${instant()}, ${org}, ${pick(customers.get(org)!)}, ${pick(products.get(org)!).id},
          ${subscription}::uuid, ${status}, 'purchase', 'usd', ${net}, 0, ${net}, 0, ${net}, ${refunded}, ${`RU-${invoice++}`})`;
      });
      await sql`INSERT INTO orders (id, created_at, organization_id, customer_id, product_id, subscription_id, status,
                  billing_reason, currency, subtotal_amount, discount_amount, net_amount, tax_amount, total_amount,
                  refunded_amount, invoice_number)
                VALUES ${sql.join(values)}`.execute(executor);
    };
    const insertCheckouts = async (executor: Kysely<DB>) => {
      const org = pick(organizations).organization.id;
      const values = Array.from({ length: 1 + Math.floor(next() * 4) }, () => {
        const id = crypto.randomUUID();
        checkoutIds.push(id);
        const product = pick(products.get(org)!);
        const at = instant();
        return sql`(${id}, ${at}, ${org}, ${`cs_ru_${id}`}, ${pick(CHECKOUT_STATUSES)}, ${new Date(at.getTime() + 3_600_000)},
          ${product.id}, ${product.price}, 1000, 'usd', true, false, false)`;
      });
      await sql`INSERT INTO checkouts (id, created_at, organization_id, client_secret, status, expires_at, product_id,
                  product_price_id, amount, currency, allow_discount_codes, require_billing_address, is_business_customer)
                VALUES ${sql.join(values)}`.execute(executor);
    };
    /** A few existing ids (several rows changed by one statement). */
    const some = (ids: string[]) => [...new Set(Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(ids)))];
    const operations: ((executor: Kysely<DB>) => Promise<unknown>)[] = [
      insertOrders,
      insertOrders,
      insertCheckouts,
      insertCheckouts,
      (executor) =>
        sql`UPDATE orders SET status = ${pick(ORDER_STATUSES)} WHERE id IN (${sql.join(some(orderIds))})`.execute(
          executor,
        ),
      (executor) =>
        sql`UPDATE orders SET refunded_amount = least(net_amount, refunded_amount + ${Math.floor(next() * 800)}),
                              status = CASE WHEN status = 'paid' THEN 'partially_refunded' ELSE status END
            WHERE id IN (${sql.join(some(orderIds))})`.execute(executor),
      (executor) => {
        const more = Math.floor(next() * 300);
        return sql`UPDATE orders SET subtotal_amount = subtotal_amount + ${more}, net_amount = net_amount + ${more},
                                     total_amount = total_amount + ${more}, created_at = ${instant()}
                   WHERE id IN (${sql.join(some(orderIds))})`.execute(executor);
      },
      (executor) =>
        sql`UPDATE orders o SET product_id = (SELECT p.id FROM products p WHERE p.organization_id = o.organization_id
                                               ORDER BY p.id OFFSET ${Math.floor(next() * 3)} LIMIT 1),
                              subscription_id = NULL
            WHERE o.id IN (${sql.join(some(orderIds))})`.execute(executor),
      // A write that changes nothing the metrics read.
      (executor) =>
        sql`UPDATE orders SET invoice_path = NULL WHERE id IN (${sql.join(some(orderIds))})`.execute(executor),
      (executor) => sql`DELETE FROM orders WHERE id IN (${sql.join(some(orderIds))})`.execute(executor),
      (executor) =>
        sql`UPDATE checkouts SET status = ${pick(CHECKOUT_STATUSES)} WHERE id IN (${sql.join(some(checkoutIds))})`.execute(
          executor,
        ),
      (executor) =>
        sql`UPDATE checkouts SET created_at = ${instant()} WHERE id IN (${sql.join(some(checkoutIds))})`.execute(
          executor,
        ),
      (executor) => sql`DELETE FROM checkouts WHERE id IN (${sql.join(some(checkoutIds))})`.execute(executor),
    ];
    await insertOrders(db);
    await insertCheckouts(db);
    for (let step = 0; step < 120; step++) {
      const count = 1 + Math.floor(next() * 3);
      const chosen = Array.from({ length: count }, () => pick(operations));
      const rollBack = next() < 0.15;
      const before = rollBack ? await rollups() : undefined;
      await db
        .transaction()
        .execute(async (tx) => {
          for (const operation of chosen) await operation(tx);
          if (rollBack) throw new Error('rolled back');
        })
        .catch((error: unknown) => {
          if (!(error instanceof Error && error.message === 'rolled back')) throw error;
        });
      if (before) expect(await rollups(), `step ${step}: rolled back`).toEqual(before);
      expect(plain(await rollups()), `step ${step}`).toEqual(plain(await recomputed()));
      steps++;
    }
    expect(steps).toBe(120);
    // The world is not empty: the comparisons compared something.
    expect((await rollups()).length).toBeGreaterThan(3);
  }, 180_000);

  it('are rebuilt from the rows by metrics_hours_rebuild (the backfill), one organization or all', async () => {
    const expected = plain(await recomputed());
    const org = organizations[0]!.organization.id;
    await sql`UPDATE metrics_hours SET orders = orders + 5, revenue = revenue - 7 WHERE organization_id = ${org}`.execute(
      db,
    );
    await sql`DELETE FROM metrics_hours WHERE organization_id = ${organizations[1]!.organization.id}`.execute(db);
    expect(plain(await rollups())).not.toEqual(expected);
    await sql`SELECT metrics_hours_rebuild(${org}::uuid)`.execute(db);
    await sql`SELECT metrics_hours_rebuild(${organizations[1]!.organization.id}::uuid)`.execute(db);
    expect(plain(await rollups())).toEqual(expected);
    await sql`DELETE FROM metrics_hours`.execute(db);
    await sql`SELECT metrics_hours_rebuild(NULL)`.execute(db);
    expect(plain(await rollups())).toEqual(expected);
  });
});
