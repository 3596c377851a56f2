import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../src/platform/clock.js';
import { CARDS, confirmationToken } from './factories/checkouts.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { subscriptionFactory } from './factories/subscriptions.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';
import { installProcessorGuard, type ProcessorGuard } from './support/processor-guard.js';

/**
 * The customer's saved payment methods in the portal: list, add (simulated confirmation tokens, 3-D
 * Secure), default, remove; the renewals that charge the default; a past-due subscription recovered by
 * a new default card. Every processor call is made with no database transaction open.
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

const PATH = '/v1/customer-portal/customers/me/payment-methods';
const THREE_D_SECURE = '4000002500003155';
const MASTERCARD = '5555555555554444';

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

const portal = (method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, payload?: object) =>
  server.inject({ method, url, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });

async function seller(method: 'GET' | 'POST' | 'PATCH', org: OrganizationFixture, url: string, payload?: object) {
  const response = await server.inject({ method, url, headers: bearer(org.token), ...(payload ? { payload } : {}) });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return json(response);
}

interface Listed {
  id: string;
  type: string;
  default: boolean;
  card?: { brand: string; last4: string; exp_month: number; exp_year: number };
}

async function list(token: string): Promise<Listed[]> {
  const response = await portal('GET', `${PATH}?limit=100`, token);
  expect(response.statusCode).toBe(200);
  return json(response).items;
}

async function add(token: string, number: string, setDefault = true) {
  // Methods are listed newest first: each is added a second after the one before.
  (server.clock as ManualClock).advance(1000);
  return portal('POST', PATH, token, {
    confirmation_token_id: await confirmationToken(server, number),
    set_default: setDefault,
    return_url: '/portal/acme/payment-methods',
  });
}

/** A subscriber (card 4242, $10/month) and a portal session. */
async function subscriber(org: OrganizationFixture, price = 1000) {
  const subscription = await subscriptionFactory(server, org.organization.id, { price });
  const token = await sessionFor(org, subscription.customer_id);
  return { subscription, token };
}

async function billedMethod(subscriptionId: string): Promise<string | null> {
  const row = await server.runtime.database.db
    .selectFrom('subscriptions')
    .select('payment_method_id')
    .where('id', '=', subscriptionId)
    .executeTakeFirstOrThrow();
  return row.payment_method_id;
}

async function processorIdOf(methodId: string): Promise<string | null> {
  const row = await server.runtime.database.db
    .selectFrom('customer_payment_methods')
    .select('processor_payment_method_id')
    .where('id', '=', methodId)
    .executeTakeFirstOrThrow();
  return row.processor_payment_method_id;
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('auth matrix', () => {
  let acme: OrganizationFixture;
  let other: OrganizationFixture;
  let token: string;
  let methodId: string;
  beforeAll(async () => {
    acme = await organizationFactory(server, { name: 'Acme' });
    other = await organizationFactory(server, { name: 'Other' });
    ({ token } = await subscriber(acme));
    methodId = (await list(token))[0]!.id;
  });

  const routes = () =>
    [
      ['GET', PATH, undefined],
      ['GET', `${PATH}/processor`, undefined],
      ['POST', PATH, { confirmation_token_id: 'x', set_default: true, return_url: '/' }],
      ['POST', `${PATH}/${methodId}/confirm`, undefined],
      ['POST', `${PATH}/${methodId}/default`, undefined],
      ['DELETE', `${PATH}/${methodId}`, undefined],
    ] as const;

  it('answers 401 without a token, and 401 invalid_token to a seller token', async () => {
    for (const [method, url, body] of routes()) {
      const anonymous = await portal(method, url, undefined, body);
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      expect(json(anonymous)).toEqual({ error: 'Unauthorized', detail: 'Unauthorized' });
      const sellerToken = await portal(method, url, acme.token, body);
      expect(sellerToken.statusCode, `${method} ${url}`).toBe(401);
      expect(json(sellerToken).error).toBe('invalid_token');
    }
  });

  it("answers 404 for another customer's method, of the same organization or another, and changes nothing", async () => {
    const neighbour = (await subscriber(acme)).token;
    const stranger = (await subscriber(other)).token;
    for (const otherToken of [neighbour, stranger]) {
      for (const [method, url] of routes().slice(3)) {
        const response = await portal(method, url, otherToken);
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(json(response)).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
      }
      expect((await list(otherToken)).map((m) => m.id)).not.toContain(methodId);
    }
    expect((await list(token)).map((m) => m.id)).toEqual([methodId]);
  });

  it('answers 422 for a bad body or id, and saves nothing', async () => {
    for (const body of [
      {},
      { confirmation_token_id: 'ctoken', set_default: 'yes', return_url: '/' },
      { confirmation_token_id: '', set_default: true, return_url: '/' },
      { confirmation_token_id: 'ctoken', set_default: true },
    ]) {
      const response = await portal('POST', PATH, token, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(json(response).detail[0].loc[0]).toBe('body');
    }
    for (const [method, url] of [
      ['DELETE', `${PATH}/not-a-uuid`],
      ['POST', `${PATH}/not-a-uuid/default`],
      ['GET', `${PATH}?limit=0`],
      ['GET', `${PATH}?page=-1`],
    ] as const) {
      expect((await portal(method, url, token)).statusCode, url).toBe(422);
    }
    expect(await list(token)).toHaveLength(1);
  });
});

describe('list', () => {
  it('shows the card a checkout saved, as the default, and pages', async () => {
    const org = await organizationFactory(server);
    const { subscription, token } = await subscriber(org);
    const methods = await list(token);
    expect(methods).toEqual([
      {
        id: expect.any(String),
        type: 'card',
        created_at: expect.any(String),
        default: true,
        card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034, wallet: null },
      },
    ]);
    expect(await billedMethod(subscription.id)).toBe(await processorIdOf(methods[0]!.id));
    expect(await add(token, MASTERCARD, false)).toHaveProperty('statusCode', 201);
    const page = json(await portal('GET', `${PATH}?limit=1&page=2`, token));
    expect(page.pagination).toEqual({ total_count: 2, max_page: 2 });
    expect(page.items.map((m: Listed) => m.card?.last4)).toEqual(['4242']);
  });
});

describe('processor', () => {
  it('tells the page which card form to show: the simulated processor, without a publishable key', async () => {
    const org = await organizationFactory(server);
    const { token } = await subscriber(org);
    const response = await portal('GET', `${PATH}/processor`, token);
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ processor: 'simulated', publishable_key: null });
  });
});

describe('add', () => {
  it('saves a card; set_default makes it the default the subscriptions are billed to', async () => {
    const org = await organizationFactory(server);
    const { subscription, token } = await subscriber(org);
    const first = await add(token, MASTERCARD, false);
    expect(first.statusCode).toBe(201);
    expect(json(first)).toMatchObject({ status: 'succeeded', type: 'card', default: false });
    expect(json(first).card).toMatchObject({ brand: 'mastercard', last4: '4444' });
    const before = await billedMethod(subscription.id);
    expect(before).not.toBe(await processorIdOf(json(first).id));

    const second = await add(token, CARDS.visa, true);
    expect(json(second)).toMatchObject({ status: 'succeeded', default: true, card: { last4: '4242' } });
    const methods = await list(token);
    expect(methods.map((m) => [m.card?.last4, m.default])).toEqual([
      ['4242', true],
      ['4444', false],
      ['4242', false],
    ]);
    expect(await billedMethod(subscription.id)).toBe(await processorIdOf(json(second).id));
  });

  it('refuses a declined card with PaymentError and lists nothing new', async () => {
    const org = await organizationFactory(server);
    const { token } = await subscriber(org);
    const response = await add(token, CARDS.declined);
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({
      error: 'PaymentError',
      detail:
        'The payment method could not be saved: Your card was declined. Please try again with a different payment method.',
    });
    expect(await list(token)).toHaveLength(1);
  });

  it('refuses a confirmation token used already', async () => {
    const org = await organizationFactory(server);
    const { token } = await subscriber(org);
    const tokenId = await confirmationToken(server, CARDS.visa);
    const body = { confirmation_token_id: tokenId, set_default: false, return_url: '/' };
    expect((await portal('POST', PATH, token, body)).statusCode).toBe(201);
    expect((await portal('POST', PATH, token, body)).statusCode).toBe(400);
    expect(await list(token)).toHaveLength(2);
  });

  it('waits for 3-D Secure: requires_action with a client secret, then confirm saves it', async () => {
    const org = await organizationFactory(server);
    const { subscription, token } = await subscriber(org);
    const started = await add(token, THREE_D_SECURE, true);
    expect(started.statusCode).toBe(201);
    const pending = json(started);
    expect(pending).toMatchObject({ status: 'requires_action', default: false, client_secret: expect.any(String) });
    expect(await list(token)).toHaveLength(1);
    // Asked again before the customer authenticated: still waiting.
    const early = await portal('POST', `${PATH}/${pending.id}/confirm`, token);
    expect(json(early)).toMatchObject({ status: 'requires_action', client_secret: pending.client_secret });

    const authenticated = await server.inject({
      method: 'POST',
      url: '/simulated-processor/payment-intents/authenticate',
      payload: { client_secret: pending.client_secret, approve: true },
    });
    expect(json(authenticated)).toEqual({ status: 'succeeded' });
    const confirmed = await portal('POST', `${PATH}/${pending.id}/confirm`, token);
    expect(confirmed.statusCode).toBe(200);
    expect(json(confirmed)).toMatchObject({
      id: pending.id,
      status: 'succeeded',
      default: true,
      card: { last4: '3155' },
    });
    expect((await list(token)).map((m) => [m.card?.last4, m.default])).toEqual([
      ['3155', true],
      ['4242', false],
    ]);
    expect(await billedMethod(subscription.id)).toBe(await processorIdOf(pending.id));
    // Confirmed twice: the same answer.
    expect(json(await portal('POST', `${PATH}/${pending.id}/confirm`, token)).status).toBe('succeeded');
  });

  it('records a failed 3-D Secure authentication as a refusal', async () => {
    const org = await organizationFactory(server);
    const { token } = await subscriber(org);
    const pending = json(await add(token, THREE_D_SECURE, true));
    await server.inject({
      method: 'POST',
      url: '/simulated-processor/payment-intents/authenticate',
      payload: { client_secret: pending.client_secret, approve: false },
    });
    const confirmed = await portal('POST', `${PATH}/${pending.id}/confirm`, token);
    expect(confirmed.statusCode).toBe(400);
    expect(json(confirmed).error).toBe('PaymentError');
    expect(await list(token)).toHaveLength(1);
  });
});

describe('default', () => {
  it('moves the default and the subscriptions to another method', async () => {
    const org = await organizationFactory(server);
    const { subscription, token } = await subscriber(org);
    const added = json(await add(token, MASTERCARD, false));
    const response = await portal('POST', `${PATH}/${added.id}/default`, token);
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({ id: added.id, default: true });
    expect((await list(token)).filter((m) => m.default).map((m) => m.id)).toEqual([added.id]);
    expect(await billedMethod(subscription.id)).toBe(await processorIdOf(added.id));
  });
});

describe('delete', () => {
  it("refuses to remove the last method billing an active subscription with the reference's message", async () => {
    const org = await organizationFactory(server);
    const { token } = await subscriber(org);
    const [only] = await list(token);
    const response = await portal('DELETE', `${PATH}/${only!.id}`, token);
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({
      error: 'BadRequest',
      detail:
        'This payment method is still needed to bill a subscription. Add another one or cancel the subscription first.',
    });
    expect(await list(token)).toHaveLength(1);
  });

  it('removes the default: the other method becomes the default and bills the subscription', async () => {
    const org = await organizationFactory(server);
    const { subscription, token } = await subscriber(org);
    const [original] = await list(token);
    const other = json(await add(token, MASTERCARD, false));
    const response = await portal('DELETE', `${PATH}/${original!.id}`, token);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await list(token)).map((m) => [m.id, m.default])).toEqual([[other.id, true]]);
    expect(await billedMethod(subscription.id)).toBe(await processorIdOf(other.id));
    // Detached at the processor: it cannot be charged any more.
    const detached = await server.runtime.database.db
      .selectFrom('simulated_payment_methods')
      .select('id')
      .where('customer_id', '=', subscription.customer_id)
      .execute();
    expect(detached.map((row) => row.id)).toEqual([await processorIdOf(other.id)]);
    expect((await portal('DELETE', `${PATH}/${original!.id}`, token)).statusCode).toBe(404);
  });

  it('removes the last method once nothing is billed to it', async () => {
    const org = await organizationFactory(server);
    const { subscription, token } = await subscriber(org);
    await seller('PATCH', org, `/v1/subscriptions/${subscription.id}`, { revoke: true });
    const [only] = await list(token);
    expect((await portal('DELETE', `${PATH}/${only!.id}`, token)).statusCode).toBe(204);
    expect(await list(token)).toEqual([]);
  });
});

describe('concurrency', () => {
  it('two removals at once never leave the subscription without a card', async () => {
    const org = await organizationFactory(server);
    const { subscription, token } = await subscriber(org);
    await add(token, MASTERCARD, false);
    const ids = (await list(token)).map((m) => m.id);
    const answers = await Promise.all(ids.map((id) => portal('DELETE', `${PATH}/${id}`, token)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([204, 400]);
    const left = await list(token);
    expect(left).toHaveLength(1);
    expect(left[0]!.default).toBe(true);
    expect(await billedMethod(subscription.id)).toBe(await processorIdOf(left[0]!.id));
  });

  it('cards added at once as the default leave exactly one default, which bills the subscription', async () => {
    const org = await organizationFactory(server);
    const { subscription, token } = await subscriber(org);
    const answers = await Promise.all([CARDS.visa, MASTERCARD, CARDS.visa].map((number) => add(token, number, true)));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201]);
    const defaults = (await list(token)).filter((m) => m.default);
    expect(defaults).toHaveLength(1);
    expect(await billedMethod(subscription.id)).toBe(await processorIdOf(defaults[0]!.id));
  });
});

describe('renewals and dunning', () => {
  const HOUR = 3600;

  async function advanceTo(org: OrganizationFixture, at: string): Promise<void> {
    const clock = await seller('GET', org, '/v1/test-clock/');
    const seconds = Math.ceil((new Date(at).getTime() - new Date(clock.now).getTime()) / 1000);
    if (seconds > 0) await seller('POST', org, '/v1/test-clock/advance', { seconds });
  }

  async function payments(org: OrganizationFixture, customerId: string) {
    const page = await seller('GET', org, `/v1/payments/?customer_id=${customerId}&sorting=created_at&limit=100`);
    return (page.items as { status: string; amount: number; method_metadata: { last4: string } }[]).map((p) => [
      p.status,
      p.amount,
      p.method_metadata.last4,
    ]);
  }

  async function orders(org: OrganizationFixture, customerId: string) {
    const page = await seller('GET', org, `/v1/orders/?customer_id=${customerId}&sorting=created_at&limit=100`);
    return (page.items as { billing_reason: string; total_amount: number; status: string }[]).map((o) => [
      o.billing_reason,
      o.total_amount,
      o.status,
    ]);
  }

  it('charges the renewal to a newly added default card', async () => {
    const org = await organizationFactory(server);
    const product = await productFactory(server, org.organization.id, {
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 2500 }],
    });
    const subscription = await subscriptionFactory(server, org.organization.id, { productId: product.product.id });
    const token = await sessionFor(org, subscription.customer_id);
    await seller('POST', org, '/v1/test-clock/advance', { seconds: HOUR });
    expect((await add(token, MASTERCARD, true)).statusCode).toBe(201);
    await advanceTo(org, subscription.current_period_end!);
    expect(await orders(org, subscription.customer_id)).toEqual([
      ['subscription_create', 2500, 'paid'],
      ['subscription_cycle', 2500, 'paid'],
    ]);
    expect(await payments(org, subscription.customer_id)).toEqual([
      ['succeeded', 2500, '4242'],
      ['succeeded', 2500, '4444'],
    ]);
  });

  it('a new default card that declines too: the retry is made at once, fails, and dunning goes on', async () => {
    const org = await organizationFactory(server);
    const subscription = await subscriptionFactory(server, org.organization.id, { price: 1500 });
    await server.runtime.database.db
      .updateTable('simulated_payment_methods')
      .set({ outcome: 'charge_declined_after_attach' })
      .where('customer_id', '=', subscription.customer_id)
      .execute();
    await advanceTo(org, subscription.current_period_end!);
    const token = await sessionFor(org, subscription.customer_id);
    // Stripe's 4000 0000 0000 0341: saved without a charge, every charge declined.
    expect((await add(token, '4000000000000341', true)).statusCode).toBe(201);
    const failed = await waitFor(
      () => payments(org, subscription.customer_id),
      (list) => list.length === 3,
    );
    expect(failed).toEqual([
      ['succeeded', 1500, '4242'],
      ['failed', 1500, '4242'],
      ['failed', 1500, '0341'],
    ]);
    expect((await seller('GET', org, `/v1/subscriptions/${subscription.id}`)).status).toBe('past_due');
    const charge = await server.runtime.database.db
      .selectFrom('subscription_charges')
      .selectAll()
      .where('subscription_id', '=', subscription.id)
      .where('billing_reason', '=', 'subscription_cycle')
      .executeTakeFirstOrThrow();
    // Two failures: the next retry five days after this one.
    expect(charge).toMatchObject({ status: 'pending', attempts: 2 });
    const clock = await seller('GET', org, '/v1/test-clock/');
    expect(charge.next_attempt_at!.getTime() - new Date(clock.now).getTime()).toBeGreaterThan(4 * 24 * HOUR * 1000);
  });

  it('retries a past-due subscription at once when the customer adds a working default card', async () => {
    const org = await organizationFactory(server);
    const product = await productFactory(server, org.organization.id, {
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 1900 }],
    });
    const subscription = await subscriptionFactory(server, org.organization.id, { productId: product.product.id });
    // The saved card starts declining (Stripe's 4000 0000 0000 0341 once attached).
    await server.runtime.database.db
      .updateTable('simulated_payment_methods')
      .set({ outcome: 'charge_declined_after_attach' })
      .where('customer_id', '=', subscription.customer_id)
      .execute();
    await advanceTo(org, subscription.current_period_end!);
    const get = () => seller('GET', org, `/v1/subscriptions/${subscription.id}`);
    expect((await get()).status).toBe('past_due');
    expect(await payments(org, subscription.customer_id)).toEqual([
      ['succeeded', 1900, '4242'],
      ['failed', 1900, '4242'],
    ]);

    const token = await sessionFor(org, subscription.customer_id);
    // The retry would be two days later; the new default is charged now (an hour later).
    await seller('POST', org, '/v1/test-clock/advance', { seconds: HOUR });
    expect((await add(token, CARDS.visa, true)).statusCode).toBe(201);
    const recovered = await waitFor(get, (s) => s.status === 'active');
    expect(recovered.status).toBe('active');
    expect(await orders(org, subscription.customer_id)).toEqual([
      ['subscription_create', 1900, 'paid'],
      ['subscription_cycle', 1900, 'paid'],
    ]);
    expect(await payments(org, subscription.customer_id)).toEqual([
      ['succeeded', 1900, '4242'],
      ['failed', 1900, '4242'],
      ['succeeded', 1900, '4242'],
    ]);
    const charge = await server.runtime.database.db
      .selectFrom('subscription_charges')
      .selectAll()
      .where('subscription_id', '=', subscription.id)
      .where('billing_reason', '=', 'subscription_cycle')
      .executeTakeFirstOrThrow();
    expect(charge).toMatchObject({ status: 'paid', attempts: 2, next_attempt_at: null });
    // The dunning retry two days later finds nothing to charge.
    await seller('POST', org, '/v1/test-clock/advance', { seconds: 3 * 24 * HOUR });
    expect(await payments(org, subscription.customer_id)).toHaveLength(3);
  });
});
