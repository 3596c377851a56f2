import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ManualClock } from '../src/platform/clock.js';
import type { TaxDetails } from '../src/platform/tax.js';
import { runSubscriptionBilling } from '../src/modules/subscriptions/subscriptions.renewal.js';
import { reverseStripeTaxRefunds } from '../src/modules/tax-settings/tax-settings.stripe-reversals.js';
import { runIn } from '../src/platform/jobs/queue.js';
import { checkoutFactory, confirmationToken } from './factories/checkouts.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { json, startTestServer, type TestServer } from './harness.js';
import { fakeStripeTax as fake, markTransactions } from './support/fake-stripe-tax.js';

/**
 * Stripe Tax beyond the checkout page (docs/tax.md), against the local fake of Stripe Tax's HTTP API
 * behind the real adapter: renewals and plan changes taxed by a calculation asked before the transaction
 * that writes the order (never inside one), a tax transaction recorded for each paid order, renewal or
 * checkout paid after 3-D Secure through Stripe's webhook, once however often it is told.
 */
vi.mock('../src/platform/stripe-tax.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/platform/stripe-tax.js')>();
  const { fakeStripeTax } = await import('./support/fake-stripe-tax.js');
  return {
    ...original,
    stripeTaxAvailable: () => true,
    stripeTaxCalculatorFor: (_config: unknown, inclusive: boolean) =>
      new original.StripeTaxCalculator(fakeStripeTax.client, { inclusive }),
  };
});

const WEBHOOK_SECRET = 'whsec_test_tax_0123456789';
const BERLIN = { country: 'DE', line1: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117' };
let server: TestServer;
let maison: OrganizationFixture;
let unmark: () => void;

beforeAll(async () => {
  unmark = markTransactions();
  server = await startTestServer({ config: { stripeWebhookSecret: WEBHOOK_SECRET } });
  maison = await organizationFactory(server, { name: 'Maison' });
  const settings = await server.inject({
    method: 'PATCH',
    url: '/v1/tax-settings/',
    headers: { authorization: `Bearer ${maison.token}` },
    payload: { home_country: 'FR', stripe_tax_enabled: true },
  });
  expect(settings.statusCode, settings.body).toBe(200);
});
afterAll(async () => {
  await server?.stop();
  unmark?.();
});

const db = () => server.runtime.database.db;
const advanceDays = (days: number) => (server.clock as ManualClock).advance(days * 86_400_000);
const bill = () => runSubscriptionBilling(server.context(), server.context().transactions);

async function confirm(clientSecret: string, card?: string, address = BERLIN) {
  return server.inject({
    method: 'POST',
    url: `/v1/checkouts/client/${clientSecret}/confirm`,
    payload: {
      customer_email: `kunde-${clientSecret.slice(-8)}@example.com`,
      customer_name: 'Kunde',
      customer_billing_address: address,
      confirmation_token_id: await confirmationToken(server, card),
    },
  });
}

/** A German customer's monthly subscription (€10.00), bought at checkout with Stripe's 19 %. */
async function germanSubscription(price = 1000, address = BERLIN) {
  const { product } = await productFactory(server, maison.organization.id, {
    recurring_interval: 'month',
    prices: [{ amount_type: 'fixed', price_amount: price, price_currency: 'eur' }],
  });
  const checkout = await checkoutFactory(server, maison.organization.id, [product.id]);
  const confirmed = await confirm(checkout.client_secret, undefined, address);
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return db().selectFrom('subscriptions').selectAll().where('checkout_id', '=', checkout.id).executeTakeFirstOrThrow();
}

async function ordersOf(subscriptionId: string) {
  return db()
    .selectFrom('orders')
    .select(['id', 'billing_reason', 'status', 'net_amount', 'tax_amount', 'total_amount', 'tax_details'])
    .where('subscription_id', '=', subscriptionId)
    .orderBy('created_at')
    .orderBy('invoice_number')
    .execute();
}

const details = (order: { tax_details: unknown }) => order.tax_details as TaxDetails;

/** The order's Stripe tax transaction, once the job recorded it (after the payment's commit). */
async function recordedTransaction(orderId: string): Promise<string> {
  await expect
    .poll(
      async () =>
        details(
          await db().selectFrom('orders').select('tax_details').where('id', '=', orderId).executeTakeFirstOrThrow(),
        ).transaction_id,
      { timeout: 15_000, interval: 50 },
    )
    .toMatch(/^tax_txn_/);
  const order = await db()
    .selectFrom('orders')
    .select('tax_details')
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  return details(order).transaction_id!;
}

describe('renewals of an organization on Stripe Tax', () => {
  it('each renewal is taxed by a Stripe calculation asked with no transaction open, charged, and recorded as a tax transaction; a changed rate applies from the next renewal', async () => {
    const subscription = await germanSubscription();
    const [first] = await ordersOf(subscription.id);
    expect(first).toMatchObject({ billing_reason: 'subscription_create', tax_amount: 190, total_amount: 1190 });
    await recordedTransaction(first!.id);

    const asked = fake.calculationRequests().length;
    advanceDays(32);
    await bill();
    const [, renewal] = await ordersOf(subscription.id);
    expect(renewal).toMatchObject({
      billing_reason: 'subscription_cycle',
      status: 'paid',
      net_amount: 1000,
      tax_amount: 190,
      total_amount: 1190,
    });
    expect(details(renewal!)).toMatchObject({
      provider: 'stripe_tax',
      country: 'DE',
      rate_basis_points: 1900,
      label: 'VAT',
      taxable_amount: 1000,
      tax_amount: 190,
    });
    const calculations = fake.calculationRequests().slice(asked);
    expect(calculations).toHaveLength(1);
    expect(calculations[0]).toMatchObject({ inTransaction: false });
    expect(Object.fromEntries(calculations[0]!.params)).toMatchObject({
      currency: 'eur',
      'line_items[0][amount]': '1000',
      'line_items[0][tax_behavior]': 'exclusive',
      'customer_details[address][country]': 'DE',
      'customer_details[address][postal_code]': '10117',
    });
    const payments = await db().selectFrom('payments').select('amount').where('order_id', '=', renewal!.id).execute();
    expect(payments).toEqual([{ amount: 1190 }]);

    const transactionId = await recordedTransaction(renewal!.id);
    expect(fake.transactions.filter((made) => made.reference === renewal!.id)).toEqual([
      expect.objectContaining({
        id: transactionId,
        type: 'transaction',
        calculation: details(renewal!).calculation_id,
      }),
    ]);
    expect(fake.requests.every((request) => !request.inTransaction)).toBe(true);

    // Germany raises its VAT to 20 %: the next renewal is taxed at the rate in force then, the earlier
    // orders keep theirs.
    fake.rates.DE = { percent: 20, type: 'vat' };
    try {
      advanceDays(29);
      await bill();
    } finally {
      fake.rates.DE = { percent: 19, type: 'vat' };
    }
    const orders = await ordersOf(subscription.id);
    expect(orders.map(({ tax_amount, total_amount }) => ({ tax_amount, total_amount }))).toEqual([
      { tax_amount: 190, total_amount: 1190 },
      { tax_amount: 190, total_amount: 1190 },
      { tax_amount: 200, total_amount: 1200 },
    ]);
    expect(details(orders[2]!).rate_basis_points).toBe(2000);
  });

  it('a question that changed while Stripe answered is asked again, and the order carries the answer to the question it was written with', async () => {
    const mitte = { ...BERLIN, line1: 'Alexanderplatz 1', postal_code: '10178' };
    const munich = { ...BERLIN, city: 'München', postal_code: '80331' };
    const subscription = await germanSubscription(1000, mitte);
    advanceDays(32);
    const asked = fake.calculationRequests().length;
    // The customer moves to Munich while Stripe computes the renewal's question for their old address.
    fake.afterNextCalculation(
      (params) => params.get('customer_details[address][postal_code]') === '10178',
      async () => {
        await db()
          .updateTable('customers')
          .set({ billing_address: JSON.stringify(munich) })
          .where('id', '=', subscription.customer_id)
          .execute();
      },
    );
    await bill();
    const theirs = fake
      .calculationRequests()
      .slice(asked)
      .filter((request) => ['10178', '80331'].includes(request.params.get('customer_details[address][postal_code]')!));
    expect(theirs.map((request) => request.params.get('customer_details[address][postal_code]'))).toEqual([
      '10178',
      '80331',
    ]);
    const orders = await ordersOf(subscription.id);
    expect(orders).toHaveLength(2);
    expect(orders[1]).toMatchObject({ billing_reason: 'subscription_cycle', tax_amount: 190, total_amount: 1190 });
    expect(details(orders[1]!).calculation_id).toBe(theirs[1]!.madeId);
  });

  it('while Stripe cannot be reached the renewal waits, untaxed nowhere, and is billed with Stripe’s tax once it answers', async () => {
    const subscription = await germanSubscription();
    advanceDays(32);
    fake.outage.down = true;
    try {
      await bill();
    } finally {
      fake.outage.down = false;
    }
    expect((await ordersOf(subscription.id)).map((order) => order.billing_reason)).toEqual(['subscription_create']);
    await bill();
    const orders = await ordersOf(subscription.id);
    expect(
      orders.map(({ billing_reason, tax_amount, total_amount }) => [billing_reason, tax_amount, total_amount]),
    ).toEqual([
      ['subscription_create', 190, 1190],
      ['subscription_cycle', 190, 1190],
    ]);
  });

  it('two billing runs at once write one renewal order and record one tax transaction', async () => {
    const subscription = await germanSubscription();
    advanceDays(32);
    await Promise.all([bill(), bill()]);
    const orders = await ordersOf(subscription.id);
    expect(orders.map((order) => order.billing_reason)).toEqual(['subscription_create', 'subscription_cycle']);
    const renewal = orders[1]!;
    await recordedTransaction(renewal.id);
    expect(fake.transactions.filter((made) => made.reference === renewal.id)).toHaveLength(1);
  });
});

describe('plan changes of an organization on Stripe Tax', () => {
  it('a change billed at once is taxed by Stripe on the order’s net (proration included), asked before the order’s transaction', async () => {
    const subscription = await germanSubscription();
    const { product: bigger } = await productFactory(server, maison.organization.id, {
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 3000, price_currency: 'eur' }],
    });
    const asked = fake.calculationRequests().length;
    const updated = await server.inject({
      method: 'PATCH',
      url: `/v1/subscriptions/${subscription.id}`,
      headers: { authorization: `Bearer ${maison.token}` },
      payload: { product_id: bigger.id, proration_behavior: 'invoice' },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const orders = await ordersOf(subscription.id);
    expect(orders).toHaveLength(2);
    const change = orders[1]!;
    expect(change.billing_reason).toBe('subscription_update');
    // The whole period is left (the clock has not moved): €30.00 − €10.00 = €20.00, 19 % of it.
    expect(change).toMatchObject({ net_amount: 2000, tax_amount: 380, total_amount: 2380 });
    expect(details(change)).toMatchObject({ provider: 'stripe_tax', rate_basis_points: 1900 });
    const calculations = fake.calculationRequests().slice(asked);
    expect(calculations.map((request) => [request.params.get('line_items[0][amount]'), request.inTransaction])).toEqual(
      [['2000', false]],
    );
  });

  it('a refused change asks nothing and changes nothing', async () => {
    const subscription = await germanSubscription();
    const asked = fake.calculationRequests().length;
    const refused = await server.inject({
      method: 'PATCH',
      url: `/v1/subscriptions/${subscription.id}`,
      headers: { authorization: `Bearer ${maison.token}` },
      payload: { product_id: '00000000-0000-4000-8000-000000000000', proration_behavior: 'invoice' },
    });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(fake.calculationRequests().length).toBe(asked);
    expect(await ordersOf(subscription.id)).toHaveLength(1);
  });
});

describe('a checkout paid after 3-D Secure, settled by Stripe’s webhook', () => {
  let events = 0;
  function send(type: string, object: Record<string, unknown>) {
    const payload = JSON.stringify({
      id: `evt_tax_${++events}`,
      object: 'event',
      type,
      api_version: '2025-01-01',
      created: 1_760_000_000,
      data: { object },
    });
    return server.inject({
      method: 'POST',
      url: '/v1/integrations/stripe/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
      payload,
    });
  }

  it('records the order’s tax transaction once, whether the event comes twice and the sweep runs meanwhile', async () => {
    const { product } = await productFactory(server, maison.organization.id, {
      prices: [{ amount_type: 'fixed', price_amount: 1000, price_currency: 'eur' }],
    });
    const checkout = await checkoutFactory(server, maison.organization.id, [product.id]);
    const answer = await confirm(checkout.client_secret, '4000002500003155');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(json(answer).payment_processor_metadata.intent_status).toBe('requires_action');
    const attempt = await db()
      .selectFrom('checkout_payment_attempts')
      .select('processor_payment_id')
      .where('checkout_id', '=', checkout.id)
      .executeTakeFirstOrThrow();
    const intent = {
      id: attempt.processor_payment_id,
      object: 'payment_intent',
      status: 'succeeded',
      amount: 1190,
      currency: 'eur',
      metadata: {},
      payment_method: 'pm_1',
    };
    // Stripe tells it twice (two events), and the Stripe Tax sweep runs at the same time.
    const sweep = () => reverseStripeTaxRefunds(server.context(), runIn(server.context()));
    const [first, , second] = await Promise.all([
      send('payment_intent.succeeded', intent),
      sweep(),
      send('payment_intent.succeeded', intent),
    ]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const order = await db()
      .selectFrom('orders')
      .select(['id', 'status', 'tax_amount', 'total_amount', 'tax_details'])
      .where('checkout_id', '=', checkout.id)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ status: 'paid', tax_amount: 190, total_amount: 1190 });
    const transactionId = await recordedTransaction(order.id);
    await sweep();
    expect(fake.transactions.filter((made) => made.reference === order.id)).toEqual([
      expect.objectContaining({ id: transactionId, calculation: details(order).calculation_id }),
    ]);
    expect(fake.requests.every((request) => !request.inTransaction)).toBe(true);
  });

  it('the sweep records a transaction the job could not (Stripe failed), then reverses the refund', async () => {
    const { product } = await productFactory(server, maison.organization.id, {
      prices: [{ amount_type: 'fixed', price_amount: 1000, price_currency: 'eur' }],
    });
    const checkout = await checkoutFactory(server, maison.organization.id, [product.id]);
    expect((await confirm(checkout.client_secret)).statusCode).toBe(200);
    const order = await db()
      .selectFrom('orders')
      .select(['id', 'tax_details'])
      .where('checkout_id', '=', checkout.id)
      .executeTakeFirstOrThrow();
    const transactionId = await recordedTransaction(order.id);
    // As if the job never got through: the sweep finds the order again and Stripe answers the same
    // transaction (same idempotency key), recorded once.
    await db()
      .updateTable('orders')
      .set({ tax_details: JSON.stringify({ ...details(order), transaction_id: null }) })
      .where('id', '=', order.id)
      .execute();
    const refund = await server.inject({
      method: 'POST',
      url: '/v1/refunds/',
      headers: { authorization: `Bearer ${maison.token}` },
      payload: { order_id: order.id, reason: 'customer_request', amount: 500 },
    });
    expect(json(refund)).toMatchObject({ status: 'succeeded', tax_amount: 95 });
    expect(await reverseStripeTaxRefunds(server.context(), runIn(server.context()))).toBe(1);
    expect(await recordedTransaction(order.id)).toBe(transactionId);
    expect(fake.transactions.filter((made) => made.reference === order.id)).toHaveLength(1);
    expect(fake.transactions.filter((made) => made.reference === json(refund).id)).toEqual([
      expect.objectContaining({ type: 'reversal', original_transaction: transactionId, amount: -595 }),
    ]);
  });
});
