import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/platform/clock.js';
import { metricsHoursJob } from '../src/modules/metrics/metrics.hours.js';
import { periodsOf } from '../src/modules/metrics/metrics.periods.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { ADDRESS, CARDS, checkoutFactory, confirmationToken } from './factories/checkouts.js';
import { customerFactory } from './factories/customers.js';
import { orderFactory } from './factories/orders.js';
import { productFactory } from './factories/products.js';
import { paidOrderFactory } from './factories/refunds.js';
import { subscriptionFactory } from './factories/subscriptions.js';
import { userFactory } from './factories/users.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

/**
 * The Metrics API over a fixture world built through the API, every value computed by hand
 * (docs/metrics.md). Everything starts at 2026-01-31 23:30 UTC: January in UTC and New York, already
 * 1 February in Paris.
 *
 *   one-time product A 1000: order o1 (paid), o2 (paid, subtotal 2500), o3 (pending, 9900: not revenue)
 *   paid checkout purchase p1 (one-time, 1000), refunded 400 later
 *   subscription S1 monthly 1000 (checkout, order 1000), renewed by the test clock on 3 March
 *   subscription S2 yearly 12000 (MRR 1000; checkout, order 12000), revoked on 3 March after the renewal
 *   an open checkout that expires (counted, not succeeded)
 */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;
let world: { s1: string; s2: string; renewalAt: Date; revokedAt: Date; productA: string };
const START = '2026-01-31T23:30:00.000Z';

const metrics = (query: string, token = acme.token) =>
  server.inject({ method: 'GET', url: `/v1/metrics/?${query}`, headers: bearer(token) });

beforeAll(async () => {
  server = await startTestServer({ clock: new ManualClock(START) });
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
  const a = await productFactory(server, acme.organization.id);
  const alice = await customerFactory(server, acme.organization.id);
  await orderFactory(server, acme.organization.id, { product: a, customer: alice });
  await orderFactory(server, acme.organization.id, { product: a, customer: alice, subtotal_amount: 2500 });
  await orderFactory(server, acme.organization.id, { product: a, subtotal_amount: 9900, status: 'pending' });
  const p1 = await paidOrderFactory(server, acme);
  const s1 = await subscriptionFactory(server, acme.organization.id, { interval: 'month', price: 1000 });
  const s2 = await subscriptionFactory(server, acme.organization.id, { interval: 'year', price: 12000 });
  await checkoutFactory(server, acme.organization.id, [a.product.id]);
  // Another organization's sales never show.
  await orderFactory(server, other.organization.id);

  const advanced = await server.inject({
    method: 'POST',
    url: '/v1/test-clock/advance',
    headers: bearer(acme.token),
    payload: { days: 31 },
  });
  expect(advanced.statusCode).toBe(200);
  const refund = await server.inject({
    method: 'POST',
    url: '/v1/refunds/',
    headers: bearer(acme.token),
    payload: { order_id: p1.orderId, reason: 'customer_request', amount: 400 },
  });
  expect(refund.statusCode).toBe(200);
  const revoked = await server.inject({
    method: 'DELETE',
    url: `/v1/subscriptions/${s2.id}`,
    headers: bearer(acme.token),
  });
  expect(revoked.statusCode).toBe(200);
  const db = server.runtime.database.db;
  const renewal = await db
    .selectFrom('orders')
    .select('created_at')
    .where('subscription_id', '=', s1.id)
    .where('billing_reason', '=', 'subscription_cycle')
    .executeTakeFirstOrThrow();
  const ended = await db
    .selectFrom('subscriptions')
    .select('ended_at')
    .where('id', '=', s2.id)
    .executeTakeFirstOrThrow();
  world = {
    s1: s1.id,
    s2: s2.id,
    renewalAt: new Date(renewal.created_at),
    revokedAt: new Date(ended.ended_at!),
    productA: a.product.id,
  };
}, 120_000);
afterAll(() => server?.stop());

describe('the fixture world', () => {
  it('renewed S1 and revoked S2 a month later, on the test clock', () => {
    // A month after 31 January is 3 March (the anchor day 31 overflows February); the clock then stands
    // at 3 March 23:30 UTC, when S2 is revoked.
    expect(world.renewalAt.toISOString().slice(0, 10)).toBe('2026-03-03');
    expect(world.revokedAt.toISOString()).toBe('2026-03-03T23:30:00.000Z');
  });
});

describe('GET /v1/metrics/', () => {
  it('by month in UTC: January has the sales, February nothing new, March the renewal and the churn', async () => {
    const response = await metrics('start_date=2026-01-01&end_date=2026-03-31&interval=month');
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(body.periods.map((p: { timestamp: string }) => p.timestamp)).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-02-01T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z',
    ]);
    const [jan, feb, mar] = body.periods;
    // January: o1 1000 + o2 2500 + p1 1000 + S1 1000 + S2 12000; o3 is pending.
    expect(jan).toMatchObject({
      orders: 5,
      revenue: 17500,
      cumulative_revenue: 17500,
      average_order_value: 3500,
      one_time_products: 3,
      one_time_products_revenue: 4500,
      new_subscriptions: 2,
      new_subscriptions_revenue: 13000,
      renewed_subscriptions: 0,
      renewed_subscriptions_revenue: 0,
      active_subscriptions: 2,
      monthly_recurring_revenue: 2000,
      checkouts: 4,
      succeeded_checkouts: 3,
      checkouts_conversion: 0.75,
      net_revenue: 17100,
      churned_subscriptions: 0,
      churn_rate: 0,
      new_monthly_recurring_revenue: 2000,
      churned_monthly_recurring_revenue: 0,
    });
    // Alice bought twice (3500), three other buyers 1000, 1000, 12000: 17500 / 4 customers.
    expect(jan.average_revenue_per_user).toBe(4375);
    expect(feb).toMatchObject({
      orders: 0,
      revenue: 0,
      cumulative_revenue: 17500,
      average_order_value: 0,
      new_subscriptions: 0,
      active_subscriptions: 2,
      monthly_recurring_revenue: 2000,
      checkouts: 0,
      checkouts_conversion: 0,
      churned_subscriptions: 0,
    });
    expect(mar).toMatchObject({
      orders: 1,
      revenue: 1000,
      cumulative_revenue: 18500,
      renewed_subscriptions: 1,
      renewed_subscriptions_revenue: 1000,
      new_subscriptions: 0,
      active_subscriptions: 1,
      monthly_recurring_revenue: 1000,
      churned_subscriptions: 1,
      churn_rate: 0.5,
      churned_monthly_recurring_revenue: 1000,
    });
    expect(body.totals).toMatchObject({
      orders: 6,
      revenue: 18500,
      cumulative_revenue: 18500,
      active_subscriptions: 1,
      monthly_recurring_revenue: 1000,
      average_order_value: (3500 + 0 + 1000) / 3,
      checkouts_conversion: 0.75 / 3,
      churned_subscriptions: 1,
      net_revenue: 18100,
    });
    expect(body.metrics.revenue).toEqual({ slug: 'revenue', display_name: 'Revenue', type: 'currency' });
    expect(body.metrics.checkouts_conversion.type).toBe('percentage');
  });

  it('in Europe/Paris the sales of 31 January 23:30 UTC fall on 1 February', async () => {
    const body = json(await metrics('start_date=2026-01-31&end_date=2026-02-01&interval=day&timezone=Europe/Paris'));
    expect(body.periods.map((p: { timestamp: string }) => p.timestamp)).toEqual([
      '2026-01-30T23:00:00.000Z',
      '2026-01-31T23:00:00.000Z',
    ]);
    expect(body.periods[0]).toMatchObject({ orders: 0, revenue: 0, checkouts: 0, active_subscriptions: 0 });
    expect(body.periods[1]).toMatchObject({ orders: 5, revenue: 17500, checkouts: 4, active_subscriptions: 2 });
    const utc = json(await metrics('start_date=2026-01-31&end_date=2026-02-01&interval=day'));
    expect(utc.periods[0]).toMatchObject({ orders: 5, revenue: 17500, checkouts: 4, active_subscriptions: 2 });
    expect(utc.periods[1]).toMatchObject({ orders: 0, revenue: 0, active_subscriptions: 2 });
  });

  it('by week and year, in America/New_York and Europe/Paris', async () => {
    const ny = json(await metrics('start_date=2026-01-26&end_date=2026-02-08&interval=week&timezone=America/New_York'));
    expect(ny.periods.map((p: { orders: number }) => p.orders)).toEqual([5, 0]);
    const paris = json(await metrics('start_date=2026-01-26&end_date=2026-02-08&interval=week&timezone=Europe/Paris'));
    expect(paris.periods.map((p: { orders: number }) => p.orders)).toEqual([5, 0]);
    const year = json(await metrics('start_date=2025-01-01&end_date=2026-12-31&interval=year&timezone=Europe/Paris'));
    expect(year.periods.map((p: { timestamp: string }) => p.timestamp)).toEqual([
      '2024-12-31T23:00:00.000Z',
      '2025-12-31T23:00:00.000Z',
    ]);
    expect(year.periods[1]).toMatchObject({
      orders: 6,
      revenue: 18500,
      churned_subscriptions: 1,
      active_subscriptions: 1,
    });
  });

  it('by hour: 00:30 in Paris, 18:30 in New York', async () => {
    const paris = json(await metrics('start_date=2026-02-01&end_date=2026-02-01&interval=hour&timezone=Europe/Paris'));
    expect(paris.periods).toHaveLength(24);
    expect(paris.periods[0]).toMatchObject({ timestamp: '2026-01-31T23:00:00.000Z', orders: 5, checkouts: 4 });
    expect(paris.totals).toMatchObject({ orders: 5, revenue: 17500, succeeded_checkouts: 3 });
    const ny = json(await metrics('start_date=2026-01-31&end_date=2026-01-31&interval=hour&timezone=America/New_York'));
    const busy = ny.periods.flatMap((p: { orders: number }, i: number) => (p.orders ? [i] : []));
    expect(busy).toEqual([18]);
    expect(ny.periods[18]).toMatchObject({
      timestamp: '2026-01-31T23:00:00.000Z',
      revenue: 17500,
      active_subscriptions: 2,
    });
    expect(ny.periods[17].active_subscriptions).toBe(0);
  });

  it('the statement cuts the same periods as the table-tested function', async () => {
    for (const [interval, start, end, zone] of [
      ['hour', '2026-03-28', '2026-03-30', 'Europe/Paris'],
      ['day', '2026-03-01', '2026-03-31', 'America/New_York'],
      ['week', '2026-01-07', '2026-03-04', 'Europe/Paris'],
      ['month', '2025-01-31', '2026-12-31', 'America/New_York'],
    ] as const) {
      const body = json(await metrics(`start_date=${start}&end_date=${end}&interval=${interval}&timezone=${zone}`));
      expect(body.periods.map((p: { timestamp: string }) => p.timestamp)).toEqual(
        periodsOf(start, end, interval, zone).map((p) => p.start.toISOString()),
      );
    }
  });

  it('filters by product, billing type and customer; another organization sees none of it', async () => {
    const range = 'start_date=2026-01-01&end_date=2026-01-31&interval=month';
    expect(json(await metrics(`${range}&product_id=${world.productA}`)).totals).toMatchObject({
      orders: 2,
      revenue: 3500,
      checkouts: 1,
      succeeded_checkouts: 0,
    });
    expect(json(await metrics(`${range}&billing_type=recurring`)).totals).toMatchObject({
      orders: 2,
      revenue: 13000,
      active_subscriptions: 2,
    });
    expect(json(await metrics(`${range}&billing_type=one_time`)).totals).toMatchObject({ orders: 3, revenue: 4500 });
    expect(json(await metrics(range, other.token)).totals).toMatchObject({ orders: 1, revenue: 1000 });
    expect(json(await metrics(`${range}&organization_id=${acme.organization.id}`, other.token)).totals.orders).toBe(0);
  });

  it('auth: 401 without a token, 403 without metrics:read', async () => {
    const range = 'start_date=2026-01-01&end_date=2026-01-31&interval=month';
    expect((await server.inject({ method: 'GET', url: `/v1/metrics/?${range}` })).statusCode).toBe(401);
    expect((await server.inject({ method: 'GET', url: '/v1/metrics/limits' })).statusCode).toBe(401);
    const noScope = await tokenFactory(server, acme.organization.id, ['orders:read']);
    expect((await metrics(range, noScope)).statusCode).toBe(403);
    const scoped = await tokenFactory(server, acme.organization.id, ['metrics:read']);
    expect((await metrics(range, scoped)).statusCode).toBe(200);
  });

  it('MRR expansion and contraction from product changes of a subscription', async () => {
    const grow = await organizationFactory(server, { name: 'Grow' });
    const subscription = await subscriptionFactory(server, grow.organization.id, { interval: 'month', price: 1000 });
    const change = async (price: number) => {
      const product = await productFactory(server, grow.organization.id, {
        recurring_interval: 'month',
        prices: [{ amount_type: 'fixed', price_amount: price }],
      });
      const response = await server.inject({
        method: 'PATCH',
        url: `/v1/subscriptions/${subscription.id}`,
        headers: bearer(grow.token),
        payload: { product_id: product.product.id, proration_behavior: 'prorate' },
      });
      expect(response.statusCode, response.body).toBe(200);
    };
    await change(3000); // +2000
    await change(500); // −2500
    const body = json(await metrics('start_date=2026-01-01&end_date=2026-01-31&interval=month', grow.token));
    expect(body.periods[0]).toMatchObject({
      new_monthly_recurring_revenue: 1000, // at the amount it started with
      expansion_monthly_recurring_revenue: 2000,
      contraction_monthly_recurring_revenue: 2500,
      monthly_recurring_revenue: 500,
    });
    // The movements add up: 0 + 1000 + 2000 − 2500 − 0 = 500.
  });

  it('a user sees the organizations they belong to, and only those', async () => {
    const range = 'start_date=2026-01-01&end_date=2026-01-31&interval=month';
    const user = await userFactory(server);
    const asUser = (query: string) =>
      server.inject({ method: 'GET', url: `/v1/metrics/?${query}`, headers: { cookie: user.cookie } });
    expect(json(await asUser(range)).totals.orders).toBe(0);
    await server.runtime.database.db
      .insertInto('user_organizations')
      .values({ user_id: user.id, organization_id: acme.organization.id, created_at: new Date() })
      .execute();
    expect(json(await asUser(range)).totals).toMatchObject({ orders: 5, revenue: 17500 });
    expect(json(await asUser(`${range}&organization_id=${other.organization.id}`)).totals.orders).toBe(0);
  });

  it('bad input is a 422 on the field at fault, never a 500', async () => {
    const many = Array.from({ length: 10_000 }, () => `product_id=${world.productA}`).join('&');
    for (const [query, loc, message] of [
      [
        'start_date=2026-1-01&end_date=2026-01-31&interval=day',
        'start_date',
        'Date string must be in YYYY-MM-DD format.',
      ],
      ['start_date=2026-02-30&end_date=2026-03-31&interval=day', 'start_date', 'Invalid date.'],
      ['start_date=2022-12-31&end_date=2023-01-31&interval=day', 'start_date', 'Date must be 2023-01-01 or later.'],
      ['start_date=2026-02-01&end_date=2026-01-31&interval=day', 'end_date', 'end_date must not be before start_date.'],
      [
        'start_date=2026-01-01&end_date=2026-01-09&interval=hour',
        'interval',
        'The interval is too big. Try to change the interval or reduce the date range.',
      ],
      ['start_date=2026-01-01&end_date=2026-01-09&interval=minute', 'interval', undefined],
      [
        'start_date=2026-01-01&end_date=2026-01-09&interval=day&timezone=Mars/Olympus',
        'timezone',
        'Unknown time zone.',
      ],
      [`start_date=2026-01-01&end_date=2026-01-09&interval=day&${many}`, 'product_id', 'At most 100 values.'],
    ] as const) {
      const response = await metrics(query);
      expect(response.statusCode, query.slice(0, 80)).toBe(422);
      const detail = json(response).detail[0];
      expect(detail.loc).toEqual(['query', loc]);
      if (message) expect(detail.msg).toBe(message);
    }
  });
});

describe('the metrics.hours job', () => {
  it('stores the hours the sales marked stale, and the answers stay those computed before it', async () => {
    const db = server.runtime.database.db;
    const marks = async () =>
      (
        await db
          .selectFrom('metrics_stale_hours')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('organization_id', '=', acme.organization.id)
          .executeTakeFirstOrThrow()
      ).n;
    const ranges = [
      'start_date=2026-01-31&end_date=2026-03-05&interval=day',
      'start_date=2026-01-31&end_date=2026-03-05&interval=day&timezone=Europe/Paris',
      'start_date=2026-03-02&end_date=2026-03-04&interval=hour',
    ];
    const before = await Promise.all(ranges.map(async (range) => json(await metrics(range))));
    await metricsHoursJob.handle(server.context(), {});
    expect(Number(await marks())).toBe(0);
    const stored = await db
      .selectFrom('metrics_order_hours')
      .select(['hour', 'orders', 'revenue'])
      .where('organization_id', '=', acme.organization.id)
      .orderBy('hour')
      .execute();
    // o1, o2, p1, S1 and S2 at 23:00 UTC on 31 January (o3 is pending); the renewal on 3 March.
    expect(stored.map((row) => [row.hour.toISOString(), Number(row.orders)])).toEqual([
      ['2026-01-31T23:00:00.000Z', 5],
      [world.renewalAt.toISOString().slice(0, 13) + ':00:00.000Z', 1],
    ]);
    for (const [i, range] of ranges.entries()) expect(json(await metrics(range)), range).toEqual(before[i]);
  });
});

describe('GET /v1/metrics/limits', () => {
  it('answers the minimum date and the days each interval allows', async () => {
    const response = await server.inject({ method: 'GET', url: '/v1/metrics/limits', headers: bearer(acme.token) });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({
      min_date: '2023-01-01',
      intervals: {
        hour: { min_days: 0, max_days: 7 },
        day: { min_days: 0, max_days: 366 },
        week: { min_days: 14, max_days: 365 },
        month: { min_days: 60, max_days: 1460 },
        year: { min_days: 366, max_days: 3650 },
      },
    });
  });
});

describe('checkouts that succeed and fail', () => {
  it('a declined card leaves a checkout counted and not succeeded, and no order', async () => {
    const shop = await organizationFactory(server, { name: 'Declines' });
    const { product } = await productFactory(server, shop.organization.id);
    const confirm = async (card: string) => {
      const checkout = await checkoutFactory(server, shop.organization.id, [product.id]);
      const response = await server.inject({
        method: 'POST',
        url: `/v1/checkouts/client/${checkout.client_secret}/confirm`,
        payload: {
          customer_email: 'buyer@example.com',
          customer_name: 'Buyer',
          customer_billing_address: ADDRESS,
          confirmation_token_id: await confirmationToken(server, card),
        },
      });
      return `${response.statusCode}${response.statusCode === 200 ? '' : ` ${response.body.slice(0, 200)}`}`;
    };
    expect(await confirm(CARDS.visa)).toBe('200');
    expect(await confirm(CARDS.declined)).toMatch(/^4/);
    expect(await confirm(CARDS.insufficientFunds)).toMatch(/^4/);
    // The server's clock stands at 31 January 23:30 UTC: 1 February in Paris.
    const body = json(
      await metrics('start_date=2026-01-31&end_date=2026-02-01&interval=day&timezone=Europe/Paris', shop.token),
    );
    expect(body.periods[0]).toMatchObject({ checkouts: 0, succeeded_checkouts: 0, checkouts_conversion: 0 });
    expect(body.periods[1]).toMatchObject({
      orders: 1,
      revenue: 1000,
      checkouts: 3,
      succeeded_checkouts: 1,
      checkouts_conversion: 1 / 3,
    });
    expect(body.totals).toMatchObject({ checkouts: 3, succeeded_checkouts: 1, checkouts_conversion: 1 / 6 });
  });
});

/**
 * Migration 0054: the functions the metrics triggers call for every row they mark are PL/pgSQL, whose
 * statements PostgreSQL plans once per session (a SQL function's were parsed and planned at every call),
 * and they write what they wrote before.
 */
describe("the metrics triggers' functions", () => {
  it('are PL/pgSQL and mark the hours they marked', async () => {
    const db = server.runtime.database.db;
    const languages = await sql<{ name: string; language: string }>`
      SELECT p.proname AS name, l.lanname AS language FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
      WHERE p.proname IN ('metrics_mark_stale', 'metrics_checkout_hours_add') ORDER BY p.proname`.execute(db);
    expect(languages.rows).toEqual([
      { name: 'metrics_checkout_hours_add', language: 'plpgsql' },
      { name: 'metrics_mark_stale', language: 'plpgsql' },
    ]);

    const { organization } = await organizationFactory(server, { name: 'Marked hours' });
    const { product } = await productFactory(server, organization.id);
    const at = new Date('2026-03-04T05:06:07Z');
    await db.transaction().execute(async (tx) => {
      await sql`SELECT metrics_mark_stale(${organization.id}, 'orders', ${at}, 25)`.execute(tx);
      await sql`SELECT metrics_mark_stale(${organization.id}, 'orders', NULL, 1)`.execute(tx);
      for (const [checkouts, succeeded] of [
        [1, 0],
        [0, 1],
      ]) {
        await sql`SELECT metrics_checkout_hours_add(${organization.id}, ${at}, ${product.id}, 3::smallint,
          ${checkouts}, ${succeeded})`.execute(tx);
      }
    });
    const stale = await sql<{ part: string; from_hour: Date; to_hour: Date }>`
      SELECT part, from_hour, to_hour FROM metrics_stale_hours WHERE organization_id = ${organization.id}
        AND part = 'orders' AND from_hour = '2026-03-04T05:00:00Z'`.execute(db);
    expect(stale.rows).toEqual([
      { part: 'orders', from_hour: new Date('2026-03-04T05:00:00Z'), to_hour: new Date('2026-03-05T06:00:00Z') },
    ]);
    const hours = await sql<{ checkouts: number; succeeded: number }>`
      SELECT checkouts::int, succeeded::int FROM metrics_checkout_hours
      WHERE organization_id = ${organization.id} AND product_id = ${product.id} AND shard = 3
        AND hour = '2026-03-04T05:00:00Z'`.execute(db);
    expect(hours.rows).toEqual([{ checkouts: 1, succeeded: 1 }]);
  });
});
