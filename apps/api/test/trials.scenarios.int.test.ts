import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS, CARDS, checkoutFactory, confirmationToken } from './factories/checkouts.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';
import { installProcessorGuard, type ProcessorGuard } from './support/processor-guard.js';

/**
 * Free trials through the public API (docs/trials.md): each scenario starts a trial with a checkout,
 * moves its organization's test clock, and checks the subscription, every order and every payment to
 * the cent. One organization per scenario, so that each clock moves alone.
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

/** The harness clock starts on 2026-01-15 12:00 UTC: a 14-day trial ends on Jan 29. */
const TRIAL_END = '2026-01-29T12:00:00.000Z';

async function call(
  org: OrganizationFixture,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) {
  const response = await server.inject({ method, url, headers: bearer(org.token), ...(payload ? { payload } : {}) });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.statusCode === 204 ? null : json(response);
}

async function advanceTo(org: OrganizationFixture, at: string): Promise<void> {
  const clock = await call(org, 'GET', '/v1/test-clock/');
  const seconds = Math.ceil((new Date(at).getTime() - new Date(clock.now).getTime()) / 1000);
  if (seconds > 0) await call(org, 'POST', '/v1/test-clock/advance', { seconds });
}

async function trialProduct(org: OrganizationFixture, extra: Record<string, unknown> = {}, amount = 1200) {
  const bundle = await productFactory(server, org.organization.id, {
    recurring_interval: 'month',
    prices: [{ amount_type: 'fixed', price_amount: amount }],
    trial_interval: 'day',
    trial_interval_count: 14,
    ...extra,
  } as never);
  return bundle.product.id;
}

interface Started {
  org: OrganizationFixture;
  productId: string;
  subscription: Record<string, unknown> & { id: string; customer_id: string };
  checkout: Record<string, unknown>;
}

/** A buyer starts a trial: the checkout as the page reads it, then a confirm (with a card unless card-less). */
async function startTrial(
  options: {
    org?: OrganizationFixture;
    productId?: string;
    card?: string | null;
    email?: string;
    product?: Record<string, unknown>;
  } = {},
): Promise<Started> {
  const org = options.org ?? (await organizationFactory(server, { name: 'Trial scenario' }));
  const productId = options.productId ?? (await trialProduct(org, options.product));
  const created = await checkoutFactory(server, org.organization.id, [productId]);
  const card = options.card === undefined ? CARDS.visa : options.card;
  const response = await server.inject({
    method: 'POST',
    url: `/v1/checkouts/client/${created.client_secret}/confirm`,
    payload: {
      customer_email: options.email ?? `buyer-${created.id.slice(0, 8)}@example.com`,
      customer_name: 'Sam Buyer',
      customer_billing_address: ADDRESS,
      ...(card ? { confirmation_token_id: await confirmationToken(server, card) } : {}),
    },
  });
  if (response.statusCode !== 200) throw new Error(`confirm: ${response.statusCode} ${response.body}`);
  const checkout = json(response);
  const page = await call(org, 'GET', `/v1/subscriptions/?organization_id=${org.organization.id}&limit=100`);
  const subscription = page.items.find((s: { checkout_id: string }) => s.checkout_id === created.id);
  return { org, productId, subscription, checkout };
}

async function subscription(org: OrganizationFixture, id: string) {
  return call(org, 'GET', `/v1/subscriptions/${id}`);
}

async function orders(org: OrganizationFixture, customerId: string) {
  const page = await call(org, 'GET', `/v1/orders/?customer_id=${customerId}&sorting=created_at&limit=100`);
  return (page.items as { billing_reason: string; total_amount: number; status: string }[]).map((o) => [
    o.billing_reason,
    o.total_amount,
    o.status,
  ]);
}

async function payments(org: OrganizationFixture, customerId: string) {
  const page = await call(org, 'GET', `/v1/payments/?customer_id=${customerId}&sorting=created_at&limit=100`);
  return (page.items as { status: string; amount: number }[]).map((p) => [p.status, p.amount]);
}

async function events(org: OrganizationFixture, subscriptionId: string): Promise<string[]> {
  const rows = await server.runtime.database.db
    .selectFrom('webhook_events')
    .select(['type', 'payload'])
    .where('organization_id', '=', org.organization.id)
    .where('type', 'like', 'subscription.%')
    .orderBy('created_at')
    .execute();
  return rows
    .filter((row) => JSON.stringify(row.payload).includes(subscriptionId))
    .map((row) => `${row.type}:${(row.payload as { data: { status: string } }).data.status}`);
}

async function emails(org: OrganizationFixture, template: string) {
  return server.runtime.database.db
    .selectFrom('emails')
    .select(['to_addresses', 'subject', 'text_body'])
    .where('organization_id', '=', org.organization.id)
    .where('template', '=', template)
    .execute();
}

describe('trial → paid', () => {
  it('starts trialing with nothing charged, then charges the first period at the trial end and becomes active', async () => {
    const { org, subscription: started, checkout } = await startTrial();
    // The checkout: nothing due now, the card saved with a setup; the totals are the first period's.
    expect(checkout).toMatchObject({
      active_trial_interval: 'day',
      active_trial_interval_count: 14,
      trial_unavailable_reason: null,
      is_payment_required: false,
      is_payment_setup_required: true,
      total_amount: 1200,
    });
    expect(started).toMatchObject({
      status: 'trialing',
      trial_start: '2026-01-15T12:00:00.000Z',
      trial_end: TRIAL_END,
      current_period_start: '2026-01-15T12:00:00.000Z',
      current_period_end: TRIAL_END,
      amount: 1200,
    });
    expect(await orders(org, started.customer_id)).toEqual([]);
    expect(await payments(org, started.customer_id)).toEqual([]);

    await advanceTo(org, '2026-01-29T11:59:00Z');
    expect((await subscription(org, started.id)).status).toBe('trialing');
    await advanceTo(org, TRIAL_END);
    const active = await subscription(org, started.id);
    expect(active).toMatchObject({
      status: 'active',
      current_period_start: TRIAL_END,
      current_period_end: '2026-02-28T12:00:00.000Z',
      trial_end: TRIAL_END,
    });
    expect(await orders(org, started.customer_id)).toEqual([['subscription_cycle', 1200, 'paid']]);
    expect(await payments(org, started.customer_id)).toEqual([['succeeded', 1200]]);
    // Then renewals on the trial end's day of month.
    await advanceTo(org, '2026-02-28T12:00:00Z');
    expect(await orders(org, started.customer_id)).toEqual([
      ['subscription_cycle', 1200, 'paid'],
      ['subscription_cycle', 1200, 'paid'],
    ]);
    expect((await subscription(org, started.id)).current_period_end).toBe('2026-03-29T12:00:00.000Z');
    expect(await events(org, started.id)).toEqual([
      'subscription.created:trialing',
      'subscription.updated:active',
      'subscription.active:active',
      // The first paid period started at the trial end, then the month after.
      'subscription.cycled:active',
      'subscription.updated:active',
      'subscription.cycled:active',
    ]);
  });
});

describe('trial → payment fails', () => {
  it('goes past due and through dunning exactly like a failed renewal', async () => {
    // 4000 0000 0000 0341: saved by the setup, every charge declined.
    const { org, subscription: started } = await startTrial({ card: '4000000000000341' });
    expect(started.status).toBe('trialing');
    await advanceTo(org, TRIAL_END);
    expect((await subscription(org, started.id)).status).toBe('past_due');
    expect(await orders(org, started.customer_id)).toEqual([['subscription_cycle', 1200, 'pending']]);
    expect((await emails(org, 'payment_failed')).length).toBe(1);
    // Retries after 2, 5, 7 and 7 days; the last failure ends it.
    await advanceTo(org, '2026-01-31T12:00:00Z');
    await advanceTo(org, '2026-02-05T12:00:00Z');
    await advanceTo(org, '2026-02-12T12:00:00Z');
    expect((await subscription(org, started.id)).status).toBe('past_due');
    await advanceTo(org, '2026-02-19T12:00:00Z');
    const ended = await subscription(org, started.id);
    expect(ended.status).toBe('canceled');
    expect((await payments(org, started.customer_id)).map(([status]) => status)).toEqual([
      'failed',
      'failed',
      'failed',
      'failed',
      'failed',
    ]);
    expect((await payments(org, started.customer_id)).every(([, amount]) => amount === 1200)).toBe(true);
  });
});

describe('cancel and uncancel during a trial', () => {
  it('a trial canceled ends at the trial end without a charge', async () => {
    const { org, subscription: started } = await startTrial();
    await advanceTo(org, '2026-01-20T12:00:00Z');
    const canceled = await call(org, 'PATCH', `/v1/subscriptions/${started.id}`, { cancel_at_period_end: true });
    expect(canceled).toMatchObject({ status: 'trialing', cancel_at_period_end: true, ends_at: TRIAL_END });
    await advanceTo(org, TRIAL_END);
    const ended = await subscription(org, started.id);
    expect(ended).toMatchObject({ status: 'canceled', ended_at: TRIAL_END });
    expect(await orders(org, started.customer_id)).toEqual([]);
    expect(await payments(org, started.customer_id)).toEqual([]);
  });

  it('uncanceled, it converts at the trial end as if never canceled', async () => {
    const { org, subscription: started } = await startTrial();
    await call(org, 'PATCH', `/v1/subscriptions/${started.id}`, { cancel_at_period_end: true });
    const resumed = await call(org, 'PATCH', `/v1/subscriptions/${started.id}`, { cancel_at_period_end: false });
    expect(resumed).toMatchObject({ status: 'trialing', cancel_at_period_end: false, ends_at: null });
    await advanceTo(org, TRIAL_END);
    expect((await subscription(org, started.id)).status).toBe('active');
    expect(await payments(org, started.customer_id)).toEqual([['succeeded', 1200]]);
  });
});

describe('card-less trials', () => {
  it('ask for no card, and end at the trial end when none was added', async () => {
    const {
      org,
      subscription: started,
      checkout,
    } = await startTrial({
      card: null,
      product: { trial_requires_payment_method: false },
    });
    expect(checkout).toMatchObject({ is_payment_required: false, is_payment_setup_required: false });
    expect(started.status).toBe('trialing');
    await advanceTo(org, TRIAL_END);
    expect(await subscription(org, started.id)).toMatchObject({ status: 'canceled', ended_at: TRIAL_END });
    expect(await orders(org, started.customer_id)).toEqual([]);
    expect(await payments(org, started.customer_id)).toEqual([]);
  });

  it('convert when the customer adds a card in the portal', async () => {
    const { org, subscription: started } = await startTrial({
      card: null,
      product: { trial_requires_payment_method: false },
    });
    const session = await call(org, 'POST', '/v1/customer-sessions/', { customer_id: started.customer_id });
    const added = await server.inject({
      method: 'POST',
      url: '/v1/customer-portal/customers/me/payment-methods',
      headers: bearer(session.token),
      payload: {
        confirmation_token_id: await confirmationToken(server, CARDS.visa),
        set_default: true,
        return_url: '/portal/x/payment-methods',
      },
    });
    expect(added.statusCode).toBe(201);
    await advanceTo(org, TRIAL_END);
    expect((await subscription(org, started.id)).status).toBe('active');
    expect(await orders(org, started.customer_id)).toEqual([['subscription_cycle', 1200, 'paid']]);
    expect(await payments(org, started.customer_id)).toEqual([['succeeded', 1200]]);
  });
});

describe('one trial per customer and product', () => {
  it('a second checkout of the same buyer has no trial, says so, and charges at once', async () => {
    const first = await startTrial({ email: 'chain@example.com' });
    await call(first.org, 'PATCH', `/v1/subscriptions/${first.subscription.id}`, { revoke: true });
    const again = await checkoutFactory(server, first.org.organization.id, [first.productId]);
    const updated = await server.inject({
      method: 'PATCH',
      url: `/v1/checkouts/client/${again.client_secret}`,
      payload: { customer_email: 'CHAIN@example.com' },
    });
    expect(json(updated)).toMatchObject({
      active_trial_interval: null,
      trial_unavailable_reason: 'already_redeemed',
      is_payment_required: true,
    });
    const second = await startTrial({ org: first.org, productId: first.productId, email: 'Chain@Example.com' });
    expect(second.subscription.status).toBe('active');
    expect(second.subscription.trial_end).toBeNull();
    expect(await payments(first.org, second.subscription.customer_id)).toEqual([['succeeded', 1200]]);
  });

  // Two checkouts of the same buyer and product confirmed at the same instant: the trial is judged and
  // reserved under the buyer's lock, so one starts a trial and the other is judged without one.
  it.each([
    ['with a card', CARDS.visa, {}],
    ['card-less', null, { trial_requires_payment_method: false }],
  ] as const)('two checkouts confirmed at the same instant give one trial (%s)', async (_, card, product) => {
    const org = await organizationFactory(server, { name: 'Trial race' });
    // Several subscriptions allowed, so that only the trial rule stands between the two.
    await call(org, 'PATCH', `/v1/organizations/${org.organization.id}`, {
      subscription_settings: {
        allow_multiple_subscriptions: true,
        allow_customer_updates: true,
        proration_behavior: 'prorate',
      },
    });
    const productId = await trialProduct(org, product);
    const customer = await call(org, 'POST', '/v1/customers/', { email: 'race@example.com', name: 'Race' });
    const checkouts = await Promise.all([
      call(org, 'POST', '/v1/checkouts/', { products: [productId], customer_id: customer.id }),
      call(org, 'POST', '/v1/checkouts/', { products: [productId], customer_id: customer.id }),
    ]);
    expect(checkouts.map((c) => c.active_trial_interval_count)).toEqual([14, 14]);
    const tokens = card ? await Promise.all([confirmationToken(server, card), confirmationToken(server, card)]) : [];
    const answers = await Promise.all(
      checkouts.map((created, i) =>
        server.inject({
          method: 'POST',
          url: `/v1/checkouts/client/${created.client_secret}/confirm`,
          payload: {
            customer_name: 'Race',
            customer_billing_address: ADDRESS,
            ...(tokens[i] ? { confirmation_token_id: tokens[i] } : {}),
          },
        }),
      ),
    );
    const page = await call(org, 'GET', `/v1/subscriptions/?organization_id=${org.organization.id}&limit=100`);
    const statuses = (page.items as { status: string }[]).map((s) => s.status).sort();
    // With a card the second is charged at once; card-less it needs a card now (422), and starts nothing.
    expect(statuses).toEqual(card ? ['active', 'trialing'] : ['trialing']);
    expect(answers.map((a) => a.statusCode).sort()).toEqual(card ? [200, 200] : [200, 422]);
    if (!card) {
      const refused = answers.find((a) => a.statusCode === 422)!;
      expect(json(refused).detail[0].loc).toEqual(['body', 'confirmation_token_id']);
    }
    // The one without a trial paid its first period now (a setup alone would leave it unpaid).
    expect(await payments(org, customer.id)).toEqual(card ? [['succeeded', 1200]] : []);
    const redemptions = await server.runtime.database.db
      .selectFrom('trial_redemptions')
      .select('customer_id')
      .where('product_id', '=', productId)
      .execute();
    expect(redemptions).toEqual([{ customer_id: customer.id }]);
  });

  it('a declined card gives the reserved trial back: the next attempt starts it', async () => {
    const org = await organizationFactory(server, { name: 'Trial declined' });
    const productId = await trialProduct(org);
    const created = await checkoutFactory(server, org.organization.id, [productId]);
    const attempt = async (card: string) =>
      server.inject({
        method: 'POST',
        url: `/v1/checkouts/client/${created.client_secret}/confirm`,
        payload: {
          customer_email: 'declined@example.com',
          customer_name: 'Sam Buyer',
          customer_billing_address: ADDRESS,
          confirmation_token_id: await confirmationToken(server, card),
        },
      });
    expect((await attempt(CARDS.declined)).statusCode).toBe(400);
    const reserved = () =>
      server.runtime.database.db
        .selectFrom('trial_redemptions')
        .select(['checkout_id', 'subscription_id'])
        .where('product_id', '=', productId)
        .execute();
    expect(await reserved()).toEqual([]);
    const confirmed = await attempt(CARDS.visa);
    expect(confirmed.statusCode).toBe(200);
    expect(json(confirmed)).toMatchObject({ active_trial_interval: 'day', trial_unavailable_reason: null });
    const page = await call(org, 'GET', `/v1/subscriptions/?organization_id=${org.organization.id}&limit=100`);
    expect(page.items.map((s: { status: string }) => s.status)).toEqual(['trialing']);
    expect(await reserved()).toEqual([{ checkout_id: created.id, subscription_id: page.items[0].id }]);
  });

  it('a product that allows it gives a trial again', async () => {
    const first = await startTrial({ email: 'again@example.com', product: { trial_once_per_customer: false } });
    await call(first.org, 'PATCH', `/v1/subscriptions/${first.subscription.id}`, { revoke: true });
    const second = await startTrial({ org: first.org, productId: first.productId, email: 'again@example.com' });
    expect(second.subscription.status).toBe('trialing');
  });
});

describe('trial-ending reminder', () => {
  it('is emailed once, 3 days before the end', async () => {
    const { org, subscription: started } = await startTrial();
    await advanceTo(org, '2026-01-26T11:00:00Z');
    expect(await emails(org, 'trial_ending')).toEqual([]);
    await advanceTo(org, '2026-01-26T12:00:00Z');
    await advanceTo(org, '2026-01-27T12:00:00Z');
    await advanceTo(org, '2026-01-28T12:00:00Z');
    const sent = await emails(org, 'trial_ending');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toContain('trial ends on January 29, 2026');
    expect(sent[0]!.text_body).toContain('charged $12.00');
    await advanceTo(org, TRIAL_END);
    expect(await emails(org, 'trial_ending')).toHaveLength(1);
    expect((await subscription(org, started.id)).status).toBe('active');
  });
});

describe('plan change during a trial', () => {
  it('continues the trial on the new plan, charges nothing now, and the new price at the end', async () => {
    const { org, subscription: started } = await startTrial();
    const pro = await trialProduct(org, {}, 3000);
    await advanceTo(org, '2026-01-20T12:00:00Z');
    const preview = await call(org, 'POST', `/v1/subscriptions/${started.id}/preview`, {
      product_id: pro,
      proration_behavior: 'invoice',
    });
    expect(preview.immediate).toBeNull();
    expect(preview.next_renewal).toMatchObject({ total_amount: 3000, renews_at: TRIAL_END });
    const changed = await call(org, 'PATCH', `/v1/subscriptions/${started.id}`, {
      product_id: pro,
      proration_behavior: 'invoice',
    });
    expect(changed).toMatchObject({ status: 'trialing', amount: 3000, current_period_end: TRIAL_END });
    expect(await orders(org, started.customer_id)).toEqual([]);
    await advanceTo(org, TRIAL_END);
    expect(await orders(org, started.customer_id)).toEqual([['subscription_cycle', 3000, 'paid']]);
    expect(await payments(org, started.customer_id)).toEqual([['succeeded', 3000]]);
  });
});

describe('plan change to another interval during a trial (found by the billing grid)', () => {
  it('keeps the discount starting with the first paid period: a once discount pays for it', async () => {
    const org = await organizationFactory(server, { name: 'Trial interval change' });
    const productId = await trialProduct(org);
    const yearly = await productFactory(server, org.organization.id, {
      recurring_interval: 'year',
      prices: [{ amount_type: 'fixed', price_amount: 12_000 }],
    });
    const discount = await call(org, 'POST', '/v1/discounts/', {
      name: 'Launch',
      type: 'fixed',
      duration: 'once',
      amount: 2500,
      currency: 'usd',
    });
    const created = await checkoutFactory(server, org.organization.id, [productId], { discount_id: discount.id });
    const confirmed = await server.inject({
      method: 'POST',
      url: `/v1/checkouts/client/${created.client_secret}/confirm`,
      payload: {
        customer_email: 'interval@example.com',
        customer_name: 'Sam Buyer',
        customer_billing_address: ADDRESS,
        confirmation_token_id: await confirmationToken(server, CARDS.visa),
      },
    });
    expect(confirmed.statusCode).toBe(200);
    const page = await call(org, 'GET', `/v1/subscriptions/?organization_id=${org.organization.id}&limit=100`);
    const started = page.items[0];
    expect(started.status).toBe('trialing');
    await advanceTo(org, '2026-01-20T12:00:00Z');
    const changed = await call(org, 'PATCH', `/v1/subscriptions/${started.id}`, {
      product_id: yearly.product.id,
      proration_behavior: 'prorate',
    });
    expect(changed).toMatchObject({ status: 'trialing', current_period_end: TRIAL_END, discount_id: discount.id });
    await advanceTo(org, TRIAL_END);
    // The yearly plan's first period, from the trial end, with the once discount it was bought with.
    expect(await orders(org, started.customer_id)).toEqual([['subscription_cycle', 12_000 - 2500, 'paid']]);
    expect(await subscription(org, started.id)).toMatchObject({
      status: 'active',
      current_period_start: TRIAL_END,
      current_period_end: '2027-01-29T12:00:00.000Z',
    });
  });
});

describe('metrics', () => {
  it('count a trial from its first paid period: neither active nor MRR while trialing', async () => {
    const { org } = await startTrial();
    const canceled = await startTrial({ org, productId: undefined });
    await call(org, 'PATCH', `/v1/subscriptions/${canceled.subscription.id}`, { cancel_at_period_end: true });
    await advanceTo(org, TRIAL_END);
    await advanceTo(org, '2026-02-02T12:00:00Z');
    const metrics = await call(
      org,
      'GET',
      `/v1/metrics/?start_date=2026-01-15&end_date=2026-01-31&interval=day&organization_id=${org.organization.id}`,
    );
    const day = (date: string) =>
      metrics.periods.find((p: { timestamp: string }) => p.timestamp.startsWith(date)) as Record<string, number>;
    expect(day('2026-01-20')).toMatchObject({
      active_subscriptions: 0,
      monthly_recurring_revenue: 0,
      new_subscriptions: 0,
    });
    // The converted trial is new on the day its first period starts; the canceled one never counts.
    expect(day('2026-01-29')).toMatchObject({
      active_subscriptions: 1,
      monthly_recurring_revenue: 1200,
      new_subscriptions: 1,
    });
    expect(day('2026-01-29').churned_subscriptions).toBe(0);
    expect(day('2026-01-29').new_subscriptions_revenue).toBe(1200);
  });
});

describe('bad trial settings', () => {
  it.each([
    ['a trial of 0', { trial_interval: 'day', trial_interval_count: 0 }, 'trial_interval_count'],
    ['a trial of 10 years', { trial_interval: 'year', trial_interval_count: 10 }, 'trial_interval_count'],
    ['25 months', { trial_interval: 'month', trial_interval_count: 25 }, 'trial_interval_count'],
    ['an interval without a count', { trial_interval: 'week' }, 'trial_interval_count'],
    ['an unknown interval', { trial_interval: 'fortnight', trial_interval_count: 1 }, 'trial_interval'],
  ])('refuses %s with a 422 and creates nothing', async (_name, trial, field) => {
    const org = await organizationFactory(server, { name: 'Bad trial' });
    const response = await server.inject({
      method: 'POST',
      url: '/v1/products/',
      headers: bearer(org.token),
      payload: {
        name: 'Plan',
        recurring_interval: 'month',
        prices: [{ amount_type: 'fixed', price_amount: 1200 }],
        ...trial,
      },
    });
    expect(response.statusCode).toBe(422);
    expect(JSON.stringify(json(response).detail)).toContain(field);
    expect((await call(org, 'GET', '/v1/products/')).items).toEqual([]);
  });

  it('refuses a trial on a one-time product, and a checkout trial of one-time products', async () => {
    const org = await organizationFactory(server, { name: 'Bad trial' });
    const product = await server.inject({
      method: 'POST',
      url: '/v1/products/',
      headers: bearer(org.token),
      payload: {
        name: 'Ebook',
        recurring_interval: null,
        prices: [{ amount_type: 'fixed', price_amount: 900 }],
        trial_interval: 'day',
        trial_interval_count: 7,
      },
    });
    expect(product.statusCode).toBe(422);
    const ebook = await productFactory(server, org.organization.id, {
      recurring_interval: null,
      prices: [{ amount_type: 'fixed', price_amount: 900 }],
    });
    const checkout = await server.inject({
      method: 'POST',
      url: '/v1/checkouts/',
      headers: bearer(org.token),
      payload: { products: [ebook.product.id], trial_interval: 'day', trial_interval_count: 7 },
    });
    expect(checkout.statusCode).toBe(422);
  });

  it('a checkout link overrides the product’s trial; a product update can remove it', async () => {
    const org = await organizationFactory(server, { name: 'Link trial' });
    const productId = await trialProduct(org);
    const link = await call(org, 'POST', '/v1/checkout-links/', {
      products: [productId],
      trial_interval: 'month',
      trial_interval_count: 1,
    });
    expect(link).toMatchObject({ trial_interval: 'month', trial_interval_count: 1 });
    const opened = await server.inject({ method: 'GET', url: `/v1/checkout-links/${link.client_secret}/redirect` });
    const secret = new URL(opened.headers.location as string, 'http://x').pathname.split('/').pop()!;
    const page = json(await server.inject({ method: 'GET', url: `/v1/checkouts/client/${secret}` }));
    expect(page).toMatchObject({ active_trial_interval: 'month', active_trial_interval_count: 1 });
    const removed = await call(org, 'PATCH', `/v1/products/${productId}`, { trial_interval: null });
    expect(removed).toMatchObject({ trial_interval: null, trial_interval_count: null });
  });
});
