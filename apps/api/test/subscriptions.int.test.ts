import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../src/platform/clock.js';
import { runSubscriptionBilling } from '../src/modules/subscriptions/subscriptions.renewal.js';
import { discountFactory } from './factories/discounts.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { subscriptionFactory } from './factories/subscriptions.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;
const DAY = 24 * 3600 * 1000;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
});
afterAll(() => server?.stop());
// Each scenario moves the clock: earlier subscriptions are ended so that they do not renew along.
afterEach(async () => {
  await server.runtime.database.db
    .updateTable('subscriptions')
    .set({ status: 'canceled', ended_at: server.clock.now() })
    .where('status', 'in', ['active', 'past_due'])
    .execute();
});

const clock = () => server.clock as ManualClock;
const get = (id: string, token = acme.token) =>
  server.inject({ method: 'GET', url: `/v1/subscriptions/${id}`, headers: bearer(token) });
const list = (query: string, token = acme.token) =>
  server.inject({ method: 'GET', url: `/v1/subscriptions/?${query}`, headers: bearer(token) });
const patch = (id: string, payload: unknown, token = acme.token) =>
  server.inject({
    method: 'PATCH',
    url: `/v1/subscriptions/${id}`,
    headers: bearer(token),
    payload: payload as object,
  });
const revoke = (id: string, token = acme.token) =>
  server.inject({ method: 'DELETE', url: `/v1/subscriptions/${id}`, headers: bearer(token) });
/**
 * The simulated processor declines card 4000000000000341 on the first charge too, so the card of a
 * subscription that "starts declining" is switched to that card's behaviour after the checkout.
 */
async function startsDeclining<T extends { customer_id: string }>(subscription: T): Promise<T> {
  await server.runtime.database.db
    .updateTable('simulated_payment_methods')
    .set({ outcome: 'charge_declined_after_attach' })
    .where('customer_id', '=', subscription.customer_id)
    .execute();
  return subscription;
}
/** The billing run as the worker makes it: each step in a transaction of its own. */
const billing = () =>
  runSubscriptionBilling(server.context(), {
    transaction: (fn) => server.runtime.database.db.transaction().execute((tx) => fn(server.runtime.context(tx))),
  });

/** Moves the app clock to `iso` (forward only) and runs what became due. */
async function advanceTo(iso: string | Date): Promise<void> {
  const target = new Date(iso).getTime();
  const delta = target - server.clock.now().getTime();
  if (delta > 0) clock().advance(delta);
  await billing();
}

async function ordersOf(subscriptionId: string) {
  return server.runtime.database.db
    .selectFrom('orders')
    .selectAll()
    .where('subscription_id', '=', subscriptionId)
    .orderBy('created_at')
    .orderBy('invoice_number')
    .execute();
}

async function paymentsOf(subscriptionId: string) {
  return server.runtime.database.db
    .selectFrom('payments')
    .innerJoin('orders', 'orders.id', 'payments.order_id')
    .select(['payments.status', 'payments.amount', 'payments.decline_reason'])
    .where('orders.subscription_id', '=', subscriptionId)
    .orderBy('payments.created_at')
    .execute();
}

async function eventTypes(subscriptionId: string): Promise<string[]> {
  // Only the types (whole payloads of every event would be a large read).
  const rows = await server.runtime.database.db
    .selectFrom('webhook_events')
    .select('type')
    .where((eb) =>
      eb.or([
        eb(sql`payload -> 'data' ->> 'id'`, '=', subscriptionId),
        eb(sql`payload -> 'data' ->> 'subscription_id'`, '=', subscriptionId),
      ]),
    )
    .orderBy('created_at')
    .execute();
  return rows.map((row) => row.type);
}

describe('auth matrix', () => {
  it('401 without a token, 403 without the scope, 404 for another organization', async () => {
    const foreign = await subscriptionFactory(server, other.organization.id);
    expect((await server.inject({ method: 'GET', url: '/v1/subscriptions/' })).statusCode).toBe(401);
    expect((await server.inject({ method: 'DELETE', url: `/v1/subscriptions/${foreign.id}` })).statusCode).toBe(401);
    const readOnly = await tokenFactory(server, acme.organization.id, ['subscriptions:read']);
    expect((await list('', readOnly)).statusCode).toBe(200);
    expect((await patch(foreign.id, { revoke: true }, readOnly)).statusCode).toBe(403);
    const unrelated = await tokenFactory(server, acme.organization.id, ['products:read']);
    expect((await list('', unrelated)).statusCode).toBe(403);
    expect((await get(foreign.id)).statusCode).toBe(404);
    expect((await patch(foreign.id, { revoke: true })).statusCode).toBe(404);
    expect((await revoke(foreign.id)).statusCode).toBe(404);
    expect(json(await get(foreign.id, other.token)).status).toBe('active');
  });

  it('422 for an empty or malformed body, and nothing changes', async () => {
    const subscription = await subscriptionFactory(server, acme.organization.id);
    for (const body of [{}, { cancel_at_period_end: 'soon' }, { product_id: 'nope' }]) {
      const response = await patch(subscription.id, body);
      expect(response.statusCode).toBe(422);
      expect(json(response).detail[0]).toMatchObject({ loc: expect.any(Array), msg: expect.any(String) });
    }
    expect(json(await get(subscription.id))).toEqual(subscription);
    expect((await list('sorting=bogus')).statusCode).toBe(422);
  });
});

describe('list, get and export', () => {
  it('filters and sorts', async () => {
    const org = await organizationFactory(server, { name: 'Lister' });
    const cheap = await subscriptionFactory(server, org.organization.id, { price: 500, email: 'b@example.com' });
    const dear = await subscriptionFactory(server, org.organization.id, { price: 2000, email: 'a@example.com' });
    const yearly = await subscriptionFactory(server, org.organization.id, { interval: 'year', price: 12000 });
    const page = json(await list('sorting=amount', org.token));
    expect(page.items.map((s: { id: string }) => s.id)).toEqual([cheap.id, yearly.id, dear.id]);
    expect(page.pagination).toEqual({ total_count: 3, max_page: 1 });
    const byCustomer = json(await list('sorting=customer&limit=1', org.token));
    expect(byCustomer.items[0].id).toBe(dear.id);
    expect(byCustomer.pagination.max_page).toBe(3);
    expect(json(await list(`product_id=${cheap.product_id}`, org.token)).items).toHaveLength(1);
    expect(json(await list(`customer_id=${dear.customer_id}`, org.token)).items).toHaveLength(1);
    expect(json(await list('active=true', org.token)).items).toHaveLength(3);
    await revoke(cheap.id, org.token);
    expect(json(await list('active=false', org.token)).items.map((s: { id: string }) => s.id)).toEqual([cheap.id]);
    expect(json(await list('metadata[plan]=none', org.token)).items).toHaveLength(0);
  });

  it('exports CSV as a JSON string', async () => {
    const org = await organizationFactory(server, { name: 'Exporter' });
    await subscriptionFactory(server, org.organization.id, { price: 1234, email: 'csv@example.com' });
    const response = await server.inject({
      method: 'GET',
      url: '/v1/subscriptions/export',
      headers: bearer(org.token),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    const lines = (json(response) as string).trim().split('\r\n');
    expect(lines[0]).toBe('Email,Created At,Active,Product,Price,Currency,Interval');
    expect(lines[1]).toMatch(/^csv@example\.com,.+,true,Product \w+,12\.34,usd,month$/);
  });
});

describe('cancel, uncancel, revoke', () => {
  it('cancels at period end, refuses a second cancel, uncancels, then ends at period end', async () => {
    const subscription = await subscriptionFactory(server, acme.organization.id);
    const canceled = await patch(subscription.id, {
      cancel_at_period_end: true,
      customer_cancellation_reason: 'too_expensive',
      customer_cancellation_comment: 'Pricey',
    });
    expect(canceled.statusCode).toBe(200);
    expect(json(canceled)).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
      ends_at: subscription.current_period_end,
      customer_cancellation_reason: 'too_expensive',
    });
    const again = await patch(subscription.id, { cancel_at_period_end: true });
    expect(again.statusCode).toBe(403);
    expect(json(again).error).toBe('AlreadyCanceledSubscription');
    const uncanceled = json(await patch(subscription.id, { cancel_at_period_end: false }));
    expect(uncanceled).toMatchObject({ cancel_at_period_end: false, ends_at: null, canceled_at: null });
    expect((await patch(subscription.id, { cancel_at_period_end: false })).statusCode).toBe(400);
    await patch(subscription.id, { cancel_at_period_end: true });
    await advanceTo(subscription.current_period_end!);
    const ended = json(await get(subscription.id));
    expect(ended).toMatchObject({ status: 'canceled', ended_at: subscription.current_period_end });
    expect(await ordersOf(subscription.id)).toHaveLength(1);
    expect(await eventTypes(subscription.id)).toEqual(
      expect.arrayContaining(['subscription.canceled', 'subscription.uncanceled', 'subscription.revoked']),
    );
  });

  it('revokes at once (PATCH revoke and DELETE), then refuses', async () => {
    const first = await subscriptionFactory(server, acme.organization.id);
    const revoked = json(await patch(first.id, { revoke: true, customer_cancellation_reason: 'unused' }));
    expect(revoked).toMatchObject({ status: 'canceled', customer_cancellation_reason: 'unused' });
    expect(revoked.ended_at).toBe(server.clock.now().toISOString());
    const second = await subscriptionFactory(server, acme.organization.id);
    const deleted = await revoke(second.id);
    expect(deleted.statusCode).toBe(200);
    expect(json(deleted).status).toBe('canceled');
    const refused = await revoke(second.id);
    expect(refused.statusCode).toBe(403);
    expect(json(refused).error).toBe('AlreadyCanceledSubscription');
    expect((await patch(second.id, { cancel_at_period_end: false })).statusCode).toBe(410);
  });
});

describe('discounts', () => {
  it('sets and clears a discount', async () => {
    const subscription = await subscriptionFactory(server, acme.organization.id);
    const discount = await discountFactory(server, acme.organization.id, {
      type: 'percentage',
      basis_points: 2500,
      duration: 'forever',
    });
    const set = json(await patch(subscription.id, { discount_id: discount.id }));
    expect(set).toMatchObject({ discount_id: discount.id, amount: 750 });
    const same = await patch(subscription.id, { discount_id: discount.id });
    expect(same.statusCode).toBe(422);
    expect(json(await patch(subscription.id, { discount_id: null }))).toMatchObject({
      discount_id: null,
      amount: 1000,
    });
    const foreign = await discountFactory(server, other.organization.id);
    expect((await patch(subscription.id, { discount_id: foreign.id })).statusCode).toBe(422);
  });

  it('a repeating three-month discount covers three payments', async () => {
    const discount = await discountFactory(server, acme.organization.id, {
      type: 'fixed',
      amount: 300,
      duration: 'repeating',
      duration_in_months: 3,
    });
    const subscription = await subscriptionFactory(server, acme.organization.id, { discountId: discount.id });
    let end = subscription.current_period_end!;
    for (let i = 0; i < 3; i += 1) {
      await advanceTo(end);
      end = json(await get(subscription.id)).current_period_end;
    }
    const orders = await ordersOf(subscription.id);
    expect(orders.map((order) => [order.billing_reason, order.total_amount, order.status])).toEqual([
      ['subscription_create', 700, 'paid'],
      ['subscription_cycle', 700, 'paid'],
      ['subscription_cycle', 700, 'paid'],
      ['subscription_cycle', 1000, 'paid'],
    ]);
    expect(json(await get(subscription.id))).toMatchObject({ discount_id: null, amount: 1000 });
  });
});

describe('renewals', () => {
  it('twelve monthly renewals keep the anchor day and charge once each', async () => {
    const start = server.clock.now();
    const subscription = await subscriptionFactory(server, acme.organization.id, { price: 1500 });
    const ends: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const current = json(await get(subscription.id));
      await advanceTo(current.current_period_end);
      ends.push(json(await get(subscription.id)).current_period_start);
    }
    expect(ends[0]).toBe(
      new Date(
        Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, start.getUTCDate(), start.getUTCHours()),
      ).toISOString(),
    );
    expect(new Set(ends.map((iso) => new Date(iso).getUTCDate()))).toEqual(new Set([start.getUTCDate()]));
    const orders = await ordersOf(subscription.id);
    expect(orders).toHaveLength(13);
    expect(orders.slice(1).every((o) => o.billing_reason === 'subscription_cycle' && o.status === 'paid')).toBe(true);
    // The checkout's payment, then one per renewal.
    expect((await paymentsOf(subscription.id)).filter((p) => p.status === 'succeeded')).toHaveLength(13);
    const types = await eventTypes(subscription.id);
    expect(types.filter((t) => t === 'order.paid')).toHaveLength(13);
  });

  it('a yearly renewal', async () => {
    const subscription = await subscriptionFactory(server, acme.organization.id, { interval: 'year', price: 10000 });
    const end = new Date(subscription.current_period_end!);
    expect(end.getTime() - new Date(subscription.current_period_start).getTime()).toBeGreaterThan(364 * DAY);
    await advanceTo(end);
    const renewed = json(await get(subscription.id));
    expect(renewed.current_period_start).toBe(subscription.current_period_end);
    expect(new Date(renewed.current_period_end).getUTCFullYear()).toBe(end.getUTCFullYear() + 1);
    expect((await ordersOf(subscription.id)).map((o) => o.total_amount)).toEqual([10000, 10000]);
  });

  it('two runs at once renew and charge once', async () => {
    const subscription = await subscriptionFactory(server, acme.organization.id);
    clock().advance(new Date(subscription.current_period_end!).getTime() - server.clock.now().getTime());
    await Promise.all([billing(), billing(), billing()]);
    expect(await ordersOf(subscription.id)).toHaveLength(2);
    await billing();
    // The checkout's payment and exactly one renewal charge.
    expect(await paymentsOf(subscription.id)).toHaveLength(2);
    const charges = await server.runtime.database.db
      .selectFrom('simulated_charges')
      .select('id')
      .where('amount', '=', 1000)
      .execute();
    expect(charges.length).toBeGreaterThan(0);
  });
});

describe('dunning', () => {
  it('a card that starts declining: past due, retries at +2/+7/+14/+21 days, then the subscription ends', async () => {
    const subscription = await startsDeclining(await subscriptionFactory(server, acme.organization.id));
    const due = new Date(subscription.current_period_end!).getTime();
    await advanceTo(new Date(due));
    expect(json(await get(subscription.id)).status).toBe('past_due');
    for (const days of [2, 7, 14]) {
      await advanceTo(new Date(due + days * DAY - 1000));
      expect(await paymentsOf(subscription.id)).toHaveLength([2, 7, 14].indexOf(days) + 2);
      await advanceTo(new Date(due + days * DAY));
      expect(json(await get(subscription.id)).status).toBe('past_due');
    }
    await advanceTo(new Date(due + 21 * DAY));
    const ended = json(await get(subscription.id));
    expect(ended.status).toBe('canceled');
    expect(ended.ended_at).not.toBeNull();
    const payments = await paymentsOf(subscription.id);
    expect(payments.map((p) => p.status)).toEqual(['succeeded', ...Array(5).fill('failed')]);
    const emails = (
      await server.runtime.database.db
        .selectFrom('emails')
        .select(['template', 'to_addresses'])
        .where('template', 'in', ['payment_failed', 'subscription_ended'])
        .orderBy('created_at')
        .execute()
    ).filter((email) => email.to_addresses.includes(ended.customer.email));
    // The last failure ends the subscription: its `subscription.revoked` says so (platform/mail).
    expect(emails.map((e) => e.template)).toEqual([...Array(4).fill('payment_failed'), 'subscription_ended']);
    expect(await eventTypes(subscription.id)).toEqual(expect.arrayContaining(['subscription.revoked']));
  });

  it('a retry that succeeds makes the subscription active again', async () => {
    const subscription = await startsDeclining(await subscriptionFactory(server, acme.organization.id));
    await advanceTo(subscription.current_period_end!);
    expect(json(await get(subscription.id)).status).toBe('past_due');
    // The customer's card works again (a new card on file, as the processor sees it).
    await server.runtime.database.db
      .updateTable('simulated_payment_methods')
      .set({ outcome: 'succeed' })
      .where('customer_id', '=', subscription.customer_id)
      .execute();
    await advanceTo(new Date(new Date(subscription.current_period_end!).getTime() + 2 * DAY));
    const recovered = json(await get(subscription.id));
    expect(recovered.status).toBe('active');
    const [, cycle] = await ordersOf(subscription.id);
    expect(cycle!.status).toBe('paid');
    expect(await eventTypes(subscription.id)).toEqual(expect.arrayContaining(['subscription.active']));
  });
});

describe('plan changes', () => {
  it('upgrade mid-period with prorate: the difference joins the next renewal order', async () => {
    const subscription = await subscriptionFactory(server, acme.organization.id, { price: 1000 });
    const { product } = await productFactory(server, acme.organization.id, {
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 3000 }],
    });
    const start = new Date(subscription.current_period_start).getTime();
    const end = new Date(subscription.current_period_end!).getTime();
    clock().advance(start + (end - start) / 2 - server.clock.now().getTime());
    const changed = json(await patch(subscription.id, { product_id: product.id, proration_behavior: 'prorate' }));
    expect(changed).toMatchObject({ product_id: product.id, amount: 3000 });
    expect(await ordersOf(subscription.id)).toHaveLength(1);
    await advanceTo(new Date(end));
    const orders = await ordersOf(subscription.id);
    expect(orders).toHaveLength(2);
    expect(orders[1]).toMatchObject({ subtotal_amount: 3000 - 500 + 1500, total_amount: 4000, status: 'paid' });
  });

  it('upgrade mid-period with invoice: an update order is charged at once', async () => {
    const subscription = await subscriptionFactory(server, acme.organization.id, { price: 1000 });
    const { product } = await productFactory(server, acme.organization.id, {
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 3000 }],
    });
    const start = new Date(subscription.current_period_start).getTime();
    const end = new Date(subscription.current_period_end!).getTime();
    clock().advance(start + (end - start) / 2 - server.clock.now().getTime());
    expect((await patch(subscription.id, { product_id: product.id, proration_behavior: 'invoice' })).statusCode).toBe(
      200,
    );
    await billing();
    const orders = await ordersOf(subscription.id);
    expect(orders.map((o) => [o.billing_reason, o.total_amount, o.status])).toEqual([
      ['subscription_create', 1000, 'paid'],
      ['subscription_update', 1000, 'paid'],
    ]);
  });

  it('refuses a one-time or foreign product, and a change after a cancel', async () => {
    const subscription = await subscriptionFactory(server, acme.organization.id);
    const { product: once } = await productFactory(server, acme.organization.id);
    const oneTime = await patch(subscription.id, { product_id: once.id });
    expect(oneTime.statusCode).toBe(422);
    expect(json(oneTime).detail[0]).toMatchObject({ loc: ['body', 'product_id'], msg: 'Product is not recurring.' });
    const { product: foreign } = await productFactory(server, other.organization.id, { recurring_interval: 'month' });
    expect(json(await patch(subscription.id, { product_id: foreign.id })).detail[0].msg).toBe(
      'Product does not exist.',
    );
    await patch(subscription.id, { cancel_at_period_end: true });
    const { product } = await productFactory(server, acme.organization.id, { recurring_interval: 'month' });
    expect(json(await patch(subscription.id, { product_id: product.id })).error).toBe('AlreadyCanceledSubscription');
  });
});
