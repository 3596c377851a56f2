import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../src/platform/clock.js';
import { reconcileRefunds } from '../src/modules/refunds/refunds.settle.js';
import { typedBenefitFactory, waitForGrant } from './factories/benefit-grants.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { orderFactory } from './factories/orders.js';
import { paymentFactory } from './factories/payments.js';
import { paidOrderFactory } from './factories/refunds.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';
import { installProcessorGuard, type ProcessorGuard } from './support/processor-guard.js';

/**
 * Refunds through the API against the simulated card processor: the auth matrix, the reference's
 * checks, the tax portion, the order's amounts and status, webhooks, revoking benefits, concurrent
 * refunds, a processor that refuses and one whose answer is lost.
 */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;
let guard: ProcessorGuard;

beforeAll(async () => {
  guard = installProcessorGuard();
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
});
afterAll(async () => {
  await server?.stop();
  guard?.uninstall();
});
afterEach(() => {
  // No processor call, in any test of this file, was made with a transaction open.
  expect(guard.violations.map((violation) => `${violation.method}\n${violation.stack}`)).toEqual([]);
});

const create = (payload: object, token = acme.token) =>
  server.inject({ method: 'POST', url: '/v1/refunds/', headers: bearer(token), payload });
const list = (query = '', token = acme.token) =>
  server.inject({ method: 'GET', url: `/v1/refunds/?${query}`, headers: bearer(token) });
const getOrder = async (id: string) =>
  json(await server.inject({ method: 'GET', url: `/v1/orders/${id}`, headers: bearer(acme.token) }));

const db = () => server.runtime.database.db;
const refundsOf = (orderId: string) =>
  db().selectFrom('refunds').selectAll().where('order_id', '=', orderId).orderBy('created_at').execute();
async function chargeOf(orderId: string) {
  const payment = await db()
    .selectFrom('payments')
    .select('processor_payment_id')
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();
  return db()
    .selectFrom('simulated_charges')
    .selectAll()
    .where('id', '=', payment.processor_payment_id!)
    .executeTakeFirstOrThrow();
}
async function webhookData(type: string): Promise<any[]> {
  const rows = await db().selectFrom('webhook_events').select('payload').where('type', '=', type).execute();
  return rows.map((row) => (row.payload as { data: any }).data);
}

describe('auth matrix', () => {
  it('answers 401 without a token', async () => {
    expect((await server.inject({ method: 'GET', url: '/v1/refunds/' })).statusCode).toBe(401);
    const response = await server.inject({ method: 'POST', url: '/v1/refunds/', payload: {} });
    expect(response.statusCode).toBe(401);
  });

  it('answers 403 without the refunds scopes', async () => {
    const { orderId } = await paidOrderFactory(server, acme);
    const reader = await tokenFactory(server, acme.organization.id, ['refunds:read', 'orders:write']);
    const unrelated = await tokenFactory(server, acme.organization.id, ['orders:read']);
    expect((await list('', unrelated)).statusCode).toBe(403);
    expect((await list('', reader)).statusCode).toBe(200);
    const body = { order_id: orderId, reason: 'customer_request', amount: 100 };
    expect((await create(body, reader)).statusCode).toBe(403);
    expect(await refundsOf(orderId)).toEqual([]);
    const writer = await tokenFactory(server, acme.organization.id, ['refunds:write']);
    expect((await create(body, writer)).statusCode).toBe(200);
    expect((await list('', writer)).statusCode).toBe(200);
  });

  it("answers 422 at order_id for another organization's order, and lists none of its refunds", async () => {
    const foreign = await paidOrderFactory(server, other);
    const response = await create({ order_id: foreign.orderId, reason: 'other', amount: 100 });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail).toEqual([{ loc: ['body', 'order_id'], msg: 'Order not found', type: 'value_error' }]);
    expect(await refundsOf(foreign.orderId)).toEqual([]);
    expect((await create({ order_id: foreign.orderId, reason: 'other', amount: 100 }, other.token)).statusCode).toBe(
      200,
    );
    expect(json(await list(`order_id=${foreign.orderId}`)).items).toEqual([]);
    expect(json(await list(`order_id=${foreign.orderId}`, other.token)).items).toHaveLength(1);
  });

  it('answers 422 for bad bodies and queries, and changes nothing', async () => {
    const { orderId } = await paidOrderFactory(server, acme);
    const cases: [object, string][] = [
      [{ order_id: orderId, reason: 'customer_request', amount: 0 }, 'body.amount'],
      [{ order_id: orderId, reason: 'customer_request', amount: -500 }, 'body.amount'],
      [{ order_id: orderId, reason: 'customer_request', amount: 1.5 }, 'body.amount'],
      [{ order_id: orderId, reason: 'customer_request', amount: '100' }, 'body.amount'],
      [{ order_id: orderId, reason: 'because', amount: 100 }, 'body.reason'],
      [{ order_id: orderId, amount: 100 }, 'body.reason'],
      [{ order_id: 'not-a-uuid', reason: 'other', amount: 100 }, 'body.order_id'],
      [{ reason: 'other', amount: 100 }, 'body.order_id'],
      [{ order_id: orderId, reason: 'other', amount: 100, metadata: { k: { nested: true } } }, 'body.metadata.k'],
    ];
    for (const [body, loc] of cases) {
      const response = await create(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      const locs = json(response).detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
      expect(
        locs.some((l: string) => l.startsWith(loc)),
        `${JSON.stringify(body)} → ${locs}`,
      ).toBe(true);
    }
    expect(await refundsOf(orderId)).toEqual([]);
    expect((await getOrder(orderId)).status).toBe('paid');
    const query = await list('sorting=status&succeeded=maybe&order_id=x');
    expect(query.statusCode).toBe(422);
    const locs = json(query).detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['query.sorting.0', 'query.succeeded', 'query.order_id.0']));
  });
});

describe('POST /v1/refunds/', () => {
  it('refunds a one-time order in full with its tax: succeeded, order refunded, the card credited', async () => {
    const { orderId, customerId } = await paidOrderFactory(server, acme, { tax: 200 });
    const response = await create({
      order_id: orderId,
      reason: 'customer_request',
      amount: 1000,
      comment: 'Changed their mind',
      metadata: { ticket: 'T-1' },
    });
    expect(response.statusCode).toBe(200);
    const refund = json(response);
    expect(refund).toEqual({
      created_at: expect.any(String),
      modified_at: expect.any(String),
      id: expect.any(String),
      metadata: { ticket: 'T-1' },
      status: 'succeeded',
      reason: 'customer_request',
      amount: 1000,
      tax_amount: 200,
      currency: 'usd',
      organization_id: acme.organization.id,
      order_id: orderId,
      subscription_id: null,
      customer_id: customerId,
      revoke_benefits: false,
    });
    expect(await getOrder(orderId)).toMatchObject({
      status: 'refunded',
      paid: true,
      net_amount: 1000,
      tax_amount: 200,
      refunded_amount: 1000,
      refunded_tax_amount: 200,
    });
    const charge = await chargeOf(orderId);
    expect(charge).toMatchObject({ amount: 1200, amount_refunded: 1200 });
    const [row] = await refundsOf(orderId);
    expect(row).toMatchObject({ processor_amount: 1200, balance_amount: 0, idempotency_key: `refund:${refund.id}` });
    expect(row!.processor_refund_id).toMatch(/^re_/);

    // Announced once the processor answered, as the reference creates its refund from the answer.
    expect((await webhookData('refund.created')).filter((r) => r.id === refund.id)).toEqual([refund]);
    expect((await webhookData('refund.updated')).filter((r) => r.id === refund.id)).toEqual([]);
    expect((await webhookData('order.refunded')).filter((o) => o.id === orderId)).toEqual([
      expect.objectContaining({ status: 'refunded', refunded_amount: 1000, refunded_tax_amount: 200 }),
    ]);
    expect((await webhookData('order.updated')).some((o) => o.id === orderId && o.status === 'refunded')).toBe(true);

    // Nothing is left: the reference's 403.
    const again = await create({ order_id: orderId, reason: 'duplicate', amount: 1 });
    expect(again.statusCode).toBe(403);
    expect(json(again)).toEqual({ error: 'RefundedAlready', detail: `Order is already fully refunded: ${orderId}` });
  });

  it('refunds in parts: the tax portion in proportion, then all the tax left with the rest', async () => {
    const { orderId } = await paidOrderFactory(server, acme, { tax: 201 });
    const first = json(await create({ order_id: orderId, reason: 'service_disruption', amount: 333 }));
    expect(first).toMatchObject({ status: 'succeeded', amount: 333, tax_amount: 67 }); // 66.933 → 67
    expect(await getOrder(orderId)).toMatchObject({
      status: 'partially_refunded',
      refunded_amount: 333,
      refunded_tax_amount: 67,
    });

    const tooHigh = await create({ order_id: orderId, reason: 'other', amount: 668 });
    expect(tooHigh.statusCode).toBe(400);
    expect(json(tooHigh)).toEqual({
      error: 'RefundAmountTooHigh',
      detail: 'Refund amount exceeds remaining order balance: 667',
    });

    const rest = json(await create({ order_id: orderId, reason: 'other', amount: 667 }));
    expect(rest).toMatchObject({ status: 'succeeded', amount: 667, tax_amount: 134 });
    expect(await getOrder(orderId)).toMatchObject({
      status: 'refunded',
      refunded_amount: 1000,
      refunded_tax_amount: 201,
    });
    expect(await chargeOf(orderId)).toMatchObject({ amount: 1201, amount_refunded: 1201 });
  });

  it('refunds a subscription order in part, never cancels the subscription, and refuses revoke_benefits', async () => {
    const { orderId, subscriptionId } = await paidOrderFactory(server, acme, { recurring: true, tax: 100 });
    const prohibited = await create({ order_id: orderId, reason: 'other', amount: 100, revoke_benefits: true });
    expect(prohibited.statusCode).toBe(400);
    expect(json(prohibited)).toEqual({
      error: 'RevokeSubscriptionBenefitsProhibited',
      detail: 'Subscription benefits can only be revoked upon cancellation',
    });
    expect(await refundsOf(orderId)).toEqual([]);

    const refund = json(await create({ order_id: orderId, reason: 'satisfaction_guarantee', amount: 500 }));
    expect(refund).toMatchObject({ status: 'succeeded', amount: 500, tax_amount: 50, subscription_id: subscriptionId });
    expect(await getOrder(orderId)).toMatchObject({ status: 'partially_refunded', refunded_amount: 500 });
    const subscription = json(
      await server.inject({ method: 'GET', url: `/v1/subscriptions/${subscriptionId}`, headers: bearer(acme.token) }),
    );
    expect(subscription).toMatchObject({ status: 'active', canceled_at: null });

    const full = json(await create({ order_id: orderId, reason: 'other', amount: 500 }));
    expect(full).toMatchObject({ status: 'succeeded', tax_amount: 50 });
    expect(await getOrder(orderId)).toMatchObject({
      status: 'refunded',
      refunded_amount: 1000,
      refunded_tax_amount: 100,
    });
    expect(json(await list(`subscription_id=${subscriptionId}`)).items).toHaveLength(2);
  });

  it("revokes a one-time order's benefit grants when asked", async () => {
    const benefit = await typedBenefitFactory(server, acme.organization.id, 'custom');
    const { orderId, customerId } = await paidOrderFactory(server, acme, { benefitIds: [benefit.id] });
    await waitForGrant(server, customerId, benefit.id, (grant) => grant.granted_at !== null);
    const refund = json(await create({ order_id: orderId, reason: 'fraudulent', amount: 1000, revoke_benefits: true }));
    expect(refund).toMatchObject({ status: 'succeeded', revoke_benefits: true });
    await waitForGrant(server, customerId, benefit.id, (grant) => grant.revoked_at !== null);
  });

  it('keeps the benefits of a partial refund without revoke_benefits', async () => {
    const benefit = await typedBenefitFactory(server, acme.organization.id, 'custom');
    const { orderId, customerId } = await paidOrderFactory(server, acme, { benefitIds: [benefit.id] });
    await waitForGrant(server, customerId, benefit.id, (grant) => grant.granted_at !== null);
    expect(json(await create({ order_id: orderId, reason: 'other', amount: 1000 })).status).toBe('succeeded');
    const grant = await db()
      .selectFrom('benefit_grants')
      .selectAll()
      .where('customer_id', '=', customerId)
      .executeTakeFirstOrThrow();
    expect(grant.revoked_at).toBeNull();
  });
});

describe('orders that cannot be refunded', () => {
  it('answers 404 RefundUnknownPayment for a paid order with no payment to refund, and changes nothing', async () => {
    const order = await orderFactory(server, acme.organization.id, { tax_amount: 100 });
    const response = await create({ order_id: order.id, reason: 'other', amount: 500 });
    expect(response.statusCode).toBe(404);
    expect(json(response)).toEqual({
      error: 'RefundUnknownPayment',
      detail: `No payment to refund was found for order ${order.id}.`,
    });
    expect(await refundsOf(order.id)).toEqual([]);
    expect((await getOrder(order.id)).status).toBe('paid');
  });

  it('answers 422 at order_id for an order that is not paid', async () => {
    const order = await orderFactory(server, acme.organization.id, { status: 'pending' });
    const response = await create({ order_id: order.id, reason: 'other', amount: 500 });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail).toEqual([
      { loc: ['body', 'order_id'], msg: 'Order is not paid', type: 'value_error' },
    ]);
    expect(await refundsOf(order.id)).toEqual([]);
  });

  it('refuses with 400 when the deployment has no payment processor, before recording anything', async () => {
    const bare = await startTestServer({ config: { allowSimulatedPayments: false } });
    try {
      const org = await organizationFactory(bare, { name: 'Bare' });
      const order = await orderFactory(bare, org.organization.id);
      await paymentFactory(bare, org.organization.id, { order_id: order.id, checkout_id: null });
      const response = await bare.inject({
        method: 'POST',
        url: '/v1/refunds/',
        headers: bearer(org.token),
        payload: { order_id: order.id, reason: 'other', amount: 500 },
      });
      expect(response.statusCode).toBe(400);
      expect(json(response).error).toBe('BadRequest');
      expect(json(response).detail).toContain('No payment processor is configured');
      const rows = await bare.runtime.database.db.selectFrom('refunds').selectAll().execute();
      expect(rows).toEqual([]);
    } finally {
      await bare.stop();
    }
  });
});

describe('Idempotency-Key', () => {
  it('replays the first answer to a retried request: one refund, refunded once', async () => {
    const { orderId } = await paidOrderFactory(server, acme);
    const send = () =>
      server.inject({
        method: 'POST',
        url: '/v1/refunds/',
        headers: { ...bearer(acme.token), 'idempotency-key': `refund-${orderId}` },
        payload: { order_id: orderId, reason: 'duplicate', amount: 300 },
      });
    const first = await send();
    const again = await send();
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(json(again)).toEqual(json(first));
    expect(await refundsOf(orderId)).toHaveLength(1);
    expect(await chargeOf(orderId)).toMatchObject({ amount_refunded: 300 });
  });
});

describe('an order the credit balance helped pay', () => {
  it('gives back to the card what it paid, then the rest to the balance, once', async () => {
    const { orderId, customerId } = await paidOrderFactory(server, acme);
    // As if the customer's balance had paid $3 of the $10 and the card $7.
    const charge = await chargeOf(orderId);
    await db()
      .transaction()
      .execute(async (tx) => {
        await tx.updateTable('orders').set({ applied_balance_amount: 300 }).where('id', '=', orderId).execute();
        await tx.updateTable('payments').set({ amount: 700 }).where('order_id', '=', orderId).execute();
        await tx.updateTable('simulated_charges').set({ amount: 700 }).where('id', '=', charge.id).execute();
      });
    const balance = async () =>
      (
        (
          await db()
            .selectFrom('customers')
            .select('credit_balances')
            .where('id', '=', customerId)
            .executeTakeFirstOrThrow()
        ).credit_balances as Record<string, number>
      ).usd ?? 0;
    const before = await balance();

    expect(json(await create({ order_id: orderId, reason: 'other', amount: 500 })).status).toBe('succeeded');
    expect(json(await create({ order_id: orderId, reason: 'other', amount: 500 })).status).toBe('succeeded');
    expect((await refundsOf(orderId)).map((r) => [r.processor_amount, r.balance_amount])).toEqual([
      [500, 0],
      [200, 300],
    ]);
    expect(await chargeOf(orderId)).toMatchObject({ amount: 700, amount_refunded: 700 });
    expect((await balance()) - before).toBe(300);
    const movements = await db()
      .selectFrom('customer_balance_transactions')
      .select(['kind', 'amount', 'refund_id'])
      .where('order_id', '=', orderId)
      .execute();
    expect(movements).toEqual([{ kind: 'refunded', amount: 300, refund_id: (await refundsOf(orderId))[1]!.id }]);
    expect(await getOrder(orderId)).toMatchObject({ status: 'refunded', refunded_amount: 1000 });
  });
});

describe('concurrent refunds', () => {
  it('never refund more than was paid: the order row lock serializes the reservations', async () => {
    const { orderId } = await paidOrderFactory(server, acme, { tax: 100 });
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => create({ order_id: orderId, reason: 'duplicate', amount: 400 })),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 200, 400, 400, 400, 400]);
    for (const response of responses.filter((r) => r.statusCode === 400)) {
      expect(json(response).error).toBe('RefundAmountTooHigh');
    }
    const refunds = await refundsOf(orderId);
    expect(refunds.map((refund) => refund.status)).toEqual(['succeeded', 'succeeded']);
    expect(await getOrder(orderId)).toMatchObject({
      status: 'partially_refunded',
      refunded_amount: 800,
      refunded_tax_amount: 80,
    });
    expect(await chargeOf(orderId)).toMatchObject({ amount: 1100, amount_refunded: 880 });
  });

  it('two refunds of everything at once: one succeeds, the other finds nothing left', async () => {
    const { orderId } = await paidOrderFactory(server, acme);
    const responses = await Promise.all([
      create({ order_id: orderId, reason: 'duplicate', amount: 1000 }),
      create({ order_id: orderId, reason: 'duplicate', amount: 1000 }),
    ]);
    // The other one is refused either way: 400 RefundAmountTooHigh while the first one's amount is
    // reserved, 403 RefundedAlready once the first has refunded the order (a busy machine lets it finish).
    const refused = responses.filter((r) => r.statusCode !== 200);
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect([
      [400, 'RefundAmountTooHigh'],
      [403, 'RefundedAlready'],
    ]).toContainEqual([refused[0]!.statusCode, json(refused[0]!).error]);
    expect(await chargeOf(orderId)).toMatchObject({ amount_refunded: 1000 });
    expect((await getOrder(orderId)).status).toBe('refunded');
  });
});

describe('the processor', () => {
  it('refuses a refund: the refund fails, the order is unchanged and its amount is released', async () => {
    const { orderId } = await paidOrderFactory(server, acme);
    // The money already went back at the processor (a refund made elsewhere): it refuses more.
    const charge = await chargeOf(orderId);
    await db()
      .updateTable('simulated_charges')
      .set({ amount_refunded: charge.amount })
      .where('id', '=', charge.id)
      .execute();
    const response = await create({ order_id: orderId, reason: 'other', amount: 400 });
    expect(response.statusCode).toBe(200);
    const refund = json(response);
    expect(refund).toMatchObject({ status: 'failed', amount: 400, tax_amount: 0 });
    expect(await refundsOf(orderId)).toEqual([expect.objectContaining({ failure_reason: 'amount_too_large' })]);
    expect(await getOrder(orderId)).toMatchObject({ status: 'paid', refunded_amount: 0 });
    expect((await webhookData('refund.created')).find((r) => r.id === refund.id)).toMatchObject({ status: 'failed' });
    expect((await webhookData('order.refunded')).some((o) => o.id === orderId)).toBe(false);

    // The failed refund reserves nothing: the whole amount is refundable again.
    await db().updateTable('simulated_charges').set({ amount_refunded: 0 }).where('id', '=', charge.id).execute();
    expect(json(await create({ order_id: orderId, reason: 'other', amount: 1000 })).status).toBe('succeeded');
  });

  it('a lost answer leaves the refund pending; the reconciliation finishes it with the same key, refunding once', async () => {
    const { orderId } = await paidOrderFactory(server, acme, { tax: 100 });
    guard.failAfterProcessing('refund');
    const lost = json(await create({ order_id: orderId, reason: 'customer_request', amount: 500 }));
    expect(lost).toMatchObject({ status: 'pending', tax_amount: 50 });
    expect(await chargeOf(orderId)).toMatchObject({ amount_refunded: 550 });
    expect(await getOrder(orderId)).toMatchObject({ status: 'paid', refunded_amount: 0 });
    // Not announced until the processor's answer is known.
    expect((await webhookData('refund.created')).some((r) => r.id === lost.id)).toBe(false);

    // The pending refund holds its amount: the rest only can be refunded meanwhile.
    const tooHigh = await create({ order_id: orderId, reason: 'other', amount: 501 });
    expect(json(tooHigh)).toMatchObject({ error: 'RefundAmountTooHigh', detail: expect.stringContaining(': 500') });

    // Younger than a minute: left alone (its request may still be running).
    const clock = server.clock as ManualClock;
    expect(await reconcileRefunds(server.context())).toEqual({ settled: 0, waiting: 0 });
    clock.advance(2 * 60_000);
    expect(await reconcileRefunds(server.context())).toEqual({ settled: 1, waiting: 0 });
    expect(await reconcileRefunds(server.context())).toEqual({ settled: 0, waiting: 0 });

    const [refund] = await refundsOf(orderId);
    expect(refund).toMatchObject({ status: 'succeeded' });
    expect((await webhookData('refund.created')).filter((r) => r.id === lost.id)).toEqual([
      expect.objectContaining({ status: 'succeeded', amount: 500, tax_amount: 50 }),
    ]);
    const processorRefunds = await db()
      .selectFrom('simulated_refunds')
      .selectAll()
      .where('charge_id', '=', (await chargeOf(orderId)).id)
      .execute();
    expect(processorRefunds.map((r) => r.amount)).toEqual([550]);
    expect(await getOrder(orderId)).toMatchObject({
      status: 'partially_refunded',
      refunded_amount: 500,
      refunded_tax_amount: 50,
    });
  });
});

describe('GET /v1/refunds/', () => {
  it('filters by order, customer and succeeded, sorts by amount, and pages', async () => {
    const a = await paidOrderFactory(server, acme);
    const b = await paidOrderFactory(server, acme);
    const ids: string[] = [];
    for (const amount of [300, 100, 200]) {
      ids.push(json(await create({ order_id: a.orderId, reason: 'other', amount })).id);
    }
    const charge = await chargeOf(b.orderId);
    await db()
      .updateTable('simulated_charges')
      .set({ amount_refunded: charge.amount })
      .where('id', '=', charge.id)
      .execute();
    const failed = json(await create({ order_id: b.orderId, reason: 'other', amount: 50 }));
    expect(failed.status).toBe('failed');

    const byOrder = json(await list(`order_id=${a.orderId}&sorting=amount`));
    expect(byOrder.items.map((r: { amount: number }) => r.amount)).toEqual([100, 200, 300]);
    expect(byOrder.pagination).toEqual({ total_count: 3, max_page: 1 });
    const descending = json(await list(`order_id=${a.orderId}&sorting=-amount&limit=2&page=2`));
    expect(descending.items.map((r: { amount: number }) => r.amount)).toEqual([100]);
    expect(descending.pagination).toEqual({ total_count: 3, max_page: 2 });

    const both = `order_id=${a.orderId}&order_id=${b.orderId}`;
    expect(json(await list(both)).pagination.total_count).toBe(4);
    expect(json(await list(`${both}&succeeded=true`)).pagination.total_count).toBe(3);
    // As the reference: false does not filter.
    expect(json(await list(`${both}&succeeded=false`)).pagination.total_count).toBe(4);
    expect(json(await list(`customer_id=${b.customerId}`)).items.map((r: { id: string }) => r.id)).toEqual([failed.id]);
    expect(json(await list(`id=${ids[0]}&id=${failed.id}`)).pagination.total_count).toBe(2);
    expect(json(await list(`organization_id=${other.organization.id}`)).items).toEqual([]);
  });
});
