import { CustomerState$inboundSchema } from '@polar-sh/sdk/models/components/customerstate.js';
import { CustomerSubscription$inboundSchema } from '@polar-sh/sdk/models/components/customersubscription.js';
import { Subscription$inboundSchema } from '@polar-sh/sdk/models/components/subscription.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCycle } from '../src/modules/benefit-grants/benefit-grants.engine.js';
import { cycleSubscription, runSubscriptionBilling } from '../src/modules/subscriptions/subscriptions.renewal.js';
import { ingestEvents } from '../src/modules/events/events.service.js';
import { ManualClock, OffsetClock, systemClock, type Clock } from '../src/platform/clock.js';
import type { Context } from '../src/platform/context.js';
import { onOrganizationClock } from '../src/platform/test-clock.js';
import { inTransaction } from './factories/benefit-grants.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { subscriptionFactory } from './factories/subscriptions.js';
import { bearer, json, startTestServer, usingServerDatabase, type TestServer } from './harness.js';
import { installProcessorGuard, type ProcessorGuard } from './support/processor-guard.js';

/**
 * Usage-based billing through the public API: a meter, a product with a metered price, events
 * ingested, the organization's test clock moved from renewal to renewal, and every order checked to the
 * cent. The harness clock starts on Jan 15 12:00, so the periods end on the 15th at noon.
 */
let server: TestServer;
let guard: ProcessorGuard;
beforeAll(async () => {
  server = await startTestServer();
  guard = installProcessorGuard();
});
afterAll(async () => {
  guard.uninstall();
  await server?.stop();
});
afterEach(() => {
  expect(guard.violations).toEqual([]);
});

type Org = OrganizationFixture;

/** A seller with usage-based billing on (meter credit benefits need it). */
async function seller(name: string): Promise<Org> {
  const org = await organizationFactory(server, { name });
  await call(org, 'PATCH', `/v1/organizations/${org.organization.id}`, {
    feature_settings: { usage_based_billing_enabled: true },
  });
  return org;
}

async function call(org: Org, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  const response = await server.inject({ method, url, headers: bearer(org.token), ...(payload ? { payload } : {}) });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.statusCode === 204 ? null : json(response);
}

/** Moves the organization's clock to `at` and runs what became due (renewals, charges). */
async function advanceTo(org: Org, at: string): Promise<void> {
  const clock = await call(org, 'GET', '/v1/test-clock/');
  const seconds = Math.ceil((new Date(at).getTime() - new Date(clock.now).getTime()) / 1000);
  if (seconds > 0) await call(org, 'POST', '/v1/test-clock/advance', { seconds });
}

/** A `sum` meter over the `tokens` of `api.call` events. */
async function tokenMeter(org: Org, name = 'API tokens') {
  return call(org, 'POST', '/v1/meters/', {
    name,
    filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api.call' }] },
    aggregation: { func: 'sum', property: 'tokens' },
  });
}

interface Metered {
  meterId: string;
  unitAmount: string;
  capAmount?: number | null;
}

async function monthlyProduct(org: Org, name: string, fixed: number | null, metered: Metered[]) {
  return call(org, 'POST', '/v1/products/', {
    name,
    recurring_interval: 'month',
    prices: [
      ...(fixed !== null ? [{ amount_type: 'fixed', price_amount: fixed }] : []),
      ...metered.map((m) => ({
        amount_type: 'metered_unit',
        meter_id: m.meterId,
        unit_amount: m.unitAmount,
        cap_amount: m.capAmount ?? null,
      })),
    ],
  });
}

/** Ingests `api.call` events of the customer, one per amount of tokens, at the clock's time or `timestamp`. */
async function use(org: Org, customerId: string, tokens: number[], timestamp?: string) {
  const result = await call(org, 'POST', '/v1/events/ingest', {
    events: tokens.map((amount) => ({
      name: 'api.call',
      customer_id: customerId,
      metadata: { tokens: amount },
      ...(timestamp ? { timestamp } : {}),
    })),
  });
  expect(result.inserted).toBe(tokens.length);
}

interface OrderItem {
  label: string;
  amount: number;
  proration: boolean;
  product_price_id: string | null;
}

async function orders(org: Org, customerId: string) {
  const page = await call(org, 'GET', `/v1/orders/?customer_id=${customerId}&sorting=created_at&limit=100`);
  return page.items as {
    id: string;
    billing_reason: string;
    status: string;
    subtotal_amount: number;
    total_amount: number;
    items: OrderItem[];
  }[];
}

const meteredItems = (items: OrderItem[], priceIds: string[]) =>
  items.filter((item) => item.product_price_id !== null && priceIds.includes(item.product_price_id));

const priceOf = (product: { prices: { id: string; amount_type: string; meter_id?: string }[] }, meterId?: string) =>
  product.prices.find((p) => (meterId ? p.meter_id === meterId : p.amount_type === 'fixed'))!.id;

/** The customer's system events of a meter (resets and credits), oldest first. */
async function meterSystemEvents(customerId: string, meterId: string) {
  const rows = await server.runtime.database.db
    .selectFrom('events')
    .select(['name', 'metadata', 'ingested_at'])
    .where('customer_id', '=', customerId)
    .where('source', '=', 'system')
    .where('name', 'in', ['meter.reset', 'meter.credited'])
    .execute();
  // In ingestion order; within one instant the reset opens the window, then the credits, largest first
  // (the window rules' order).
  const rank = (row: (typeof rows)[number]) =>
    row.name === 'meter.reset' ? -Infinity : -((row.metadata as { units: number }).units ?? 0);
  rows.sort((a, b) => a.ingested_at.getTime() - b.ingested_at.getTime() || rank(a) - rank(b));
  return rows
    .map((row) => ({ name: row.name, ...(row.metadata as { meter_id: string; units?: number; rollover?: boolean }) }))
    .filter((row) => row.meter_id === meterId);
}

/** Polls until the customer's meter has `count` credits (the cycle jobs run on the worker). */
async function waitForCredits(customerId: string, meterId: string, count: number) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const credits = (await meterSystemEvents(customerId, meterId)).filter((e) => e.name === 'meter.credited');
    if (credits.length >= count) return credits;
    if (Date.now() > deadline) throw new Error(`credits: ${JSON.stringify(credits)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a metered subscription over three months', () => {
  it('bills each month’s usage on the next cycle order, a fixed and a metered price on one product', async () => {
    const org = await seller('Usage months');
    const meter = await tokenMeter(org);
    // Half a cent a token: 101 tokens are 50.5 cents, rounded half up to 51.
    const product = await monthlyProduct(org, 'Pro', 1000, [{ meterId: meter.id, unitAmount: '0.5' }]);
    const metered = priceOf(product, meter.id);
    const subscription = await subscriptionFactory(server, org.organization.id, { productId: product.id });
    const customer = subscription.customer_id;

    await advanceTo(org, '2026-01-20T12:00:00Z');
    await use(org, customer, [60, 41]);
    // Events of other names and other customers' events do not count.
    await call(org, 'POST', '/v1/events/ingest', {
      events: [{ name: 'page.view', customer_id: customer, metadata: { tokens: 1000 } }],
    });
    const midPeriod = await call(org, 'GET', `/v1/subscriptions/${subscription.id}`);
    expect(midPeriod.meters).toEqual([
      expect.objectContaining({ meter_id: meter.id, consumed_units: 101, credited_units: 0, amount: 51 }),
    ]);
    expect(midPeriod.meters[0].meter).toMatchObject({ id: meter.id, name: 'API tokens' });

    await advanceTo(org, '2026-02-15T12:00:00Z');
    await advanceTo(org, '2026-02-20T12:00:00Z');
    await use(org, customer, [1500, 400, 100]);
    await advanceTo(org, '2026-03-15T12:00:00Z');
    // No usage in the third month: the order has the fixed price only.
    await advanceTo(org, '2026-04-15T12:00:00Z');

    const list = await orders(org, customer);
    expect(list.map((o) => [o.billing_reason, o.total_amount, o.status])).toEqual([
      ['subscription_create', 1000, 'paid'],
      ['subscription_cycle', 1051, 'paid'],
      ['subscription_cycle', 2000, 'paid'],
      ['subscription_cycle', 1000, 'paid'],
    ]);
    expect(meteredItems(list[1]!.items, [metered])).toEqual([
      expect.objectContaining({ label: 'API tokens — (101 consumed units) × $0.005', amount: 51, proration: false }),
    ]);
    expect(meteredItems(list[2]!.items, [metered])).toEqual([
      expect.objectContaining({ label: 'API tokens — (2,000 consumed units) × $0.005', amount: 1000 }),
    ]);
    expect(meteredItems(list[3]!.items, [metered])).toEqual([]);
    // The fixed price is still there each month.
    for (const order of list.slice(1)) {
      expect(order.items.filter((i) => i.product_price_id === priceOf(product))).toHaveLength(1);
    }
    // A reset when the subscription started, then one per renewal; the new period's meter is empty.
    expect((await meterSystemEvents(customer, meter.id)).map((e) => e.name)).toEqual(Array(4).fill('meter.reset'));
    const now = await call(org, 'GET', `/v1/subscriptions/${subscription.id}`);
    expect(now.meters[0]).toMatchObject({ consumed_units: 0, amount: 0 });
  });

  it('usage before the subscription started is not billed', async () => {
    const org = await seller('Usage before');
    const meter = await tokenMeter(org);
    const product = await monthlyProduct(org, 'Pro', 1000, [{ meterId: meter.id, unitAmount: '1' }]);
    const first = await subscriptionFactory(server, org.organization.id, { productId: product.id });
    await use(org, first.customer_id, [10]);
    await advanceTo(org, '2026-01-16T12:00:00Z');
    await call(org, 'DELETE', `/v1/subscriptions/${first.id}`);
    await advanceTo(org, '2026-01-17T12:00:00Z');
    await use(org, first.customer_id, [3]);
    await advanceTo(org, '2026-01-18T12:00:00Z');
    // The revoke's final order bills the 10 tokens; the 3 after it are nobody's; a new subscription
    // starts from zero.
    const second = await subscriptionFactory(server, org.organization.id, {
      productId: product.id,
      email: first.customer.email,
    });
    expect(second.customer_id).toBe(first.customer_id);
    await advanceTo(org, '2026-01-19T12:00:00Z');
    await use(org, second.customer_id, [7]);
    await advanceTo(org, '2026-02-18T12:00:00Z');
    const list = await orders(org, first.customer_id);
    expect(list.map((o) => [o.billing_reason, o.total_amount])).toEqual([
      ['subscription_create', 1000],
      ['subscription_update', 10],
      ['subscription_create', 1000],
      ['subscription_cycle', 1007],
    ]);
  });
});

describe('subscription meters', () => {
  it('are on the subscription as the SDK reads them', async () => {
    const org = await seller('Usage wire');
    // The SDK of the reference knows `count` meters (its other aggregation shapes are narrower).
    const meter = await call(org, 'POST', '/v1/meters/', {
      name: 'Requests',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api.call' }] },
      aggregation: { func: 'count' },
    });
    const product = await monthlyProduct(org, 'Pro', 1000, [{ meterId: meter.id, unitAmount: '3', capAmount: 10 }]);
    const subscription = await subscriptionFactory(server, org.organization.id, { productId: product.id });
    await use(org, subscription.customer_id, [1, 1, 1, 1]);
    const wire = await call(org, 'GET', `/v1/subscriptions/${subscription.id}`);
    Subscription$inboundSchema.parse(wire);
    expect(wire.meters).toEqual([
      expect.objectContaining({ meter_id: meter.id, consumed_units: 4, credited_units: 0, amount: 10 }),
    ]);
    const listed = await call(org, 'GET', `/v1/subscriptions/?customer_id=${subscription.customer_id}`);
    expect(listed.items[0].meters).toEqual(wire.meters);
    const usage = { meter_id: meter.id, consumed_units: 4, credited_units: 0, amount: 10 };

    // The customer state and the portal carry the same usage.
    const state = await call(org, 'GET', `/v1/customers/${subscription.customer_id}/state`);
    CustomerState$inboundSchema.parse(state);
    expect(state.active_subscriptions[0].meters).toEqual([expect.objectContaining(usage)]);
    const session = await call(org, 'POST', '/v1/customer-sessions/', { customer_id: subscription.customer_id });
    const portal = await server.inject({
      method: 'GET',
      url: '/v1/customer-portal/subscriptions/',
      headers: bearer(session.token),
    });
    const [mine] = json(portal).items;
    CustomerSubscription$inboundSchema.parse(mine);
    expect(mine.meters).toEqual([expect.objectContaining(usage)]);
    expect(mine.meters[0].meter).toEqual({
      id: meter.id,
      name: 'Requests',
      created_at: meter.created_at,
      modified_at: meter.modified_at,
    });
  });
});

describe('a cap', () => {
  it('caps the line at cap_amount and says so', async () => {
    const org = await seller('Usage cap');
    const meter = await tokenMeter(org);
    const product = await monthlyProduct(org, 'Capped', 500, [
      { meterId: meter.id, unitAmount: '10', capAmount: 5000 },
    ]);
    const subscription = await subscriptionFactory(server, org.organization.id, { productId: product.id });
    await use(org, subscription.customer_id, [1000]);
    await advanceTo(org, '2026-02-15T12:00:00Z');
    await use(org, subscription.customer_id, [300]);
    await advanceTo(org, '2026-03-15T12:00:00Z');
    const list = await orders(org, subscription.customer_id);
    const metered = priceOf(product, meter.id);
    expect(list.map((o) => o.total_amount)).toEqual([500, 5500, 3500]);
    expect(meteredItems(list[1]!.items, [metered])[0]).toMatchObject({
      label: 'API tokens — (1,000 consumed units) × $0.10 — Capped at $50.00',
      amount: 5000,
    });
    expect(meteredItems(list[2]!.items, [metered])[0]).toMatchObject({
      label: 'API tokens — (300 consumed units) × $0.10',
      amount: 3000,
    });
  });
});

describe('meter credits', () => {
  it('credits every cycle, rolls over what is left of rollover credits only, and bills beyond them', async () => {
    const org = await seller('Usage credits');
    const meter = await tokenMeter(org);
    const product = await monthlyProduct(org, 'Credited', 1000, [{ meterId: meter.id, unitAmount: '1' }]);
    const rollover = await call(org, 'POST', '/v1/benefits/', {
      type: 'meter_credit',
      description: '100 tokens a month, rolled over',
      properties: { meter_id: meter.id, units: 100, rollover: true },
    });
    const monthly = await call(org, 'POST', '/v1/benefits/', {
      type: 'meter_credit',
      description: '50 tokens a month',
      properties: { meter_id: meter.id, units: 50, rollover: false },
    });
    await call(org, 'POST', `/v1/products/${product.id}/benefits`, { benefits: [rollover.id, monthly.id] });
    const subscription = await subscriptionFactory(server, org.organization.id, { productId: product.id });
    const customer = subscription.customer_id;
    await waitForCredits(customer, meter.id, 2);

    // January: 150 credited, 120 used → nothing billed, 30 unused (of which 30 may roll over).
    await use(org, customer, [120]);
    await advanceTo(org, '2026-02-15T12:00:00Z');
    // The rollover (30) at the reset, then the two benefits' new credits.
    await waitForCredits(customer, meter.id, 5);
    let state = await call(org, 'GET', `/v1/subscriptions/${subscription.id}`);
    expect(state.meters[0]).toMatchObject({ consumed_units: 0, credited_units: 180, amount: 0 });

    // February: 180 credited, 400 used → 220 billed; nothing rolls over.
    await use(org, customer, [400]);
    await advanceTo(org, '2026-03-15T12:00:00Z');
    await waitForCredits(customer, meter.id, 7);

    // March: 150 credited, 100 used → nothing billed; 50 unused, all of it rollover credit.
    await use(org, customer, [100]);
    await advanceTo(org, '2026-04-15T12:00:00Z');
    await waitForCredits(customer, meter.id, 10);
    state = await call(org, 'GET', `/v1/subscriptions/${subscription.id}`);
    expect(state.meters[0]).toMatchObject({ consumed_units: 0, credited_units: 200, amount: 0 });

    // Each instant: the reset, then the credits (the rollover at the reset, then the period's two).
    const events = await meterSystemEvents(customer, meter.id);
    const instants: string[][] = [];
    for (const e of events) {
      if (e.name === 'meter.reset') instants.push([]);
      else instants[instants.length - 1]!.push(`${e.units}${e.rollover ? 'r' : ''}`);
    }
    expect(instants.map((credits) => credits.sort())).toEqual([
      ['100r', '50'],
      ['100r', '30r', '50'],
      ['100r', '50'],
      ['100r', '50', '50r'],
    ]);
    const list = await orders(org, customer);
    const metered = priceOf(product, meter.id);
    expect(list.map((o) => o.total_amount)).toEqual([1000, 1000, 1220, 1000]);
    // A month covered by credits still shows its line, at 0.
    expect(meteredItems(list[1]!.items, [metered])).toEqual([
      expect.objectContaining({ label: 'API tokens — (0 consumed units) × $0.01', amount: 0 }),
    ]);
    expect(meteredItems(list[2]!.items, [metered])).toEqual([
      expect.objectContaining({ label: 'API tokens — (220 consumed units) × $0.01', amount: 220 }),
    ]);
  });

  it('a cycle job run twice for one period credits once', async () => {
    const org = await seller('Usage cycle retry');
    const meter = await tokenMeter(org);
    const product = await monthlyProduct(org, 'Credited', 1000, [{ meterId: meter.id, unitAmount: '1' }]);
    const benefit = await call(org, 'POST', '/v1/benefits/', {
      type: 'meter_credit',
      description: '10 tokens',
      properties: { meter_id: meter.id, units: 10, rollover: false },
    });
    await call(org, 'POST', `/v1/products/${product.id}/benefits`, { benefits: [benefit.id] });
    const subscription = await subscriptionFactory(server, org.organization.id, { productId: product.id });
    await waitForCredits(subscription.customer_id, meter.id, 1);
    const grant = await server.runtime.database.db
      .selectFrom('benefit_grants')
      .select('id')
      .where('subscription_id', '=', subscription.id)
      .executeTakeFirstOrThrow();
    const period = new Date('2026-02-15T12:00:00Z');
    for (let run = 0; run < 2; run++) await inTransaction(server, (ctx) => runCycle(ctx, grant.id, period));
    const credits = (await meterSystemEvents(subscription.customer_id, meter.id)).filter(
      (e) => e.name === 'meter.credited',
    );
    expect(credits).toHaveLength(2);
  });
});

describe('late events', () => {
  it('an event of a closed period ingested after its renewal is billed on the next order, once', async () => {
    const org = await seller('Usage late');
    const meter = await tokenMeter(org);
    const product = await monthlyProduct(org, 'Pro', 1000, [{ meterId: meter.id, unitAmount: '100' }]);
    const subscription = await subscriptionFactory(server, org.organization.id, { productId: product.id });
    const customer = subscription.customer_id;
    await advanceTo(org, '2026-01-20T12:00:00Z');
    await use(org, customer, [10]);
    await advanceTo(org, '2026-02-15T12:00:00Z');
    // Reported on Feb 16 for Feb 10: January's period is closed and billed.
    await advanceTo(org, '2026-02-16T12:00:00Z');
    await use(org, customer, [5], '2026-02-10T09:00:00Z');
    await use(org, customer, [1]);
    await advanceTo(org, '2026-03-15T12:00:00Z');
    await advanceTo(org, '2026-04-15T12:00:00Z');
    const list = await orders(org, customer);
    const metered = priceOf(product, meter.id);
    expect(list.map((o) => o.total_amount)).toEqual([1000, 2000, 1600, 1000]);
    expect(meteredItems(list[2]!.items, [metered])[0]).toMatchObject({
      label: 'API tokens — (6 consumed units) × $1.00',
      amount: 600,
    });
    expect(meteredItems(list[3]!.items, [metered])).toEqual([]);
  });
});

describe('a plan change mid-period', () => {
  it('bills the usage up to the change at the old price and the rest at the new one, on the next order', async () => {
    const org = await seller('Usage plan change');
    const meter = await tokenMeter(org);
    const storage = await call(org, 'POST', '/v1/meters/', {
      name: 'Storage',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'storage' }] },
      aggregation: { func: 'max', property: 'gb' },
    });
    const basic = await monthlyProduct(org, 'Basic', 1000, [
      { meterId: meter.id, unitAmount: '1' },
      { meterId: storage.id, unitAmount: '10' },
    ]);
    const pro = await monthlyProduct(org, 'Pro', 1000, [{ meterId: meter.id, unitAmount: '0.5' }]);
    const subscription = await subscriptionFactory(server, org.organization.id, { productId: basic.id });
    const customer = subscription.customer_id;
    await advanceTo(org, '2026-01-20T12:00:00Z');
    await use(org, customer, [100]);
    await call(org, 'POST', '/v1/events/ingest', {
      events: [{ name: 'storage', customer_id: customer, metadata: { gb: 7 } }],
    });
    await advanceTo(org, '2026-01-25T12:00:00Z');
    // Same fixed amount: no proration, only usage.
    await call(org, 'PATCH', `/v1/subscriptions/${subscription.id}`, {
      product_id: pro.id,
      proration_behavior: 'prorate',
    });
    await advanceTo(org, '2026-01-26T12:00:00Z');
    await use(org, customer, [300]);
    // Storage is no longer billed by the subscription: its usage after the change is not its own.
    await call(org, 'POST', '/v1/events/ingest', {
      events: [{ name: 'storage', customer_id: customer, metadata: { gb: 9 } }],
    });
    await advanceTo(org, '2026-02-15T12:00:00Z');
    await advanceTo(org, '2026-03-15T12:00:00Z');
    const list = await orders(org, customer);
    const now = priceOf(pro, meter.id);
    // The old plan's usage, like its proration credits, is carried by entries that name no price (an
    // order's items are prices of its own product).
    const closed = list[1]!.items.filter((i) => i.product_price_id === null && i.label.includes('consumed'));
    expect(closed.sort((a, b) => a.label.localeCompare(b.label))).toEqual([
      expect.objectContaining({ label: 'API tokens — (100 consumed units) × $0.01', amount: 100, proration: true }),
      expect.objectContaining({ label: 'Storage — (7 consumed units) × $0.10', amount: 70, proration: true }),
    ]);
    expect(meteredItems(list[1]!.items, [now])).toEqual([
      expect.objectContaining({ label: 'API tokens — (300 consumed units) × $0.005', amount: 150 }),
    ]);
    expect(list.map((o) => o.total_amount)).toEqual([1000, 1320, 1000]);
    expect(list[1]!.subtotal_amount).toBe(list[1]!.items.reduce((sum, item) => sum + item.amount, 0));
  });
});

describe('the last period', () => {
  it('a subscription canceled at period end bills its last period’s usage in the final order', async () => {
    const org = await seller('Usage cancel');
    const meter = await tokenMeter(org);
    const product = await monthlyProduct(org, 'Pro', 1000, [{ meterId: meter.id, unitAmount: '2' }]);
    const subscription = await subscriptionFactory(server, org.organization.id, { productId: product.id });
    await call(org, 'PATCH', `/v1/subscriptions/${subscription.id}`, { cancel_at_period_end: true });
    await advanceTo(org, '2026-02-01T12:00:00Z');
    await use(org, subscription.customer_id, [250]);
    await advanceTo(org, '2026-02-15T12:00:00Z');
    expect((await call(org, 'GET', `/v1/subscriptions/${subscription.id}`)).status).toBe('canceled');
    const list = await orders(org, subscription.customer_id);
    expect(list.map((o) => [o.billing_reason, o.total_amount])).toEqual([
      ['subscription_create', 1000],
      ['subscription_cycle', 500],
    ]);
    expect(list[1]!.items).toEqual([
      expect.objectContaining({ label: 'API tokens — (250 consumed units) × $0.02', amount: 500 }),
    ]);
  });

  it('a revoked subscription bills the usage up to the revoke', async () => {
    const org = await seller('Usage revoke');
    const meter = await tokenMeter(org);
    const product = await monthlyProduct(org, 'Pro', 1000, [{ meterId: meter.id, unitAmount: '2' }]);
    const subscription = await subscriptionFactory(server, org.organization.id, { productId: product.id });
    await advanceTo(org, '2026-01-20T12:00:00Z');
    await use(org, subscription.customer_id, [30]);
    await call(org, 'DELETE', `/v1/subscriptions/${subscription.id}`);
    await advanceTo(org, '2026-01-21T12:00:00Z');
    await use(org, subscription.customer_id, [1000]);
    await advanceTo(org, '2026-03-15T12:00:00Z');
    const list = await orders(org, subscription.customer_id);
    expect(list.map((o) => [o.billing_reason, o.total_amount])).toEqual([
      ['subscription_create', 1000],
      ['subscription_update', 60],
    ]);
  });
});

describe('retries', () => {
  it('a renewal that rolls back leaves the usage for the one that commits, which bills it once', async () => {
    const org = await seller('Usage retry');
    const meter = await tokenMeter(org);
    const product = await monthlyProduct(org, 'Pro', 1000, [{ meterId: meter.id, unitAmount: '1' }]);
    const subscription = await subscriptionFactory(server, org.organization.id, { productId: product.id });
    await use(org, subscription.customer_id, [42]);
    await call(org, 'POST', '/v1/test-clock/advance', { seconds: 31 * 86_400 });
    const end = new Date(subscription.current_period_end!);
    const own = (ctx: Parameters<typeof cycleSubscription>[0]) => onOrganizationClock(ctx, org.organization.id);
    // The advance already renewed: a second renewal of the same period finds nothing to do.
    expect(await inTransaction(server, async (ctx) => cycleSubscription(await own(ctx), subscription.id, end))).toBe(
      false,
    );
    // And the billing run, run again, bills nothing more.
    await inTransaction(server, async (ctx) =>
      runSubscriptionBilling(await own(ctx), undefined, { organizationId: org.organization.id }),
    );
    const list = await orders(org, subscription.customer_id);
    expect(list.map((o) => o.total_amount)).toEqual([1000, 1042]);
    expect((await meterSystemEvents(subscription.customer_id, meter.id)).map((e) => e.name)).toEqual([
      'meter.reset',
      'meter.reset',
    ]);
  });

  it('a renewal whose transaction fails writes no reset: the usage is billed by the next run', async () => {
    const org = await seller('Usage rollback');
    const meter = await tokenMeter(org);
    const product = await monthlyProduct(org, 'Pro', 1000, [{ meterId: meter.id, unitAmount: '1' }]);
    const subscription = await subscriptionFactory(server, org.organization.id, { productId: product.id });
    await use(org, subscription.customer_id, [42]);
    await call(org, 'POST', '/v1/test-clock/advance', { seconds: 1 });
    // Move the clock without running the due work (as a crash right after the move would).
    await server.runtime.database.db
      .updateTable('test_clocks')
      .set({ offset_seconds: 31 * 86_400 })
      .where('organization_id', '=', org.organization.id)
      .execute();
    const end = new Date(subscription.current_period_end!);
    await expect(
      server.runtime.database.db.transaction().execute(async (tx) => {
        const ctx = await onOrganizationClock(server.runtime.context(tx, { kind: 'anonymous' }), org.organization.id);
        expect(await cycleSubscription(ctx, subscription.id, end)).toBe(true);
        throw new Error('crash before commit');
      }),
    ).rejects.toThrow('crash before commit');
    expect((await meterSystemEvents(subscription.customer_id, meter.id)).map((e) => e.name)).toEqual(['meter.reset']);
    await call(org, 'POST', '/v1/test-clock/advance', { seconds: 1 });
    const list = await orders(org, subscription.customer_id);
    expect(list.map((o) => o.total_amount)).toEqual([1000, 1042]);
  });
});

describe('nodes whose clocks disagree', () => {
  /**
   * Two API nodes on one database, one an hour ahead of the other: events ingested on either, and
   * renewals run on either. Each node's clock is frozen (as a node whose clock has not moved within a
   * millisecond), so an instant taken from a node's clock would put events before a reset written by
   * the other node (never billed) or a reset before the events just stamped by the other node.
   */
  it('every event is billed exactly once, whichever node ingests and whichever renews', async () => {
    const org = await seller('Usage skew');
    const meter = await call(org, 'POST', '/v1/meters/', {
      name: 'Requests',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api.call' }] },
      aggregation: { func: 'count' },
    });
    const product = await monthlyProduct(org, 'Pro', 1000, [{ meterId: meter.id, unitAmount: '1' }]);
    const subscription = await subscriptionFactory(server, org.organization.id, { productId: product.id });
    const customer = subscription.customer_id;
    const subject = {
      kind: 'organization' as const,
      organizationId: org.organization.id,
      tokenId: 'node',
      scopes: new Set<string>(),
    };
    const end = new Date(subscription.current_period_end!);
    const minutes = (n: number) => n * 60_000;
    const slow = new ManualClock(new Date(end.getTime() + minutes(5)));
    const fast = new ManualClock(new Date(end.getTime() + minutes(65)));
    const on = <T>(clock: Clock, fn: (ctx: Context) => Promise<T>) =>
      server.runtime.database.db.transaction().execute((tx) => fn({ ...server.runtime.context(tx, subject), clock }));
    const ingest = (clock: Clock, count: number) =>
      on(clock, (ctx) =>
        ingestEvents(ctx, {
          events: Array.from({ length: count }, () => ({ name: 'api.call', customer_id: customer })),
        }),
      );
    const renew = async (clock: Clock) => {
      const { current_period_end } = await call(org, 'GET', `/v1/subscriptions/${subscription.id}`);
      expect(await on(clock, (ctx) => cycleSubscription(ctx, subscription.id, new Date(current_period_end)))).toBe(
        true,
      );
    };

    await ingest(slow, 2);
    await ingest(fast, 3);
    await renew(fast); // the reset, on the fast node's clock, is an hour after the slow node's "now"
    await ingest(slow, 4);
    await ingest(fast, 6);
    slow.advance(minutes(31 * 24 * 60));
    fast.advance(minutes(31 * 24 * 60));
    await renew(slow); // the reset, on the slow node's clock, is an hour before the fast node's last events
    await ingest(fast, 7);
    await ingest(slow, 1);

    const metered = priceOf(product, meter.id);
    const list = await orders(org, customer);
    expect(list.map((o) => meteredItems(o.items, [metered]).map((item) => item.amount))).toEqual([[], [5], [10]]);
    const open = (await call(org, 'GET', `/v1/subscriptions/${subscription.id}`)).meters[0].consumed_units;
    expect(open).toBe(8);
  });
});

describe.runIf(usingServerDatabase())('ingests racing a renewal (PostgreSQL, clocks that move)', () => {
  it('every event is billed exactly once: in the window the renewal closes or in the next one', async () => {
    const shared = server;
    server = await startTestServer({ clock: systemClock });
    // A second node on the same database whose clock runs 30 s ahead of the first one's.
    const ahead = await startTestServer({
      clock: new OffsetClock(systemClock, 30_000),
      databaseUrl: server.config.databaseUrl,
    });
    try {
      const org = await seller('Usage race');
      const meter = await call(org, 'POST', '/v1/meters/', {
        name: 'Requests',
        filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api.call' }] },
        aggregation: { func: 'count' },
      });
      const product = await monthlyProduct(org, 'Pro', 1000, [{ meterId: meter.id, unitAmount: '1' }]);
      const subscription = await subscriptionFactory(server, org.organization.id, { productId: product.id });
      const customer = subscription.customer_id;
      let sent = 0;
      const ingest = async (node: TestServer) => {
        const response = await node.inject({
          method: 'POST',
          url: '/v1/events/ingest',
          headers: bearer(org.token),
          payload: { events: Array.from({ length: 5 }, () => ({ name: 'api.call', customer_id: customer })) },
        });
        expect(response.statusCode).toBe(200);
        expect(json(response).inserted).toBe(5);
        sent += 5;
      };
      await ingest(ahead);
      // Ingests keep arriving on both nodes, several at once, while the clock moves past the period's end
      // and the renewal (on the node behind) closes the window.
      let renewed = false;
      const advance = advanceTo(org, subscription.current_period_end!).then(() => (renewed = true));
      const senders = Array.from({ length: 4 }, async (_, index) => {
        const node = index % 2 === 0 ? server : ahead;
        while (!renewed) await ingest(node);
        await ingest(node);
        await ingest(ahead);
        await ingest(server);
      });
      await Promise.all([advance, ...senders]);
      const open = (await call(org, 'GET', `/v1/subscriptions/${subscription.id}`)).meters[0].consumed_units;
      const list = await orders(org, customer);
      const billed = list
        .slice(1)
        .flatMap((o) => meteredItems(o.items, [priceOf(product, meter.id)]))
        .reduce((sum, item) => sum + item.amount, 0);
      expect(list).toHaveLength(2);
      expect(billed).toBeGreaterThan(0);
      expect(open).toBeGreaterThan(0);
      expect(billed + open).toBe(sent);
    } finally {
      await ahead.stop();
      await server.stop();
      server = shared;
    }
  });
});
