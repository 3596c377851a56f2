import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS, checkoutFactory, confirmationToken } from './factories/checkouts.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { json, startTestServer, type TestServer } from './harness.js';
import { installProcessorGuard, type ProcessorGuard } from './support/processor-guard.js';

/**
 * Stripe's webhook route: events signed with the endpoint's secret (made here with the SDK's
 * `generateTestHeaderString`), each handled once. The checkout payments behind them are made with the
 * simulated processor; the events name their PaymentIntents as Stripe would.
 */
const SECRET = 'whsec_test_0123456789';
const PATH = '/v1/integrations/stripe/webhook';
let server: TestServer;
let acme: OrganizationFixture;
let guard: ProcessorGuard;
let events = 0;

beforeAll(async () => {
  guard = installProcessorGuard();
  server = await startTestServer({ config: { stripeWebhookSecret: SECRET } });
  acme = await organizationFactory(server, { name: 'Acme' });
  await server.runtime.database.db
    .updateTable('organizations')
    .set({ email: 'billing@acme.example' })
    .where('id', '=', acme.organization.id)
    .execute();
});
afterAll(async () => {
  await server?.stop();
  guard?.uninstall();
});
afterEach(() => expect(guard.violations).toEqual([]));

function stripeEvent(type: string, object: Record<string, unknown>, id = `evt_${++events}`) {
  return { id, object: 'event', type, api_version: '2025-01-01', created: 1_760_000_000, data: { object } };
}

function send(event: object, secret = SECRET) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return server.inject({
    method: 'POST',
    url: PATH,
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
}

const confirm = (secret: string, payload: object) =>
  server.inject({ method: 'POST', url: `/v1/checkouts/client/${secret}/confirm`, payload });
const BUYER = { customer_email: 'hook@example.com', customer_name: 'Hal Hook', customer_billing_address: ADDRESS };

async function count(table: 'orders' | 'stripe_webhook_events' | 'order_disputes' | 'emails') {
  const row = await server.runtime.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function webhookEvents(type: string) {
  const rows = await server.runtime.database.db
    .selectFrom('webhook_events')
    .select('payload')
    .where('type', '=', type)
    .execute();
  return rows.map((row) => (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload).data);
}

/** The ids of the stored events of a type (a table's rows come in no set order: compare sets, not ends). */
async function webhookEventIds(type: string): Promise<Set<string>> {
  const rows = await server.runtime.database.db
    .selectFrom('webhook_events')
    .select('id')
    .where('type', '=', type)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** A checkout waiting for 3-D Secure: its attempt holds the PaymentIntent id Stripe's events will name. */
async function checkoutAwaitingAuthentication() {
  const { product } = await productFactory(server, acme.organization.id);
  const checkout = await checkoutFactory(server, acme.organization.id, [product.id]);
  const answer = await confirm(checkout.client_secret, {
    ...BUYER,
    confirmation_token_id: await confirmationToken(server, '4000002500003155'),
  });
  expect(json(answer).payment_processor_metadata.intent_status).toBe('requires_action');
  const attempt = await server.runtime.database.db
    .selectFrom('checkout_payment_attempts')
    .selectAll()
    .where('checkout_id', '=', checkout.id)
    .executeTakeFirstOrThrow();
  return { checkout, intentId: attempt.processor_payment_id!, key: attempt.idempotency_key };
}

const status = async (secret: string) =>
  json(await server.inject({ method: 'GET', url: `/v1/checkouts/client/${secret}` })).status;

async function paidOrder() {
  const { product } = await productFactory(server, acme.organization.id);
  const checkout = await checkoutFactory(server, acme.organization.id, [product.id]);
  const paid = await confirm(checkout.client_secret, {
    ...BUYER,
    confirmation_token_id: await confirmationToken(server),
  });
  expect(paid.statusCode).toBe(200);
  const payment = await server.runtime.database.db
    .selectFrom('payments')
    .selectAll()
    .where('checkout_id', '=', checkout.id)
    .executeTakeFirstOrThrow();
  return { orderId: payment.order_id!, intentId: payment.processor_payment_id!, amount: payment.amount };
}

describe('signatures', () => {
  it('refuses an unsigned, badly signed or stale event with 400 and does nothing', async () => {
    const before = await count('stripe_webhook_events');
    const event = stripeEvent('charge.refunded', { id: 'ch_1', object: 'charge' });
    expect((await send(event, 'whsec_someone_else')).statusCode).toBe(400);
    const unsigned = await server.inject({ method: 'POST', url: PATH, payload: event });
    expect(unsigned.statusCode).toBe(400);
    expect(json(unsigned)).toEqual({ error: 'BadRequest', detail: 'Invalid Stripe signature.' });
    const payload = JSON.stringify(event);
    const stale = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp: 1_000_000 });
    const old = await server.inject({
      method: 'POST',
      url: PATH,
      headers: { 'content-type': 'application/json', 'stripe-signature': stale },
      payload,
    });
    expect(old.statusCode).toBe(400);
    expect(await count('stripe_webhook_events')).toBe(before);
  });

  it('is not part of the public API document', async () => {
    const document = json(await server.inject({ method: 'GET', url: '/openapi.json' }));
    expect(Object.keys(document.paths)).not.toContain(PATH);
  });

  it('acknowledges events about anything it did not create', async () => {
    const answer = await send(stripeEvent('customer.created', { id: 'cus_1', object: 'customer' }));
    expect(answer.statusCode).toBe(200);
    expect(json(answer)).toEqual({ received: true });
  });
});

describe('payment intents', () => {
  it('payment_intent.succeeded settles a checkout waiting for authentication, once', async () => {
    const { checkout, intentId } = await checkoutAwaitingAuthentication();
    const event = stripeEvent('payment_intent.succeeded', {
      id: intentId,
      object: 'payment_intent',
      status: 'succeeded',
      amount: 1000,
      currency: 'usd',
      metadata: {},
      payment_method: 'pm_1',
    });
    expect((await send(event)).statusCode).toBe(200);
    expect(await status(checkout.client_secret)).toBe('succeeded');
    const orders = await server.runtime.database.db
      .selectFrom('orders')
      .select('id')
      .where('checkout_id', '=', checkout.id)
      .execute();
    expect(orders).toHaveLength(1);
    // Delivered again: nothing twice.
    expect((await send(event)).statusCode).toBe(200);
    expect(
      await server.runtime.database.db
        .selectFrom('orders')
        .select('id')
        .where('checkout_id', '=', checkout.id)
        .execute(),
    ).toHaveLength(1);
  });

  it('processing keeps the checkout confirmed; payment_failed (found by its idempotency key) reopens it', async () => {
    const { checkout, key } = await checkoutAwaitingAuthentication();
    const intent = { id: 'pi_from_elsewhere', object: 'payment_intent', amount: 1000, currency: 'usd' };
    const metadata = { tessera_idempotency_key: key };
    expect(
      (await send(stripeEvent('payment_intent.processing', { ...intent, status: 'processing', metadata }))).statusCode,
    ).toBe(200);
    expect(await status(checkout.client_secret)).toBe('confirmed');
    const failed = stripeEvent('payment_intent.payment_failed', {
      ...intent,
      status: 'requires_payment_method',
      metadata,
      last_payment_error: {
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      },
    });
    expect((await send(failed)).statusCode).toBe(200);
    expect(await status(checkout.client_secret)).toBe('open');
    const payment = await server.runtime.database.db
      .selectFrom('payments')
      .selectAll()
      .where('checkout_id', '=', checkout.id)
      .executeTakeFirstOrThrow();
    expect(payment).toMatchObject({ status: 'failed', decline_reason: 'insufficient_funds' });
  });
});

describe('refunds and disputes', () => {
  it('charge.refunded marks the order refunded in full, or in part', async () => {
    const full = await paidOrder();
    const charge = (refunded: number, intentId: string) =>
      stripeEvent('charge.refunded', {
        id: `ch_${intentId}`,
        object: 'charge',
        payment_intent: intentId,
        amount: 1000,
        amount_refunded: refunded,
        refunded: refunded === 1000,
      });
    expect((await send(charge(1000, full.intentId))).statusCode).toBe(200);
    const orders = await server.runtime.database.db.selectFrom('orders').selectAll().execute();
    expect(orders.find((order) => order.id === full.orderId)).toMatchObject({
      status: 'refunded',
      refunded_amount: 1000,
    });
    expect((await webhookEvents('order.refunded')).map((order) => order.id)).toContain(full.orderId);

    const part = await paidOrder();
    expect((await send(charge(400, part.intentId))).statusCode).toBe(200);
    const partial = await server.runtime.database.db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', part.orderId)
      .executeTakeFirstOrThrow();
    expect(partial).toMatchObject({ status: 'partially_refunded', refunded_amount: 400 });
  });

  it('refund.updated settles a refund Tessera made; charge.refunded leaves that order to its refunds', async () => {
    const { orderId, intentId } = await paidOrder();
    // The refund reaches the processor but its answer is lost: pending, as a Stripe refund may stay.
    guard.failAfterProcessing('refund');
    const created = await server.inject({
      method: 'POST',
      url: '/v1/refunds/',
      headers: { authorization: `Bearer ${acme.token}` },
      payload: { order_id: orderId, reason: 'customer_request', amount: 400 },
    });
    expect(json(created)).toMatchObject({ status: 'pending' });
    const db = server.runtime.database.db;
    await db
      .updateTable('refunds')
      .set({ processor_refund_id: 're_hook_1' })
      .where('id', '=', json(created).id)
      .execute();

    const refundEvent = (status: string) =>
      stripeEvent('refund.updated', {
        id: 're_hook_1',
        object: 'refund',
        amount: 400,
        status,
        payment_intent: intentId,
      });
    expect((await send(refundEvent('pending'))).statusCode).toBe(200);
    expect(
      await db.selectFrom('refunds').select('status').where('id', '=', json(created).id).executeTakeFirst(),
    ).toEqual({ status: 'pending' });
    expect((await send(refundEvent('succeeded'))).statusCode).toBe(200);
    expect(
      await db.selectFrom('refunds').select('status').where('id', '=', json(created).id).executeTakeFirst(),
    ).toEqual({ status: 'succeeded' });
    const order = () => db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(await order()).toMatchObject({ status: 'partially_refunded', refunded_amount: 400 });
    expect((await webhookEvents('refund.updated')).map((refund) => refund.id)).toContain(json(created).id);

    // Stripe's charge.refunded for the same money: the refund already accounts for it.
    const charge = stripeEvent('charge.refunded', {
      id: `ch_${intentId}`,
      object: 'charge',
      payment_intent: intentId,
      amount: 1000,
      amount_refunded: 400,
      refunded: false,
    });
    expect((await send(charge)).statusCode).toBe(200);
    expect(await order()).toMatchObject({ status: 'partially_refunded', refunded_amount: 400 });
    // A second settlement of a settled refund changes nothing.
    expect((await send(refundEvent('failed'))).statusCode).toBe(200);
    expect(await order()).toMatchObject({ status: 'partially_refunded', refunded_amount: 400 });
  });

  it('charge.dispute.created records the dispute on the order and tells the seller (webhook and email), once', async () => {
    const { orderId, intentId } = await paidOrder();
    const updatesBefore = await webhookEventIds('order.updated');
    const emailsBefore = await count('emails');
    const dispute = {
      id: 'dp_1',
      object: 'dispute',
      payment_intent: intentId,
      charge: 'ch_1',
      amount: 1000,
      currency: 'usd',
      reason: 'fraudulent',
      status: 'needs_response',
    };
    const created = stripeEvent('charge.dispute.created', dispute);
    expect((await send(created)).statusCode).toBe(200);
    expect((await send(created)).statusCode).toBe(200);
    const rows = await server.runtime.database.db.selectFrom('order_disputes').selectAll().execute();
    expect(rows).toEqual([
      expect.objectContaining({ order_id: orderId, processor_dispute_id: 'dp_1', amount: 1000, reason: 'fraudulent' }),
    ]);
    const added = [...(await webhookEventIds('order.updated'))].filter((id) => !updatesBefore.has(id));
    expect(added).toHaveLength(1);
    const update = await server.runtime.database.db
      .selectFrom('webhook_events')
      .select('payload')
      .where('id', '=', added[0]!)
      .executeTakeFirstOrThrow();
    const payload = typeof update.payload === 'string' ? JSON.parse(update.payload) : update.payload;
    expect((payload as { data: { id: string } }).data.id).toBe(orderId);
    expect(await count('emails')).toBe(emailsBefore + 1);
    const email = await server.runtime.database.db
      .selectFrom('emails')
      .selectAll()
      .where('template', '=', 'order_dispute_created')
      .executeTakeFirstOrThrow();
    expect(email.to_addresses).toContain('billing@acme.example');

    expect((await send(stripeEvent('charge.dispute.closed', { ...dispute, status: 'won' }))).statusCode).toBe(200);
    const closed = await server.runtime.database.db.selectFrom('order_disputes').selectAll().executeTakeFirstOrThrow();
    expect(closed.status).toBe('won');
    // The seller reads it as the reference's Dispute; a late report does not reopen a closed one.
    const listed = await server.inject({
      method: 'GET',
      url: `/v1/disputes/?order_id=${orderId}`,
      headers: { authorization: `Bearer ${acme.token}` },
    });
    expect(JSON.parse(listed.body).items).toEqual([
      expect.objectContaining({ status: 'won', closed: true, resolved: true, amount: 1000, tax_amount: 0 }),
    ]);
    await send(stripeEvent('charge.dispute.updated', { ...dispute, status: 'under_review' }));
    expect(
      (await server.runtime.database.db.selectFrom('order_disputes').selectAll().executeTakeFirstOrThrow()).status,
    ).toBe('won');
  });
});
