import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { discountFactory } from './factories/discounts.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { subscriptionFactory } from './factories/subscriptions.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';
import { installProcessorGuard, type ProcessorGuard } from './support/processor-guard.js';

/**
 * The preview of a plan or discount change (`POST /v1/subscriptions/{id}/preview` and the portal's):
 * each scenario previews a change, makes it, moves the organization's test clock past the renewal, and
 * checks that the orders billed are the ones previewed, to the cent, and that the preview changed
 * nothing. One organization per scenario, so that each clock moves alone.
 */
let server: TestServer;
let guard: ProcessorGuard;
beforeAll(async () => {
  guard = installProcessorGuard();
  server = await startTestServer();
});
afterAll(async () => {
  guard?.uninstall();
  await server?.stop();
});
afterEach(() => {
  expect(guard.violations).toEqual([]);
});

const HOUR = 3600;
const DAY = 24 * HOUR;

async function call(
  org: OrganizationFixture,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) {
  const response = await server.inject({ method, url, headers: bearer(org.token), ...(payload ? { payload } : {}) });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return json(response);
}

async function advance(org: OrganizationFixture, seconds: number): Promise<void> {
  await call(org, 'POST', '/v1/test-clock/advance', { seconds });
}

async function advanceTo(org: OrganizationFixture, at: string | Date): Promise<void> {
  const clock = await call(org, 'GET', '/v1/test-clock/');
  const seconds = Math.ceil((new Date(at).getTime() - new Date(clock.now).getTime()) / 1000);
  if (seconds > 0) await advance(org, seconds);
}

async function product(org: OrganizationFixture, amount: number, interval: 'month' | 'year' = 'month') {
  const bundle = await productFactory(server, org.organization.id, {
    recurring_interval: interval,
    prices: [{ amount_type: 'fixed', price_amount: amount }],
  });
  return bundle.product.id as string;
}

interface OrderLike {
  billing_reason: string;
  subtotal_amount: number;
  discount_amount: number;
  tax_amount: number;
  total_amount: number;
  applied_balance_amount: number;
  items: { label: string; amount: number; tax_amount: number; proration: boolean }[];
}

/** What an order and its preview must agree on (an order's entries come in no particular order). */
function money(order: OrderLike) {
  return {
    billing_reason: order.billing_reason,
    subtotal_amount: order.subtotal_amount,
    discount_amount: order.discount_amount,
    tax_amount: order.tax_amount,
    total_amount: order.total_amount,
    applied_balance_amount: order.applied_balance_amount,
    items: order.items
      .map(({ label, amount, tax_amount, proration }) => ({ label, amount, tax_amount, proration }))
      .sort((a, b) => a.label.localeCompare(b.label) || a.amount - b.amount),
  };
}

async function orders(org: OrganizationFixture, customerId: string): Promise<OrderLike[]> {
  const page = await call(org, 'GET', `/v1/orders/?customer_id=${customerId}&sorting=created_at&limit=100`);
  return page.items;
}

/** Everything a preview must leave as it was: the subscription, its orders, the customer's balance. */
async function state(org: OrganizationFixture, subscriptionId: string, customerId: string) {
  const [subscription, list, customer, entries] = await Promise.all([
    call(org, 'GET', `/v1/subscriptions/${subscriptionId}`),
    orders(org, customerId),
    call(org, 'GET', `/v1/customers/${customerId}`),
    server.runtime.database.db
      .selectFrom('subscription_billing_entries')
      .select(['id'])
      .where('subscription_id', '=', subscriptionId)
      .execute(),
  ]);
  return { subscription, orders: list.length, balance: customer.credit_balance, entries: entries.length };
}

/**
 * Previews `change`, makes it, and moves the clock past the next renewal: the order billed at once
 * (when there is one) and the renewal's order are the ones previewed.
 */
async function previewThenChange(
  org: OrganizationFixture,
  subscription: { id: string; customer_id: string },
  change: Record<string, unknown>,
) {
  const before = await state(org, subscription.id, subscription.customer_id);
  const preview = await call(org, 'POST', `/v1/subscriptions/${subscription.id}/preview`, change);
  expect(await state(org, subscription.id, subscription.customer_id)).toEqual(before);

  const updated = await call(org, 'PATCH', `/v1/subscriptions/${subscription.id}`, change);
  expect(updated.amount).toBe(preview.amount);
  expect(updated.product_id).toBe(preview.product_id);
  expect(updated.recurring_interval).toBe(preview.recurring_interval);
  let list = await orders(org, subscription.customer_id);
  if (preview.immediate) {
    expect(list).toHaveLength(before.orders + 1);
    expect(money(list.at(-1)!)).toEqual(money(preview.immediate));
  } else {
    expect(list).toHaveLength(before.orders);
  }
  expect(updated.current_period_end).toBe(preview.next_renewal.renews_at);
  await advanceTo(org, preview.next_renewal.renews_at);
  list = await orders(org, subscription.customer_id);
  expect(money(list.at(-1)!)).toEqual(money(preview.next_renewal));
  return preview;
}

describe('a plan change previewed, then made', () => {
  it('upgrade, prorate: nothing now; the renewal carries the proration', async () => {
    const org = await organizationFactory(server);
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await product(org, 1000),
    });
    const pro = await product(org, 3000);
    await advance(org, 10 * DAY);
    const preview = await previewThenChange(org, subscription, { product_id: pro, proration_behavior: 'prorate' });
    expect(preview.immediate).toBeNull();
    // 21 of 31 days left: −1000 × 21/31 = −677, +3000 × 21/31 = 2032; the period 3000.
    expect(preview.next_renewal.items.map((item: { amount: number }) => item.amount).sort()).toEqual([
      -677, 2032, 3000,
    ]);
    expect(preview.next_renewal.total_amount).toBe(4355);
  });

  it('upgrade, invoice: the proration is billed now; the renewal is the new price', async () => {
    const org = await organizationFactory(server);
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await product(org, 1000),
    });
    const pro = await product(org, 3000);
    await advance(org, 10 * DAY);
    const preview = await previewThenChange(org, subscription, { product_id: pro, proration_behavior: 'invoice' });
    expect(preview.immediate.total_amount).toBe(1355);
    expect(preview.immediate.due_amount).toBe(1355);
    expect(preview.next_renewal.total_amount).toBe(3000);
  });

  it('downgrade, invoice: the credit goes to the balance and pays the renewal first', async () => {
    const org = await organizationFactory(server);
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await product(org, 5000),
    });
    const basic = await product(org, 1000);
    await advance(org, HOUR);
    const preview = await previewThenChange(org, subscription, { product_id: basic, proration_behavior: 'invoice' });
    expect(preview.immediate.total_amount).toBe(0);
    expect(preview.next_renewal.total_amount).toBe(1000);
    // The credit (4993 − 999 = 3994) pays the whole renewal.
    expect(preview.next_renewal.applied_balance_amount).toBe(1000);
    expect(preview.next_renewal.due_amount).toBe(0);
  });

  it('month to year: the unused month credited, a year billed now', async () => {
    const org = await organizationFactory(server);
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await product(org, 1000),
    });
    const yearly = await product(org, 10_000, 'year');
    await advance(org, 10 * DAY);
    const preview = await previewThenChange(org, subscription, { product_id: yearly });
    expect(preview.recurring_interval).toBe('year');
    expect(preview.immediate.total_amount).toBe(10_000 - 677);
    expect(preview.next_renewal.total_amount).toBe(10_000);
  });

  it('year to month: the unused year credited to the balance, which pays the first months', async () => {
    const org = await organizationFactory(server);
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await product(org, 12_000, 'year'),
    });
    const monthly = await product(org, 1500);
    await advance(org, 30 * DAY);
    const preview = await previewThenChange(org, subscription, { product_id: monthly });
    expect(preview.recurring_interval).toBe('month');
    expect(preview.immediate.due_amount).toBe(0);
    expect(preview.next_renewal.due_amount).toBe(0);
  });

  it('with a once discount: the proration at the discount, the renewal at full price', async () => {
    const org = await organizationFactory(server);
    const discount = await discountFactory(server, org.organization.id, { duration: 'once', basis_points: 2500 });
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await product(org, 1200),
      discountId: discount.id,
    });
    const pro = await product(org, 2400);
    await advance(org, 10 * DAY);
    const preview = await previewThenChange(org, subscription, { product_id: pro, proration_behavior: 'invoice' });
    // 21 of 31 days at 25 % off: 1800 × 21/31 = 1219, less 900 × 21/31 = 610.
    expect(preview.immediate.total_amount).toBe(1219 - 610);
    expect(preview.next_renewal.discount_amount).toBe(0);
    expect(preview.next_renewal.total_amount).toBe(2400);
  });

  it('with a repeating discount: the renewal still at the discount', async () => {
    const org = await organizationFactory(server);
    const discount = await discountFactory(server, org.organization.id, {
      duration: 'repeating',
      duration_in_months: 3,
      basis_points: 5000,
    });
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await product(org, 1000),
      discountId: discount.id,
    });
    const pro = await product(org, 2000);
    await advance(org, 10 * DAY);
    const preview = await previewThenChange(org, subscription, { product_id: pro, proration_behavior: 'prorate' });
    expect(preview.amount).toBe(1000);
    expect(preview.next_renewal.discount_amount).toBe(1000);
  });

  it('with tax: each order taxed as billed', async () => {
    const org = await organizationFactory(server);
    await call(org, 'PATCH', '/v1/tax-settings/', { home_country: 'FR' });
    await call(org, 'POST', '/v1/tax-registrations/', { country: 'FR', rate_basis_points: 2000, label: 'VAT' });
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await product(org, 1000),
    });
    const pro = await product(org, 3000);
    await advance(org, 10 * DAY);
    const preview = await previewThenChange(org, subscription, { product_id: pro, proration_behavior: 'invoice' });
    expect(preview.immediate.tax_amount).toBe(271);
    expect(preview.immediate.total_amount).toBe(1355 + 271);
    expect(preview.next_renewal.tax_amount).toBe(600);
    expect(preview.next_renewal.total_amount).toBe(3600);
  });

  it('a discount set: the renewal at the discount', async () => {
    const org = await organizationFactory(server);
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await product(org, 1000),
    });
    const discount = await discountFactory(server, org.organization.id, { duration: 'once', basis_points: 5000 });
    await advance(org, 10 * DAY);
    const preview = await previewThenChange(org, subscription, { discount_id: discount.id });
    expect(preview.immediate).toBeNull();
    expect(preview.next_renewal.total_amount).toBe(500);
  });
});

describe('the next renewal as it stands (an empty body)', () => {
  it('is the renewal billed, with the proration waiting for it', async () => {
    const org = await organizationFactory(server);
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await product(org, 1000),
    });
    const pro = await product(org, 3000);
    await advance(org, 10 * DAY);
    await call(org, 'PATCH', `/v1/subscriptions/${subscription.id}`, {
      product_id: pro,
      proration_behavior: 'prorate',
    });
    const preview = await call(org, 'POST', `/v1/subscriptions/${subscription.id}/preview`, {});
    expect(preview.immediate).toBeNull();
    expect(preview.next_renewal.total_amount).toBe(4355);
    await advanceTo(org, preview.next_renewal.renews_at);
    const list = await orders(org, subscription.customer_id);
    expect(money(list.at(-1)!)).toEqual(money(preview.next_renewal));
  });
});

describe('POST /v1/subscriptions/{id}/preview refuses', () => {
  it('401 without a token, 403 without the scope, 404 for another organization, 422 for a bad body', async () => {
    const org = await organizationFactory(server);
    const other = await organizationFactory(server);
    const subscription = await subscriptionFactory(server, org.organization.id);
    const pro = await product(org, 3000);
    const url = `/v1/subscriptions/${subscription.id}/preview`;
    const post = (headers: Record<string, string>, payload: object) =>
      server.inject({ method: 'POST', url, headers, payload });
    expect((await post({}, { product_id: pro })).statusCode).toBe(401);
    const unrelated = await tokenFactory(server, org.organization.id, ['products:read']);
    expect((await post(bearer(unrelated), { product_id: pro })).statusCode).toBe(403);
    const readOnly = await tokenFactory(server, org.organization.id, ['subscriptions:read']);
    expect((await post(bearer(readOnly), { product_id: pro })).statusCode).toBe(200);
    expect((await post(bearer(other.token), { product_id: pro })).statusCode).toBe(404);
    const before = await state(org, subscription.id, subscription.customer_id);
    const bad = await post(bearer(org.token), { product_id: 'nope' });
    expect(bad.statusCode).toBe(422);
    const foreignProduct = await product(other, 3000);
    const refused = await post(bearer(org.token), { product_id: foreignProduct });
    expect(refused.statusCode).toBe(422);
    expect(json(refused).detail[0].loc).toEqual(['body', 'product_id']);
    expect(await state(org, subscription.id, subscription.customer_id)).toEqual(before);
  });
});

describe('POST /v1/customer-portal/subscriptions/{id}/preview', () => {
  async function sessionFor(org: OrganizationFixture, customerId: string): Promise<string> {
    return (await call(org, 'POST', '/v1/customer-sessions/', { customer_id: customerId })).token;
  }

  it("previews the customer's plan change as the seller's preview does; refuses others'", async () => {
    const org = await organizationFactory(server);
    const subscription = await subscriptionFactory(server, org.organization.id, {
      productId: await product(org, 1000),
    });
    const pro = await product(org, 3000);
    await advance(org, 10 * DAY);
    const token = await sessionFor(org, subscription.customer_id);
    const url = `/v1/customer-portal/subscriptions/${subscription.id}/preview`;
    const response = await server.inject({ method: 'POST', url, headers: bearer(token), payload: { product_id: pro } });
    expect(response.statusCode, response.body).toBe(200);
    const seller = await call(org, 'POST', `/v1/subscriptions/${subscription.id}/preview`, { product_id: pro });
    expect(json(response)).toEqual(seller);
    const renewal = await server.inject({ method: 'POST', url, headers: bearer(token), payload: {} });
    expect(json(renewal).next_renewal.total_amount).toBe(1000);

    expect((await server.inject({ method: 'POST', url, payload: { product_id: pro } })).statusCode).toBe(401);
    const someoneElse = await subscriptionFactory(server, org.organization.id);
    const otherToken = await sessionFor(org, someoneElse.customer_id);
    const foreign = await server.inject({
      method: 'POST',
      url,
      headers: bearer(otherToken),
      payload: { product_id: pro },
    });
    expect(foreign.statusCode).toBe(404);
    const bad = await server.inject({ method: 'POST', url, headers: bearer(token), payload: { product_id: 1 } });
    expect(bad.statusCode).toBe(422);
  });
});
