import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../src/platform/clock.js';
import { confirmationToken } from './factories/checkouts.js';
import { orderFactory } from './factories/orders.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { subscriptionFactory } from './factories/subscriptions.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';
import { installProcessorGuard, type ProcessorGuard } from './support/processor-guard.js';

/**
 * The portal's payment of an order awaiting payment: GET …/orders/{id}/payment-status and POST
 * …/orders/{id}/confirm-payment, a past-due renewal paid with a new card or a saved one through the
 * dunning retry's own charge, with the test clock and exact amounts. No processor call inside a
 * database transaction.
 */
let server: TestServer;
let guard: ProcessorGuard;
beforeAll(async () => {
  server = await startTestServer();
  guard = installProcessorGuard();
});
afterAll(async () => {
  guard?.uninstall();
  await server?.stop();
});
afterEach(() => {
  expect(guard.violations).toEqual([]);
});

const HOUR = 3600;
const MASTERCARD = '5555555555554444';
const THREE_D_SECURE = '4000002500003155';
const ALWAYS_DECLINED = '4000000000000341';

async function sessionFor(org: OrganizationFixture, customerId: string): Promise<string> {
  const response = await server.inject({
    method: 'POST',
    url: '/v1/customer-sessions/',
    headers: bearer(org.token),
    payload: { customer_id: customerId },
  });
  expect(response.statusCode).toBe(201);
  return json(response).token;
}

const portal = (method: 'GET' | 'POST', url: string, token?: string, payload?: object) =>
  server.inject({ method, url, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });

const status = (orderId: string, token?: string) =>
  portal('GET', `/v1/customer-portal/orders/${orderId}/payment-status`, token);
const confirm = (orderId: string, token: string | undefined, payload: object) =>
  portal('POST', `/v1/customer-portal/orders/${orderId}/confirm-payment`, token, payload);

async function seller(method: 'GET' | 'POST', org: OrganizationFixture, url: string, payload?: object) {
  const response = await server.inject({ method, url, headers: bearer(org.token), ...(payload ? { payload } : {}) });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return json(response);
}

async function advanceTo(org: OrganizationFixture, at: string): Promise<void> {
  const clock = await seller('GET', org, '/v1/test-clock/');
  const seconds = Math.ceil((new Date(at).getTime() - new Date(clock.now).getTime()) / 1000);
  if (seconds > 0) await seller('POST', org, '/v1/test-clock/advance', { seconds });
}

/** The customer's payments in the order they were made: status, amount, card. */
async function payments(_org: OrganizationFixture, customerId: string) {
  const rows = await server.runtime.database.db
    .selectFrom('payments')
    .innerJoin('orders', 'orders.id', 'payments.order_id')
    .select(['payments.status', 'payments.amount', 'payments.method_metadata'])
    .where('orders.customer_id', '=', customerId)
    .orderBy('payments.created_at')
    .execute();
  return rows.map((p) => [p.status, p.amount, (p.method_metadata as { last4: string }).last4]);
}

async function chargeOf(orderId: string) {
  return server.runtime.database.db
    .selectFrom('subscription_charges')
    .selectAll()
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();
}

async function addCard(token: string, number: string, setDefault: boolean): Promise<string> {
  (server.clock as ManualClock).advance(1000);
  const response = await portal('POST', '/v1/customer-portal/customers/me/payment-methods', token, {
    confirmation_token_id: await confirmationToken(server, number),
    set_default: setDefault,
    return_url: '/portal',
  });
  expect(response.statusCode).toBe(201);
  return json(response).id;
}

/**
 * A $15/month subscription whose card declines every renewal, moved to its period's end: past due,
 * its renewal order pending with its charge in dunning (next retry in days).
 */
async function pastDue(org: OrganizationFixture) {
  const subscription = await subscriptionFactory(server, org.organization.id, { price: 1500 });
  await server.runtime.database.db
    .updateTable('simulated_payment_methods')
    .set({ outcome: 'charge_declined_after_attach' })
    .where('customer_id', '=', subscription.customer_id)
    .execute();
  await advanceTo(org, subscription.current_period_end!);
  const page = await seller('GET', org, `/v1/orders/?customer_id=${subscription.customer_id}&sorting=created_at`);
  const renewal = (page.items as { id: string; billing_reason: string; status: string }[]).find(
    (order) => order.billing_reason === 'subscription_cycle',
  )!;
  expect(renewal.status).toBe('pending');
  expect((await seller('GET', org, `/v1/subscriptions/${subscription.id}`)).status).toBe('past_due');
  const token = await sessionFor(org, subscription.customer_id);
  return { subscription, orderId: renewal.id, token };
}

describe('auth matrix', () => {
  let acme: OrganizationFixture;
  let other: OrganizationFixture;
  beforeAll(async () => {
    acme = await organizationFactory(server, { name: 'Acme' });
    other = await organizationFactory(server, { name: 'Other' });
  });

  it("answers 401 without a session, 404 for another customer's or organization's order, 422 for a bad id", async () => {
    const mine = await pastDue(acme);
    const theirs = await pastDue(acme);
    const elsewhere = await pastDue(other);
    const body = { payment_method_id: randomUUID() };
    expect((await status(mine.orderId)).statusCode).toBe(401);
    expect((await confirm(mine.orderId, undefined, body)).statusCode).toBe(401);
    expect(json(await status(mine.orderId, acme.token)).error).toBe('invalid_token');
    for (const id of [theirs.orderId, elsewhere.orderId, randomUUID()]) {
      for (const response of [await status(id, mine.token), await confirm(id, mine.token, body)]) {
        expect(response.statusCode).toBe(404);
        expect(json(response)).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
      }
    }
    for (const response of [await status('not-a-uuid', mine.token), await confirm('not-a-uuid', mine.token, body)]) {
      expect(response.statusCode).toBe(422);
      expect(json(response).detail[0].loc).toEqual(['path', 'id']);
    }
    expect(await chargeOf(theirs.orderId)).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('answers 422 in the API shape for a bad body, and charges nothing', async () => {
    const { orderId, token, subscription } = await pastDue(acme);
    const method = await addCard(token, MASTERCARD, false);
    for (const payload of [
      {},
      { confirmation_token_id: null, payment_method_id: null },
      { confirmation_token_id: 'tok', payment_method_id: method },
      { payment_method_id: 'not-a-uuid' },
      { payment_method_id: method, payment_processor: 'paypal' },
      { confirmation_token_id: 42 },
    ]) {
      const response = await confirm(orderId, token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(json(response).detail[0].loc[0]).toBe('body');
    }
    expect(await payments(acme, subscription.customer_id)).toEqual([
      ['succeeded', 1500, '4242'],
      ['failed', 1500, '4242'],
    ]);
    // Another customer's saved method is not this customer's to pay with (the stranger's subscription
    // moves the clock on: this one's dunning may retry its own card meanwhile, never another's).
    const stranger = await pastDue(acme);
    const foreign = await addCard(stranger.token, MASTERCARD, false);
    const refused = await confirm(orderId, token, { payment_method_id: foreign });
    expect(refused.statusCode).toBe(422);
    expect(json(refused).detail[0].loc).toEqual(['body', 'payment_method_id']);
    expect((await payments(acme, subscription.customer_id)).filter((p) => p[2] !== '4242')).toEqual([]);
  });
});

describe('payment status', () => {
  it('is the latest payment: succeeded, failed with its decline message, or no_payment', async () => {
    const org = await organizationFactory(server);
    const { orderId, token, subscription } = await pastDue(org);
    expect(json(await status(orderId, token))).toEqual({ status: 'failed', error: 'Your card was declined.' });
    const page = await seller('GET', org, `/v1/orders/?customer_id=${subscription.customer_id}&sorting=created_at`);
    expect(json(await status(page.items[0].id, token))).toEqual({ status: 'succeeded', error: null });
    const customer = await server.runtime.database.db
      .selectFrom('customers')
      .selectAll()
      .where('id', '=', subscription.customer_id)
      .executeTakeFirstOrThrow();
    const unpaid = await orderFactory(server, org.organization.id, { customer, status: 'pending' });
    expect(json(await status(unpaid.id, token))).toEqual({ status: 'no_payment', error: null });
  });
});

describe('confirm payment', () => {
  it('pays a past-due renewal with a new card: the order paid, the subscription active, the card the default', async () => {
    const org = await organizationFactory(server);
    const { orderId, token, subscription } = await pastDue(org);
    await seller('POST', org, '/v1/test-clock/advance', { seconds: HOUR });
    const response = await confirm(orderId, token, {
      confirmation_token_id: await confirmationToken(server, MASTERCARD),
      payment_processor: 'stripe',
    });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ status: 'succeeded', client_secret: null, error: null });
    expect(await seller('GET', org, `/v1/orders/${orderId}`)).toMatchObject({
      status: 'paid',
      total_amount: 1500,
      paid: true,
    });
    expect((await seller('GET', org, `/v1/subscriptions/${subscription.id}`)).status).toBe('active');
    expect(await payments(org, subscription.customer_id)).toEqual([
      ['succeeded', 1500, '4242'],
      ['failed', 1500, '4242'],
      ['succeeded', 1500, '4444'],
    ]);
    expect(await chargeOf(orderId)).toMatchObject({ status: 'paid', attempts: 2, next_attempt_at: null });
    expect(json(await status(orderId, token))).toEqual({ status: 'succeeded', error: null });
    const methods = json(await portal('GET', '/v1/customer-portal/customers/me/payment-methods', token)).items;
    expect(methods.find((m: { default: boolean }) => m.default).card.last4).toBe('4444');

    // Paid once: asking again is refused and charges nothing.
    const again = await confirm(orderId, token, { payment_method_id: methods[0].id });
    expect(again.statusCode).toBe(422);
    expect(json(again)).toEqual({
      error: 'OrderNotEligibleForRetry',
      detail: `Order ${orderId} is not eligible for a payment retry.`,
    });
    expect(await payments(org, subscription.customer_id)).toHaveLength(3);
  });

  it('pays with a saved card that is not the default, which becomes it', async () => {
    const org = await organizationFactory(server);
    const { orderId, token, subscription } = await pastDue(org);
    const saved = await addCard(token, MASTERCARD, false);
    const response = await confirm(orderId, token, { payment_method_id: saved });
    expect(json(response)).toEqual({ status: 'succeeded', client_secret: null, error: null });
    expect((await seller('GET', org, `/v1/orders/${orderId}`)).status).toBe('paid');
    const methods = json(await portal('GET', '/v1/customer-portal/customers/me/payment-methods', token)).items;
    expect(methods.find((m: { id: string }) => m.id === saved).default).toBe(true);
    expect(await payments(org, subscription.customer_id)).toEqual([
      ['succeeded', 1500, '4242'],
      ['failed', 1500, '4242'],
      ['succeeded', 1500, '4444'],
    ]);
  });

  it('a card that declines: failed with the message, and dunning goes on from this attempt', async () => {
    const org = await organizationFactory(server);
    const { orderId, token, subscription } = await pastDue(org);
    await seller('POST', org, '/v1/test-clock/advance', { seconds: HOUR });
    const response = await confirm(orderId, token, {
      confirmation_token_id: await confirmationToken(server, ALWAYS_DECLINED),
    });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ status: 'failed', client_secret: null, error: 'Your card was declined.' });
    expect(await payments(org, subscription.customer_id)).toEqual([
      ['succeeded', 1500, '4242'],
      ['failed', 1500, '4242'],
      ['failed', 1500, '0341'],
    ]);
    expect(await chargeOf(orderId)).toMatchObject({ status: 'pending', attempts: 2 });
    expect((await seller('GET', org, `/v1/subscriptions/${subscription.id}`)).status).toBe('past_due');
  });

  it('a new card asking for 3-D Secure answers requires_action with the client secret, charging nothing yet', async () => {
    const org = await organizationFactory(server);
    const { orderId, token, subscription } = await pastDue(org);
    const response = await confirm(orderId, token, {
      confirmation_token_id: await confirmationToken(server, THREE_D_SECURE),
    });
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(body.status).toBe('requires_action');
    expect(typeof body.client_secret).toBe('string');
    expect(body.error).toBeNull();
    expect(await payments(org, subscription.customer_id)).toHaveLength(2);
  });

  it("refuses a checkout's paid order (OrderNotEligibleForRetry) and a charge a billing run holds (PaymentAlreadyInProgress)", async () => {
    const org = await organizationFactory(server);
    const { orderId, token, subscription } = await pastDue(org);
    const saved = await addCard(token, MASTERCARD, false);
    const page = await seller('GET', org, `/v1/orders/?customer_id=${subscription.customer_id}&sorting=created_at`);
    const first = await confirm(page.items[0].id, token, { payment_method_id: saved });
    expect(first.statusCode).toBe(422);
    expect(json(first).error).toBe('OrderNotEligibleForRetry');

    await server.runtime.database.db
      .updateTable('subscription_charges')
      .set({ claim: randomUUID(), claimed_until: new Date(Date.now() + 24 * HOUR * 1000) })
      .where('order_id', '=', orderId)
      .execute();
    const busy = await confirm(orderId, token, { payment_method_id: saved });
    expect(busy.statusCode).toBe(409);
    expect(json(busy)).toEqual({
      error: 'PaymentAlreadyInProgress',
      detail: `A payment is already in progress for order ${orderId}.`,
    });
    expect(await payments(org, subscription.customer_id)).toHaveLength(2);
  });
});
