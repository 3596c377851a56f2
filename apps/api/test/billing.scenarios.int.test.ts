import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { benefitFactory } from './factories/benefits.js';
import { waitForGrant } from './factories/benefit-grants.js';
import { ADDRESS, CARDS, checkoutFactory, confirmationToken } from './factories/checkouts.js';
import { discountFactory } from './factories/discounts.js';
import { productFactory } from './factories/products.js';
import { subscriptionFactory } from './factories/subscriptions.js';
import { startTestServer, type TestServer } from './harness.js';
import { billingScenario, summary } from './support/billing-scenario.js';
import { installProcessorGuard, type ProcessorGuard } from './support/processor-guard.js';

/**
 * Billing scenarios through the public API: each starts a subscription with a checkout, moves its
 * organization's test clock, and checks every order and payment to the cent. One organization per
 * scenario, so that each clock moves alone.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
// Every charge, retry and refund of these scenarios is made with no database transaction open.
let guard: ProcessorGuard;
beforeAll(() => {
  guard = installProcessorGuard();
});
afterAll(async () => {
  guard.uninstall();
  await server?.stop();
});
afterEach(() => {
  expect(guard.violations).toEqual([]);
});

const HOUR = 3600;
/** Jan 15 12:00 → Feb 15 12:00 (the harness clock's first monthly period): 31 days. */
const JANUARY = 31 * 24 * HOUR;

const { seller, monthly, call, advance, advanceTo, orders, succeededPayments } = billingScenario(() => server);

/** The case: a $50/month subscription moved to $20/month one hour into its first period. */
async function downgradedAnHourIn(behavior: 'prorate' | 'invoice') {
  const org = await seller();
  const subscription = await subscriptionFactory(server, org.organization.id, { productId: await monthly(org, 5000) });
  const basic = await monthly(org, 2000);
  await advance(org, HOUR);
  await call(org, 'PATCH', `/v1/subscriptions/${subscription.id}`, { product_id: basic, proration_behavior: behavior });
  return { org, subscription };
}

describe('downgrade credits (proration credit larger than the next order)', () => {
  it('prorate: the whole credit applies; what exceeds the order becomes the credit balance', async () => {
    const { org, subscription } = await downgradedAnHourIn('prorate');
    // Unused Pro time: 5000 × (31 days − 1 h) / 31 days = 4993.28 → −4993; Basic for that time: 1997.
    const periodEnd = new Date(subscription.current_period_end!);
    await advanceTo(org, periodEnd);
    let list = await orders(org, subscription.customer_id);
    expect(summary(list)).toEqual([
      ['subscription_create', 5000, 'paid'],
      ['subscription_cycle', 0, 'paid'],
    ]);
    expect(list[1]!.items.map((item) => item.amount).sort((a, b) => a - b)).toEqual([-4993, 996, 1997, 2000]);
    expect(list[1]!.subtotal_amount).toBe(0);
    const customer = await call(org, 'GET', `/v1/customers/${subscription.customer_id}`);
    expect(customer.credit_balance).toBe(996);

    await advanceTo(org, '2026-03-15T12:00:00Z');
    await advanceTo(org, '2026-04-15T12:00:00Z');
    list = await orders(org, subscription.customer_id);
    expect(summary(list).slice(2)).toEqual([
      ['subscription_cycle', 2000, 'paid'],
      ['subscription_cycle', 2000, 'paid'],
    ]);
    // The balance pays first: 2000 − 996 charged in March, then 2000.
    expect(await succeededPayments(org, subscription.customer_id)).toEqual([5000, 1004, 2000]);
    expect((await call(org, 'GET', `/v1/customers/${subscription.customer_id}`)).credit_balance).toBe(0);
  });

  it('invoice: the net credit goes to the balance at once and pays the next renewals', async () => {
    const { org, subscription } = await downgradedAnHourIn('invoice');
    let list = await orders(org, subscription.customer_id);
    expect(summary(list)).toEqual([
      ['subscription_create', 5000, 'paid'],
      ['subscription_update', 0, 'paid'],
    ]);
    expect((await call(org, 'GET', `/v1/customers/${subscription.customer_id}`)).credit_balance).toBe(4993 - 1997);
    await advanceTo(org, '2026-02-15T12:00:00Z');
    await advanceTo(org, '2026-03-15T12:00:00Z');
    await advanceTo(org, '2026-04-15T12:00:00Z');
    list = await orders(org, subscription.customer_id);
    expect(summary(list).slice(2)).toEqual([
      ['subscription_cycle', 2000, 'paid'],
      ['subscription_cycle', 2000, 'paid'],
      ['subscription_cycle', 2000, 'paid'],
    ]);
    // 2996 of balance: all of February, 996 of March.
    expect(await succeededPayments(org, subscription.customer_id)).toEqual([5000, 1004, 2000]);
  });
});

describe('two product changes in one period', () => {
  it('up and back down: the renewal bills the old plan with all four prorations, each naming no other product', async () => {
    const org = await seller();
    const basic = await monthly(org, 1000);
    const pro = await monthly(org, 2000);
    const subscription = await subscriptionFactory(server, org.organization.id, { productId: basic });
    const change = (productId: string) =>
      call(org, 'PATCH', `/v1/subscriptions/${subscription.id}`, {
        product_id: productId,
        proration_behavior: 'prorate',
      });
    await advance(org, 24 * HOUR);
    await change(pro);
    await advance(org, 24 * HOUR);
    await change(basic);
    await advanceTo(org, subscription.current_period_end!);
    const list = await orders(org, subscription.customer_id);
    expect(summary(list)).toEqual([
      ['subscription_create', 1000, 'paid'],
      ['subscription_cycle', 1031, 'paid'],
    ]);
    // Of 744 hours: Basic's unused 720 h −968, Pro for them +1935; a day later Pro's unused 696 h −1871,
    // Basic for them +935 (half to even); then Basic's next month 1000.
    expect(list[1]!.items.map((item) => item.amount).sort((a, b) => a - b)).toEqual([-1871, -968, 935, 1000, 1935]);
    expect(await succeededPayments(org, subscription.customer_id)).toEqual([1000, 1031]);
  });
});

describe('the credit balance and dunning', () => {
  it('gives back the balance an order used when its charge fails for good', async () => {
    const { org, subscription } = await downgradedAnHourIn('invoice');
    await server.runtime.database.db
      .updateTable('simulated_payment_methods')
      .set({ outcome: 'charge_declined_after_attach' })
      .where('customer_id', '=', subscription.customer_id)
      .execute();
    // February is paid by the balance (2996 → 996); March needs the card for 1004, which declines.
    await advanceTo(org, '2026-02-15T12:00:00Z');
    await advanceTo(org, '2026-03-15T12:00:00Z');
    const customer = () => call(org, 'GET', `/v1/customers/${subscription.customer_id}`);
    expect((await customer()).credit_balance).toBe(0);
    expect((await call(org, 'GET', `/v1/subscriptions/${subscription.id}`)).status).toBe('past_due');
    // Retries 2, 7, 14 and 21 days later all fail: the subscription ends and the 996 comes back.
    for (const day of ['03-17', '03-22', '03-29', '04-05']) await advanceTo(org, `2026-${day}T12:00:01Z`);
    expect((await call(org, 'GET', `/v1/subscriptions/${subscription.id}`)).status).toBe('canceled');
    expect((await customer()).credit_balance).toBe(996);
    const list = await orders(org, subscription.customer_id);
    expect(summary(list)).toEqual([
      ['subscription_create', 5000, 'paid'],
      ['subscription_update', 0, 'paid'],
      ['subscription_cycle', 2000, 'paid'],
      ['subscription_cycle', 2000, 'pending'],
    ]);
    expect(await succeededPayments(org, subscription.customer_id)).toEqual([5000]);
  });
});

describe('upgrade, then cancel at period end', () => {
  it('bills the pending upgrade in a final order when the subscription ends', async () => {
    const org = await seller();
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await monthly(org, 1000),
    });
    const big = await monthly(org, 100_000);
    await advance(org, JANUARY / 2);
    await call(org, 'PATCH', `/v1/subscriptions/${subscription.id}`, {
      product_id: big,
      proration_behavior: 'prorate',
    });
    await call(org, 'PATCH', `/v1/subscriptions/${subscription.id}`, { cancel_at_period_end: true });
    await advanceTo(org, subscription.current_period_end!);
    const ended = await call(org, 'GET', `/v1/subscriptions/${subscription.id}`);
    expect(ended).toMatchObject({ status: 'canceled', cancel_at_period_end: true });
    const list = await orders(org, subscription.customer_id);
    // Half a month of each: −500 + 50 000, in the final order of the period's end.
    expect(summary(list)).toEqual([
      ['subscription_create', 1000, 'paid'],
      ['subscription_cycle', 49_500, 'paid'],
    ]);
    expect(await succeededPayments(org, subscription.customer_id)).toEqual([1000, 49_500]);
  });
});

describe('a discount set on a running subscription', () => {
  it('once: applies to the next renewal only', async () => {
    const org = await seller();
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await monthly(org, 1000),
    });
    const discount = await discountFactory(server, org.organization.id, { duration: 'once', basis_points: 5000 });
    await advance(org, 10 * 24 * HOUR);
    await call(org, 'PATCH', `/v1/subscriptions/${subscription.id}`, { discount_id: discount.id });
    await advanceTo(org, '2026-02-15T12:00:00Z');
    await advanceTo(org, '2026-03-15T12:00:00Z');
    const list = await orders(org, subscription.customer_id);
    expect(summary(list)).toEqual([
      ['subscription_create', 1000, 'paid'],
      ['subscription_cycle', 500, 'paid'],
      ['subscription_cycle', 1000, 'paid'],
    ]);
  });

  it('repeating 3 months: the next three renewals', async () => {
    const org = await seller();
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await monthly(org, 1000),
    });
    const discount = await discountFactory(server, org.organization.id, {
      duration: 'repeating',
      duration_in_months: 3,
      basis_points: 2500,
    });
    await advance(org, 10 * 24 * HOUR);
    await call(org, 'PATCH', `/v1/subscriptions/${subscription.id}`, { discount_id: discount.id });
    for (const month of ['02', '03', '04', '05']) await advanceTo(org, `2026-${month}-15T12:00:00Z`);
    const list = await orders(org, subscription.customer_id);
    expect(list.map((order) => order.total_amount)).toEqual([1000, 750, 750, 750, 1000]);
  });
});

describe('a product change re-evaluates benefits', () => {
  it('revokes what only the old product gave and grants what the new one gives', async () => {
    const org = await seller();
    const kept = await benefitFactory(server, org.organization.id, { type: 'custom', description: 'Kept' });
    const old = await benefitFactory(server, org.organization.id, { type: 'custom', description: 'Old only' });
    const added = await benefitFactory(server, org.organization.id, { type: 'custom', description: 'New only' });
    const pro = await monthly(org, 1000);
    const team = await monthly(org, 3000);
    await call(org, 'POST', `/v1/products/${pro}/benefits`, { benefits: [kept.id, old.id] });
    await call(org, 'POST', `/v1/products/${team}/benefits`, { benefits: [kept.id, added.id] });
    const subscription = await subscriptionFactory(server, org.organization.id, { productId: pro });
    await waitForGrant(server, subscription.customer_id, old.id, (grant) => grant.granted_at !== null);
    await call(org, 'PATCH', `/v1/subscriptions/${subscription.id}`, { product_id: team });
    await waitForGrant(server, subscription.customer_id, added.id, (grant) => grant.granted_at !== null);
    await waitForGrant(server, subscription.customer_id, old.id, (grant) => grant.revoked_at !== null);
    const still = await waitForGrant(server, subscription.customer_id, kept.id, () => true);
    expect(still.revoked_at).toBeNull();
  });
});

describe('an upgrade checkout', () => {
  it('upgrades the free subscription in place', async () => {
    const org = await seller();
    const free = (
      await productFactory(server, org.organization.id, {
        recurring_interval: 'month',
        prices: [{ amount_type: 'free' }],
      })
    ).product.id;
    const paid = await monthly(org, 2500);
    const subscription = await subscriptionFactory(server, org.organization.id, { productId: free });
    await advance(org, 24 * HOUR);
    const checkout = await checkoutFactory(server, org.organization.id, [paid], { subscription_id: subscription.id });
    const confirmed = await server.inject({
      method: 'POST',
      url: `/v1/checkouts/client/${checkout.client_secret}/confirm`,
      payload: {
        customer_name: 'Sam Buyer',
        customer_billing_address: ADDRESS,
        confirmation_token_id: await confirmationToken(server, CARDS.visa),
      },
    });
    expect(confirmed.statusCode).toBe(200);
    const page = await call(org, 'GET', `/v1/subscriptions/?customer_id=${subscription.customer_id}`);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ id: subscription.id, product_id: paid, amount: 2500, status: 'active' });
    const list = await orders(org, subscription.customer_id);
    expect(summary(list)).toEqual([
      ['subscription_create', 0, 'paid'],
      ['subscription_update', 2500, 'paid'],
    ]);
    // The new period starts at the upgrade: the next renewal is a month later, at the new price.
    expect(new Date(page.items[0].current_period_start).getTime()).toBeGreaterThan(
      new Date(subscription.current_period_start).getTime(),
    );
  });
});
