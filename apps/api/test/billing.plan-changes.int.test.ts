import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OrganizationFixture } from './factories/organizations.js';
import { subscriptionFactory } from './factories/subscriptions.js';
import { json, startTestServer, type TestServer } from './harness.js';
import { billingScenario, summary } from './support/billing-scenario.js';
import { installProcessorGuard, type ProcessorGuard } from './support/processor-guard.js';

/**
 * Plan changes whose money went wrong, through the public API and the test clock, to the cent: the VAT
 * of a credit carried to the balance, an invoiced change collected at once, and a change refused while
 * a period is unpaid. Each scenario has an organization of its own.
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

const { seller, monthly, call, advance, advanceTo, orders, succeededPayments, creditBalance } = billingScenario(
  () => server,
);

const HOUR = 3600;
const DAY = 24 * HOUR;

/** A French seller collecting 20 % VAT in France (the subscription factory's buyer lives in Paris). */
async function frenchSeller(): Promise<OrganizationFixture> {
  const org = await seller('Maison');
  await call(org, 'PATCH', '/v1/tax-settings/', { home_country: 'FR' });
  await call(org, 'POST', '/v1/tax-registrations/', { country: 'FR', rate_basis_points: 2000, label: 'VAT' });
  return org;
}

const lines = (order: { items: { amount: number; tax_amount: number }[] }) =>
  order.items.map((item) => [item.amount, item.tax_amount]);

describe('VAT on a downgrade credit beyond the order', () => {
  /** $50 + 20 % = 6000 paid, then $10 an hour later. Of 744 hours, 743 are left. */
  async function downgradedAnHourIn(behavior: 'invoice' | 'prorate') {
    const org = await frenchSeller();
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await monthly(org, 5000),
    });
    const basic = await monthly(org, 1000);
    await advance(org, HOUR);
    await call(org, 'PATCH', `/v1/subscriptions/${subscription.id}`, {
      product_id: basic,
      proration_behavior: behavior,
    });
    return { org, subscription };
  }

  it('invoice: the credit goes to the balance with its VAT, and pays the next renewal with its own', async () => {
    const { org, subscription } = await downgradedAnHourIn('invoice');
    const customerId = subscription.customer_id;
    let list = await orders(org, customerId);
    expect(summary(list)).toEqual([
      ['subscription_create', 6000, 'paid'],
      ['subscription_update', 0, 'paid'],
    ]);
    // Unused Pro: 5000 × 743/744 = 4993.28 → −4993; Basic for the time left: 1000 × 743/744 → 999.
    // Net −3994, its VAT −798.8 → −799: the credit carried is 3994 + 799 = 4793, the VAT on it included.
    expect(lines(list[1]!).sort((a, b) => a[0]! - b[0]!)).toEqual([
      [-4993, -799],
      [999, 0],
      [3994, 799],
    ]);
    expect(list[1]).toMatchObject({ subtotal_amount: 0, tax_amount: 0, total_amount: 0 });
    expect(await creditBalance(org, customerId)).toBe(4793);

    await advanceTo(org, subscription.current_period_end!);
    list = await orders(org, customerId);
    // The renewal is 1000 + 200 VAT, paid from the balance: 4793 − 1200 = 3593, nothing charged.
    expect(summary(list).slice(2)).toEqual([['subscription_cycle', 1200, 'paid']]);
    expect(list[2]).toMatchObject({ tax_amount: 200 });
    expect(await creditBalance(org, customerId)).toBe(3593);
    expect(await succeededPayments(org, customerId)).toEqual([6000]);
  });

  it('prorate: the renewal carries the credit with its VAT to the balance (Stripe: 3593)', async () => {
    const { org, subscription } = await downgradedAnHourIn('prorate');
    const customerId = subscription.customer_id;
    await advanceTo(org, subscription.current_period_end!);
    let list = await orders(org, customerId);
    expect(summary(list)).toEqual([
      ['subscription_create', 6000, 'paid'],
      ['subscription_cycle', 0, 'paid'],
    ]);
    // Basic's month 1000, the credit −4993 and the debit 999: net −2994, VAT −598.8 → −599.
    expect(lines(list[1]!).sort((a, b) => a[0]! - b[0]!)).toEqual([
      [-4993, -599],
      [999, 0],
      [1000, 0],
      [2994, 599],
    ]);
    expect(await creditBalance(org, customerId)).toBe(3593);

    await advanceTo(org, '2026-03-15T12:00:00Z');
    list = await orders(org, customerId);
    expect(summary(list).slice(2)).toEqual([['subscription_cycle', 1200, 'paid']]);
    expect(await creditBalance(org, customerId)).toBe(2393);
    expect(await succeededPayments(org, customerId)).toEqual([6000]);
  });
});

describe('an invoiced plan change is collected with the change', () => {
  /** $10 → $50 ten days in: of 744 hours 504 are left: −677 + 3387 = 2710. */
  async function upgradedTenDaysIn() {
    const org = await seller();
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await monthly(org, 1000),
    });
    const pro = await monthly(org, 5000);
    await advance(org, 10 * DAY);
    const updated = await call(org, 'PATCH', `/v1/subscriptions/${subscription.id}`, {
      product_id: pro,
      proration_behavior: 'invoice',
    });
    return { org, subscription, updated };
  }

  it('is charged before the update answers', async () => {
    const { org, subscription, updated } = await upgradedTenDaysIn();
    expect(updated).toMatchObject({ status: 'active', amount: 5000 });
    const list = await orders(org, subscription.customer_id);
    expect(summary(list)).toEqual([
      ['subscription_create', 1000, 'paid'],
      ['subscription_update', 2710, 'paid'],
    ]);
    expect(await succeededPayments(org, subscription.customer_id)).toEqual([1000, 2710]);
  });

  it('stays collected when the subscription is revoked before the next billing run', async () => {
    const { org, subscription } = await upgradedTenDaysIn();
    await call(org, 'PATCH', `/v1/subscriptions/${subscription.id}`, { revoke: true });
    const list = await orders(org, subscription.customer_id);
    expect(summary(list)).toEqual([
      ['subscription_create', 1000, 'paid'],
      ['subscription_update', 2710, 'paid'],
    ]);
    expect(await succeededPayments(org, subscription.customer_id)).toEqual([1000, 2710]);
  });

  it('not charged at the change (the processor unreachable): collected by the revoke before it ends', async () => {
    const org = await seller();
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await monthly(org, 1000),
    });
    const pro = await monthly(org, 5000);
    await advance(org, 10 * DAY);
    const processor = server.context().payments!;
    const unreachable = vi
      .spyOn(processor, 'chargeSavedPaymentMethod')
      .mockRejectedValueOnce(new Error('connect ECONNREFUSED'));
    try {
      await call(org, 'PATCH', `/v1/subscriptions/${subscription.id}`, {
        product_id: pro,
        proration_behavior: 'invoice',
      });
    } finally {
      unreachable.mockRestore();
    }
    expect(summary(await orders(org, subscription.customer_id)).at(-1)).toEqual([
      'subscription_update',
      2710,
      'pending',
    ]);
    await call(org, 'DELETE', `/v1/subscriptions/${subscription.id}`);
    expect(summary(await orders(org, subscription.customer_id))).toEqual([
      ['subscription_create', 1000, 'paid'],
      ['subscription_update', 2710, 'paid'],
    ]);
    expect(await succeededPayments(org, subscription.customer_id)).toEqual([1000, 2710]);
  });

  it('stays collected when the subscription is canceled at period end and the end is crossed', async () => {
    const { org, subscription } = await upgradedTenDaysIn();
    await call(org, 'PATCH', `/v1/subscriptions/${subscription.id}`, { cancel_at_period_end: true });
    await advanceTo(org, subscription.current_period_end!);
    expect((await call(org, 'GET', `/v1/subscriptions/${subscription.id}`)).status).toBe('canceled');
    const list = await orders(org, subscription.customer_id);
    expect(summary(list)).toEqual([
      ['subscription_create', 1000, 'paid'],
      ['subscription_update', 2710, 'paid'],
    ]);
    expect(await succeededPayments(org, subscription.customer_id)).toEqual([1000, 2710]);
  });

  it('declined: the subscription is past due and the order is retried by dunning', async () => {
    const org = await seller();
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await monthly(org, 1000),
    });
    const pro = await monthly(org, 5000);
    await server.runtime.database.db
      .updateTable('simulated_payment_methods')
      .set({ outcome: 'charge_declined_after_attach' })
      .where('customer_id', '=', subscription.customer_id)
      .execute();
    await advance(org, 10 * DAY);
    const updated = await call(org, 'PATCH', `/v1/subscriptions/${subscription.id}`, {
      product_id: pro,
      proration_behavior: 'invoice',
    });
    expect(updated.status).toBe('past_due');
    expect(summary(await orders(org, subscription.customer_id))).toEqual([
      ['subscription_create', 1000, 'paid'],
      ['subscription_update', 2710, 'pending'],
    ]);
    // The card is fixed; the first retry (two days later) collects the order and the subscription is active.
    await server.runtime.database.db
      .updateTable('simulated_payment_methods')
      .set({ outcome: 'succeed' })
      .where('customer_id', '=', subscription.customer_id)
      .execute();
    await advance(org, 2 * DAY + 1);
    expect((await call(org, 'GET', `/v1/subscriptions/${subscription.id}`)).status).toBe('active');
    expect(await succeededPayments(org, subscription.customer_id)).toEqual([1000, 2710]);
  });
});

describe('a plan change while a period is unpaid', () => {
  it('is refused with a 422, crediting nothing, and allowed again once the period is paid', async () => {
    const org = await seller();
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await monthly(org, 5000),
    });
    const basic = await monthly(org, 1000);
    const card = (outcome: string) =>
      server.runtime.database.db
        .updateTable('simulated_payment_methods')
        .set({ outcome })
        .where('customer_id', '=', subscription.customer_id)
        .execute();
    await card('charge_declined_after_attach');
    await advanceTo(org, subscription.current_period_end!);
    expect((await call(org, 'GET', `/v1/subscriptions/${subscription.id}`)).status).toBe('past_due');
    await advance(org, HOUR);

    for (const proration_behavior of ['invoice', 'prorate']) {
      const refused = await server.inject({
        method: 'PATCH',
        url: `/v1/subscriptions/${subscription.id}`,
        headers: { authorization: `Bearer ${org.token}` },
        payload: { product_id: basic, proration_behavior },
      });
      expect(refused.statusCode, refused.body).toBe(422);
      expect(json(refused).detail[0]).toMatchObject({ loc: ['body', 'product_id'] });
    }
    const preview = await server.inject({
      method: 'POST',
      url: `/v1/subscriptions/${subscription.id}/preview`,
      headers: { authorization: `Bearer ${org.token}` },
      payload: { product_id: basic },
    });
    expect(preview.statusCode, preview.body).toBe(422);
    expect(await creditBalance(org, subscription.customer_id)).toBe(0);
    expect((await call(org, 'GET', `/v1/subscriptions/${subscription.id}`)).product_id).not.toBe(basic);

    // Dunning gives up: the subscription ends with no credit left behind.
    for (const days of [2, 7, 14, 21]) {
      await advanceTo(org, new Date(new Date(subscription.current_period_end!).getTime() + days * DAY * 1000 + 1000));
    }
    expect((await call(org, 'GET', `/v1/subscriptions/${subscription.id}`)).status).toBe('canceled');
    expect(await creditBalance(org, subscription.customer_id)).toBe(0);
    expect(await succeededPayments(org, subscription.customer_id)).toEqual([5000]);
  });

  it('a past-due subscription whose period gets paid can change plan again', async () => {
    const org = await seller();
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await monthly(org, 5000),
    });
    const basic = await monthly(org, 1000);
    const card = (outcome: string) =>
      server.runtime.database.db
        .updateTable('simulated_payment_methods')
        .set({ outcome })
        .where('customer_id', '=', subscription.customer_id)
        .execute();
    await card('charge_declined_after_attach');
    await advanceTo(org, subscription.current_period_end!);
    await card('succeed');
    await advance(org, 2 * DAY + 1);
    expect((await call(org, 'GET', `/v1/subscriptions/${subscription.id}`)).status).toBe('active');
    const changed = await call(org, 'PATCH', `/v1/subscriptions/${subscription.id}`, {
      product_id: basic,
      proration_behavior: 'prorate',
    });
    expect(changed).toMatchObject({ product_id: basic, amount: 1000 });
  });
});
