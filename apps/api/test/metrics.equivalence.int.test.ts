import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimeInterval } from '../src/modules/metrics/metrics.periods.js';
import { foldStaleHours } from '../src/modules/metrics/metrics-hours.repository.js';
import {
  aggregateFromHours,
  aggregateMetrics,
  type MetricsRow,
  type MetricsScope,
} from '../src/modules/metrics/metrics.repository.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { startTestServer, type TestServer } from './harness.js';
import { referenceMetrics } from './support/metrics-reference.js';

/**
 * The production statement against the definitions stated literally (`support/metrics-reference.ts`)
 * on a random world written straight to the tables: orders of every status with refunds, subscriptions
 * started and ended anywhere (also before and after the ranges, at local midnights and month ends),
 * trials (trialing, converted, ended inside or at their end), amount changes, checkouts; every interval, three zones, filters. Any difference in any period fails.
 */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;
/** A world of regular rows only, which the hours answer (the rows statement answers the others). */
let steady: OrganizationFixture;
const products: { id: string; interval: string | null }[] = [];
const customers: string[] = [];

/** A seeded generator (mulberry32): the world is the same on every run. */
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

// Instants on period boundaries of the zones tested, and random ones between 2025-12-20 and 2026-04-10.
const BOUNDARIES = [
  '2026-01-01T00:00:00Z',
  '2025-12-31T23:00:00Z',
  '2026-01-01T05:00:00Z',
  '2026-01-31T23:00:00Z',
  '2026-02-01T00:00:00Z',
  '2026-02-01T05:00:00Z',
  '2026-02-28T23:59:59.999Z',
  '2026-03-01T00:00:00Z',
  '2026-03-08T07:00:00Z',
  '2026-03-09T00:00:00Z',
  '2026-03-29T01:00:00Z',
  '2026-03-31T22:00:00Z',
  '2026-04-01T00:00:00Z',
  '2026-01-05T00:00:00Z',
  '2026-01-04T23:00:00Z',
  '2026-01-12T05:00:00Z',
];

/**
 * Writes a random world into `org`. A regular world holds only rows the application writes: orders of a
 * subscription from its start on, subscriptions ending after they start, amount changes while active;
 * the other also orders before their subscription's start, ends before starts and changes outside the
 * subscription's life, which the definitions answer too (and the hours leave to the rows statement).
 */
async function writeWorld(
  org: string,
  worldProducts: { id: string; interval: string | null }[],
  worldCustomers: string[],
  seed: number,
  regular: boolean,
) {
  const db = server.runtime.database.db;
  const next = random(seed);
  const pick = <T>(values: T[]) => values[Math.floor(next() * values.length)]!;
  const from = Date.parse('2025-12-20T00:00:00Z');
  const span = Date.parse('2026-04-10T00:00:00Z') - from;
  const instant = () => (next() < 0.3 ? new Date(pick(BOUNDARIES)) : new Date(from + Math.floor(next() * span)));
  const notBefore = (at: Date | null, instantAt: Date) =>
    at && instantAt.getTime() < at.getTime() ? new Date(at) : instantAt;
  const created = new Date('2025-01-01T00:00:00Z');
  const subscriptions: {
    id: string;
    started: Date | null;
    start: Date | null;
    ended: Date | null;
    amount: number;
    product: string;
  }[] = [];
  const rows = {
    subscriptions: [] as RawBuilder<unknown>[],
    changes: [] as RawBuilder<unknown>[],
    orders: [] as RawBuilder<unknown>[],
    checkouts: [] as RawBuilder<unknown>[],
  };
  for (let i = 0; i < 70; i++) {
    const product = pick(worldProducts.filter((p) => p.interval));
    const started = next() < 0.08 ? null : instant();
    let ended: Date | null = null;
    if (next() < 0.45) {
      ended =
        started && (regular || next() < 0.9) ? new Date(Math.max(started.getTime(), instant().getTime())) : instant();
    }
    const id = crypto.randomUUID();
    const amount = 500 + Math.floor(next() * 40) * 100 + (next() < 0.3 ? 6 : 0);
    // A third start with a trial: still trialing, converted, ended inside it or unpaid at its end.
    let trialEnd: Date | null = null;
    let status = ended ? 'canceled' : started ? 'active' : 'incomplete';
    if (started && next() < 0.35) {
      trialEnd = new Date(
        Math.max(started.getTime(), next() < 0.3 ? instant().getTime() : started.getTime() + 14 * 86_400_000),
      );
      const fate = next();
      if (fate < 0.25) {
        status = 'trialing';
        ended = null;
      } else if (fate < 0.4) {
        ended = new Date(trialEnd);
      } else if (fate < 0.5) {
        ended = new Date(started.getTime() + Math.floor((trialEnd.getTime() - started.getTime()) * next()));
      } else if (regular && ended && ended.getTime() <= trialEnd.getTime()) {
        ended = new Date(trialEnd.getTime() + 3_600_000);
      }
      if (ended && status !== 'trialing') status = 'canceled';
    }
    rows.subscriptions
      .push(sql`(${id}, ${started ?? created}, ${org}, ${pick(worldCustomers)}, ${product.id}, ${amount},
      'usd', ${product.interval}, ${status}, ${started ?? created}, 1,
      ${started}::timestamptz, ${ended}::timestamptz, ${trialEnd ? started : null}::timestamptz, ${trialEnd}::timestamptz)`);
    const start = trialEnd ?? started;
    subscriptions.push({ id, started, start, ended, amount, product: product.id });
    // Some change their amount once or twice.
    for (let c = 0; started && c < 2 && next() < 0.3; c++) {
      let at = new Date(instant().getTime() + c);
      if (regular) {
        at = notBefore(start, at);
        if (ended && at.getTime() > ended.getTime()) at = new Date(ended);
        // Two changes never at one instant (their order would be the ids').
        at = new Date(ended && at.getTime() + c > ended.getTime() ? at.getTime() - c : at.getTime() + c);
      }
      rows.changes.push(sql`(${crypto.randomUUID()}, ${id}, ${org}, ${at},
        ${amount + (next() < 0.5 ? 300 : -200)}, ${next() < 0.3 ? 'year' : 'month'}, ${amount}, ${pick(['month', 'year'])})`);
    }
  }
  await sql`INSERT INTO subscriptions (id, created_at, organization_id, customer_id, product_id, amount, currency,
              recurring_interval, status, current_period_start, anchor_day, started_at, ended_at, trial_start, trial_end)
            VALUES ${sql.join(rows.subscriptions)}`.execute(db);
  if (rows.changes.length > 0) {
    await sql`INSERT INTO subscription_amount_changes (id, subscription_id, organization_id, changed_at,
                previous_amount, previous_interval, amount, recurring_interval)
              VALUES ${sql.join(rows.changes)}`.execute(db);
  }
  const statuses = ['paid', 'paid', 'paid', 'pending', 'refunded', 'partially_refunded'];
  for (let i = 0; i < 260; i++) {
    const subscription = next() < 0.45 ? pick(subscriptions) : undefined;
    const product = subscription ? subscription.product : pick(worldProducts.filter((p) => !p.interval)).id;
    let at = subscription?.started && next() < 0.4 ? subscription.started : instant();
    // Several orders of one customer or subscription within hours of each other.
    if (next() < 0.15) at = new Date(at.getTime() + Math.floor(next() * 30) * 3_600_000);
    if (regular && subscription) at = notBefore(subscription.start, at);
    const net = Math.floor(next() * 50) * 100 + (next() < 0.2 ? 1 : 0);
    const status = pick(statuses);
    const refunded = status === 'refunded' ? net : status === 'partially_refunded' ? Math.floor(net / 3) : 0;
    rows.orders.push(sql`(${crypto.randomUUID()}, ${at}, ${org}, ${pick(worldCustomers.slice(0, regular ? 5 : 12))},
      ${product}, ${subscription?.id ?? null}::uuid, ${status}, ${subscription ? 'subscription_cycle' : 'purchase'}, 'usd',
      ${net}, 0, ${net}, 0, ${net}, ${refunded}, ${`EQ-${seed}-${i}`})`);
  }
  await sql`INSERT INTO orders (id, created_at, organization_id, customer_id, product_id, subscription_id, status,
              billing_reason, currency, subtotal_amount, discount_amount, net_amount, tax_amount, total_amount,
              refunded_amount, invoice_number)
            VALUES ${sql.join(rows.orders)}`.execute(db);
  const prices = new Map<string, string>();
  for (const product of worldProducts) {
    const id = crypto.randomUUID();
    await sql`INSERT INTO product_prices (id, created_at, product_id, position, amount_type, price_currency, price_amount)
              VALUES (${id}, ${created}, ${product.id}, 0, 'fixed', 'usd', 1000)`.execute(db);
    prices.set(product.id, id);
  }
  for (let i = 0; i < 160; i++) {
    const product = pick(worldProducts);
    const at = instant();
    rows.checkouts.push(sql`(${crypto.randomUUID()}, ${at}, ${org}, ${`cs_eq_${i}_${crypto.randomUUID()}`},
      ${pick(['open', 'expired', 'confirmed', 'succeeded', 'succeeded', 'failed'])},
      ${new Date(at.getTime() + 3_600_000)}, ${product.id}, ${prices.get(product.id)!}, 1000, 'usd', true, false, false,
      ${next() < 0.8 ? pick(worldCustomers) : null}::uuid)`);
  }
  await sql`INSERT INTO checkouts (id, created_at, organization_id, client_secret, status, expires_at, product_id,
              product_price_id, amount, currency, allow_discount_codes, require_billing_address,
              is_business_customer, customer_id)
            VALUES ${sql.join(rows.checkouts)}`.execute(db);
  // Checkouts change after their insert (their hourly rollup follows each change, migration 0049): some
  // succeed, some succeeded ones fail, some move to another product or another hour, some are deleted.
  const written = await sql<{
    id: string;
  }>`SELECT id FROM checkouts WHERE organization_id = ${org} ORDER BY id`.execute(db);
  for (const { id } of written.rows) {
    const change = next();
    if (change < 0.1) await sql`UPDATE checkouts SET status = 'succeeded' WHERE id = ${id}`.execute(db);
    else if (change < 0.15)
      await sql`UPDATE checkouts SET status = 'failed' WHERE id = ${id} AND status = 'succeeded'`.execute(db);
    else if (change < 0.2) {
      const product = pick(worldProducts);
      await sql`UPDATE checkouts SET product_id = ${product.id}, product_price_id = ${prices.get(product.id)!}
                WHERE id = ${id}`.execute(db);
    } else if (change < 0.25)
      await sql`UPDATE checkouts SET created_at = ${instant()}, status = ${pick(['open', 'succeeded'])}
                WHERE id = ${id}`.execute(db);
    else if (change < 0.28) await sql`DELETE FROM checkouts WHERE id = ${id}`.execute(db);
    else if (change < 0.4) await sql`UPDATE checkouts SET status = 'expired' WHERE id = ${id}`.execute(db);
  }
}

/** Four products (two one-time, a monthly, a yearly) and twelve customers in `org`. */
async function catalogue(org: string) {
  const db = server.runtime.database.db;
  const created = new Date('2025-01-01T00:00:00Z');
  const made = { products: [] as { id: string; interval: string | null }[], customers: [] as string[] };
  for (const interval of [null, null, 'month', 'year']) {
    const id = crypto.randomUUID();
    await sql`INSERT INTO products (id, created_at, organization_id, name, recurring_interval)
              VALUES (${id}, ${created}, ${org}, 'P', ${interval})`.execute(db);
    made.products.push({ id, interval });
  }
  for (let i = 0; i < 12; i++) {
    const id = crypto.randomUUID();
    await sql`INSERT INTO customers (id, created_at, organization_id, email)
              VALUES (${id}, ${created}, ${org}, ${`c${i}-${id}@example.test`})`.execute(db);
    made.customers.push(id);
  }
  return made;
}

beforeAll(async () => {
  // No workers: the hours are folded by the tests, at the moments they choose.
  server = await startTestServer({ work: false });
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
  steady = await organizationFactory(server, { name: 'Steady' });
  const made = await catalogue(acme.organization.id);
  products.push(...made.products);
  customers.push(...made.customers);
  const otherMade = await catalogue(other.organization.id);
  const steadyMade = await catalogue(steady.organization.id);
  await writeWorld(acme.organization.id, products, customers, 20, false);
  await writeWorld(steady.organization.id, steadyMade.products, steadyMade.customers, 7, true);
  await writeWorld(other.organization.id, otherMade.products, otherMade.customers, 11, true);
}, 120_000);
afterAll(() => server?.stop());

/** Values as the service reads them (`Number(value)`): counts come as numbers, sums as numeric strings. */
const normalized = (rows: MetricsRow[]) =>
  rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : Number(value)]),
    ),
  );

const RANGES: [TimeInterval, string, string][] = [
  ['hour', '2026-03-07', '2026-03-09'],
  ['hour', '2026-03-28', '2026-03-30'],
  ['day', '2025-12-28', '2026-04-05'],
  ['week', '2026-01-01', '2026-03-31'],
  ['month', '2026-01-01', '2026-03-31'],
  ['month', '2026-01-15', '2026-03-15'],
  ['year', '2025-01-01', '2026-12-31'],
];

describe('the checkouts rollup', () => {
  it('holds each organization, UTC hour and product count of the checkouts after every change', async () => {
    const db = server.runtime.database.db;
    const counted = await sql<Record<string, unknown>>`
      SELECT organization_id, date_trunc('hour', created_at, 'UTC') AS hour, product_id,
             count(*)::int AS checkouts, (count(*) FILTER (WHERE status = 'succeeded'))::int AS succeeded
      FROM checkouts GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`.execute(db);
    const rollup = await sql<Record<string, unknown>>`
      SELECT organization_id, hour, product_id, sum(checkouts)::int AS checkouts, sum(succeeded)::int AS succeeded
      FROM metrics_checkout_hours GROUP BY 1, 2, 3 HAVING sum(checkouts) <> 0 ORDER BY 1, 2, 3`.execute(db);
    expect(counted.rows.length).toBeGreaterThan(50);
    expect(rollup.rows).toEqual(counted.rows);
  });
});

describe('aggregateMetrics equals the definitions', () => {
  // Asia/Kolkata (UTC+05:30) cuts hours in half: the checkouts are read row by row there.
  for (const timezone of ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata']) {
    it(`every interval in ${timezone}`, async () => {
      const scope: MetricsScope = { organizationIds: [acme.organization.id] };
      for (const [interval, startDate, endDate] of RANGES) {
        const range = { startDate, endDate, interval, timezone };
        const db = server.runtime.database.db;
        const expected = normalized(await referenceMetrics(db, scope, range));
        if (interval === 'day') {
          // The world has trials of every fate inside the range.
          expect(expected.some((row) => Number(row.trial_conversions) > 0)).toBe(true);
          expect(expected.some((row) => Number(row.ended_trials) > Number(row.trial_conversions))).toBe(true);
          expect(expected.some((row) => Number(row.active_trials) > 0)).toBe(true);
        }
        expect(normalized(await aggregateMetrics(db, scope, range)), `${interval} ${startDate}..${endDate}`).toEqual(
          expected,
        );
      }
    });
  }

  it('with filters: products, billing type, customers, several organizations', async () => {
    const db = server.runtime.database.db;
    const range = {
      startDate: '2025-12-28',
      endDate: '2026-04-05',
      interval: 'week' as const,
      timezone: 'Europe/Paris',
    };
    const scopes: MetricsScope[] = [
      { organizationIds: [acme.organization.id], productIds: [products[0]!.id, products[2]!.id] },
      { organizationIds: [acme.organization.id], billingTypes: ['recurring'] },
      { organizationIds: [acme.organization.id], billingTypes: ['one_time'] },
      {
        organizationIds: [acme.organization.id],
        billingTypes: ['one_time', 'recurring'],
        customerIds: customers.slice(0, 4),
      },
      { organizationIds: [acme.organization.id, other.organization.id] },
      { organizationIds: [other.organization.id] },
    ];
    for (const scope of scopes) {
      const expected = normalized(await referenceMetrics(db, scope, range));
      expect(expected.some((row) => Number(row.orders) > 0) || scope.organizationIds[0] === other.organization.id).toBe(
        true,
      );
      expect(normalized(await aggregateMetrics(db, scope, range)), JSON.stringify(scope)).toEqual(expected);
    }
  });
});

describe('the hours (migration 0050)', () => {
  const HOUR_RANGES = RANGES.filter(([interval]) => interval === 'hour' || interval === 'day');
  const ZONES = ['UTC', 'Europe/Paris', 'America/New_York'];

  /** Every hour and day range in three zones: the hours answer, and answer what the definitions do. */
  async function expectHoursAnswer(scope: MetricsScope, label: string) {
    const db = server.runtime.database.db;
    for (const timezone of ZONES) {
      for (const [interval, startDate, endDate] of HOUR_RANGES) {
        const range = { startDate, endDate, interval, timezone };
        const expected = normalized(await referenceMetrics(db, scope, range));
        const answered = await aggregateFromHours(db, scope, range);
        expect(answered, `${label}: ${interval} ${startDate} ${timezone} read from the hours`).not.toBeNull();
        expect(normalized(answered!), `${label}: ${interval} ${startDate}..${endDate} ${timezone}`).toEqual(expected);
      }
    }
  }

  const fold = (organizationId: string) =>
    server.runtime.database.db.transaction().execute((tx) => foldStaleHours(tx, organizationId));
  const marks = async (organizationId: string) =>
    (
      await sql<{ n: number }>`SELECT count(*)::int AS n FROM metrics_stale_hours
                               WHERE organization_id = ${organizationId}`.execute(server.runtime.database.db)
    ).rows[0]!.n;

  it('answer a regular world while every hour is stale, then from the stored hours', async () => {
    const scope: MetricsScope = { organizationIds: [steady.organization.id] };
    expect(await marks(steady.organization.id)).toBeGreaterThan(0);
    await expectHoursAnswer(scope, 'stale');
    expect(await fold(steady.organization.id)).toBeGreaterThan(0);
    expect(await marks(steady.organization.id)).toBe(0);
    const stored = await sql<{ n: number }>`SELECT count(*)::int AS n FROM metrics_order_hours
                                            WHERE organization_id = ${steady.organization.id}`.execute(
      server.runtime.database.db,
    );
    expect(stored.rows[0]!.n).toBeGreaterThan(50);
    await expectHoursAnswer(scope, 'stored');
    // A user's several organizations: their hours add up.
    await fold(other.organization.id);
    await expectHoursAnswer({ organizationIds: [steady.organization.id, other.organization.id] }, 'two organizations');
  });

  it('follow every write: stale hours answered beside stored ones, then stored again', async () => {
    const db = server.runtime.database.db;
    const org = steady.organization.id;
    await fold(org);
    const scope: MetricsScope = { organizationIds: [org] };
    // Orders: a refund, a pending one paid, one moved an hour on, one gone, a new one near another.
    await sql`UPDATE orders SET status = 'partially_refunded', refunded_amount = net_amount / 2
              WHERE id = (SELECT id FROM orders WHERE organization_id = ${org} AND status = 'paid'
                          ORDER BY invoice_number LIMIT 1)`.execute(db);
    await sql`UPDATE orders SET status = 'paid'
              WHERE id = (SELECT id FROM orders WHERE organization_id = ${org} AND status = 'pending'
                          ORDER BY invoice_number LIMIT 1)`.execute(db);
    await sql`UPDATE orders SET created_at = created_at + interval '1 hour'
              WHERE id = (SELECT id FROM orders WHERE organization_id = ${org} AND status = 'paid'
                          AND subscription_id IS NULL ORDER BY invoice_number DESC LIMIT 1)`.execute(db);
    await sql`DELETE FROM orders
              WHERE id = (SELECT id FROM orders WHERE organization_id = ${org} AND status = 'paid'
                          ORDER BY invoice_number OFFSET 5 LIMIT 1)`.execute(db);
    await sql`INSERT INTO orders (id, created_at, organization_id, customer_id, product_id, subscription_id, status,
                billing_reason, currency, subtotal_amount, discount_amount, net_amount, tax_amount, total_amount,
                refunded_amount, invoice_number)
              SELECT ${crypto.randomUUID()}, o.created_at + interval '90 minutes', o.organization_id, o.customer_id,
                     o.product_id, o.subscription_id, 'paid', o.billing_reason, 'usd', 700, 0, 700, 0, 700, 0, 'EQ-NEAR'
              FROM orders o WHERE o.organization_id = ${org} AND o.subscription_id IS NOT NULL AND o.status = 'paid'
              ORDER BY o.invoice_number LIMIT 1`.execute(db);
    // Subscriptions: one ends, one changes its amount, a trial's end moves; a checkout succeeds.
    await sql`UPDATE subscriptions SET ended_at = coalesce(trial_end, started_at) + interval '3 days', status = 'canceled'
              WHERE id = (SELECT s.id FROM subscriptions s WHERE s.organization_id = ${org} AND s.ended_at IS NULL
                          AND s.started_at IS NOT NULL AND s.status = 'active'
                          AND NOT EXISTS (SELECT 1 FROM subscription_amount_changes ch WHERE ch.subscription_id = s.id)
                          ORDER BY s.id LIMIT 1)`.execute(db);
    await sql`INSERT INTO subscription_amount_changes (id, subscription_id, organization_id, changed_at,
                previous_amount, previous_interval, amount, recurring_interval)
              SELECT ${crypto.randomUUID()}, s.id, s.organization_id, coalesce(s.trial_end, s.started_at) + interval '2 hours',
                     s.amount, s.recurring_interval, s.amount + 1200, s.recurring_interval
              FROM subscriptions s WHERE s.organization_id = ${org} AND s.ended_at IS NULL AND s.status = 'active'
              ORDER BY s.id DESC LIMIT 1`.execute(db);
    await sql`UPDATE subscriptions SET amount = amount + 1200
              WHERE id = (SELECT subscription_id FROM subscription_amount_changes
                          WHERE organization_id = ${org} AND amount - previous_amount = 1200 LIMIT 1)`.execute(db);
    await sql`UPDATE subscriptions SET trial_end = greatest(started_at, trial_end - interval '1 hour')
              WHERE id = (SELECT id FROM subscriptions WHERE organization_id = ${org} AND trial_end IS NOT NULL
                          AND status <> 'trialing' AND ended_at IS NULL ORDER BY id LIMIT 1)`.execute(db);
    await sql`UPDATE checkouts SET status = 'succeeded'
              WHERE id = (SELECT id FROM checkouts WHERE organization_id = ${org} AND status = 'open'
                          ORDER BY id LIMIT 1)`.execute(db);
    expect(await marks(org)).toBeGreaterThan(5);
    await expectHoursAnswer(scope, 'after writes');
    await fold(org);
    expect(await marks(org)).toBe(0);
    await expectHoursAnswer(scope, 'folded after writes');
  });

  it('leave a range with irregular rows to the rows statement, which answers it', async () => {
    const db = server.runtime.database.db;
    const scope: MetricsScope = { organizationIds: [acme.organization.id] };
    const range = { startDate: '2025-12-28', endDate: '2026-04-05', interval: 'day' as const, timezone: 'UTC' };
    await fold(acme.organization.id);
    expect(await aggregateFromHours(db, scope, range)).toBeNull();
    expect(normalized(await aggregateMetrics(db, scope, range))).toEqual(
      normalized(await referenceMetrics(db, scope, range)),
    );
  });
});
