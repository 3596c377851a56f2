import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../src/platform/clock.js';
import { ensureGrantLocked } from '../src/modules/benefit-grants/benefit-grants.repository.js';
import {
  inTransaction,
  purchaseFactory,
  typedBenefitFactory,
  waitForGrant,
  type Purchase,
} from './factories/benefit-grants.js';
import { customerFactory, uniqueEmail } from './factories/customers.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { subscriptionFactory } from './factories/subscriptions.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

/**
 * The customer portal with real purchases: a buyer who bought a one-time product (custom note and
 * license key benefits) and a subscription (custom note), and a second buyer of the same organization
 * whose resources the first must never see.
 */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;
let oneTime: Purchase;
let recurring: Purchase;
let stranger: Purchase;
let customBenefitId: string;
let licenseBenefitId: string;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
  customBenefitId = (await typedBenefitFactory(server, acme.organization.id, 'custom')).id;
  licenseBenefitId = (await typedBenefitFactory(server, acme.organization.id, 'license_keys')).id;
  const email = uniqueEmail('buyer');
  oneTime = await purchaseFactory(server, acme, [customBenefitId, licenseBenefitId], { email });
  recurring = await purchaseFactory(server, acme, [customBenefitId], { recurring: true, email });
  stranger = await purchaseFactory(server, acme, [customBenefitId], { recurring: true });
  await waitForGrantedCount(oneTime.customerId, 3);
  await waitForGrantedCount(stranger.customerId, 1);
});
afterAll(() => server?.stop());

/** Waits until the worker has granted `count` benefits to the customer. */
async function waitForGrantedCount(customerId: string, count: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const granted = await server.runtime.database.db
      .selectFrom('benefit_grants')
      .select('id')
      .where('customer_id', '=', customerId)
      .where('granted_at', 'is not', null)
      .execute();
    if (granted.length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`fewer than ${count} grants for ${customerId}`);
}

/** The grant a purchase's order (one-time) or subscription gave for a benefit. */
async function grantOf(purchase: Purchase, benefitId: string) {
  let query = server.runtime.database.db
    .selectFrom('benefit_grants')
    .selectAll()
    .where('customer_id', '=', purchase.customerId)
    .where('benefit_id', '=', benefitId);
  query = purchase.subscriptionId
    ? query.where('subscription_id', '=', purchase.subscriptionId)
    : query.where('order_id', '=', purchase.orderId);
  return query.executeTakeFirstOrThrow();
}

/** Types of the webhook events recorded about one resource (its id in `data.id`). */
async function eventTypesAbout(id: string): Promise<string[]> {
  const rows = await server.runtime.database.db
    .selectFrom('webhook_events')
    .select('type')
    .where(sql`payload -> 'data' ->> 'id'`, '=', id)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => row.type);
}

async function sessionFor(customerId: string, org: OrganizationFixture = acme): Promise<string> {
  const response = await server.inject({
    method: 'POST',
    url: '/v1/customer-sessions/',
    headers: bearer(org.token),
    payload: { customer_id: customerId },
  });
  expect(response.statusCode).toBe(201);
  return json(response).token;
}

const portal = (method: 'GET' | 'PATCH' | 'DELETE', path: string, token?: string, payload?: unknown) =>
  server.inject({
    method,
    url: `/v1/customer-portal${path}`,
    headers: token ? bearer(token) : {},
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

const ids = (body: { items: { id: string }[] }) => body.items.map((item) => item.id);

describe('auth matrix', () => {
  const routes = (subscriptionId: string, orderId: string, grantId: string) =>
    [
      ['GET', '/customers/me'],
      ['PATCH', '/customers/me'],
      ['GET', '/orders/'],
      ['GET', `/orders/${orderId}`],
      ['GET', '/subscriptions/'],
      ['GET', `/subscriptions/${subscriptionId}`],
      ['PATCH', `/subscriptions/${subscriptionId}`],
      ['DELETE', `/subscriptions/${subscriptionId}`],
      ['GET', '/benefit-grants/'],
      ['GET', `/benefit-grants/${grantId}`],
    ] as const;

  it('answers 401 without a token, and 401 invalid_token to a seller token', async () => {
    const grant = await grantOf(oneTime, licenseBenefitId);
    for (const [method, path] of routes(recurring.subscriptionId!, oneTime.orderId, grant.id)) {
      const body = method === 'PATCH' ? {} : undefined;
      const anonymous = await portal(method, path, undefined, body);
      expect(anonymous.statusCode, `${method} ${path}`).toBe(401);
      expect(json(anonymous)).toEqual({ error: 'Unauthorized', detail: 'Unauthorized' });
      const seller = await portal(method, path, acme.token, body);
      expect(seller.statusCode, `${method} ${path}`).toBe(401);
      expect(json(seller).error).toBe('invalid_token');
    }
  });

  it('does not let a customer session call seller routes', async () => {
    const token = await sessionFor(oneTime.customerId);
    const response = await server.inject({ method: 'GET', url: '/v1/orders/', headers: bearer(token) });
    expect(response.statusCode).toBe(401);
    expect(json(response).error).toBe('invalid_token');
  });

  it("answers 404 for another customer's resources of the same organization, and changes nothing", async () => {
    const token = await sessionFor(oneTime.customerId);
    const theirGrant = await grantOf(stranger, customBenefitId);
    const subscriptionId = stranger.subscriptionId!;
    expect((await portal('GET', `/orders/${stranger.orderId}`, token)).statusCode).toBe(404);
    expect((await portal('GET', `/subscriptions/${subscriptionId}`, token)).statusCode).toBe(404);
    expect((await portal('GET', `/benefit-grants/${theirGrant.id}`, token)).statusCode).toBe(404);
    const cancel = await portal('PATCH', `/subscriptions/${subscriptionId}`, token, { cancel_at_period_end: true });
    expect(cancel.statusCode).toBe(404);
    expect(json(cancel)).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    expect((await portal('DELETE', `/subscriptions/${subscriptionId}`, token)).statusCode).toBe(404);
    expect((await portal('GET', `/orders/${randomUUID()}`, token)).statusCode).toBe(404);

    const theirs = await sessionFor(stranger.customerId);
    expect(json(await portal('GET', `/subscriptions/${subscriptionId}`, theirs)).cancel_at_period_end).toBe(false);
    expect(ids(json(await portal('GET', '/orders/', theirs)))).toEqual([stranger.orderId]);
  });

  it('answers 422 for bad bodies and bad queries, and changes nothing', async () => {
    const token = await sessionFor(recurring.customerId);
    const before = json(await portal('GET', '/customers/me', token));
    for (const body of [{ email: 'not-an-email' }, { billing_address: { country: 'ZZ' } }, { name: 42 }]) {
      const response = await portal('PATCH', '/customers/me', token, body);
      expect(response.statusCode).toBe(422);
      expect(json(response).detail[0].loc[0]).toBe('body');
    }
    expect(json(await portal('GET', '/customers/me', token))).toEqual(before);

    const subscription = json(await portal('GET', `/subscriptions/${recurring.subscriptionId}`, token));
    const soon = await portal('PATCH', `/subscriptions/${subscription.id}`, token, { cancel_at_period_end: 'soon' });
    expect(soon.statusCode).toBe(422);
    expect(json(soon).detail[0].loc).toEqual(['body', 'cancel_at_period_end']);
    const badProduct = await portal('PATCH', `/subscriptions/${subscription.id}`, token, { product_id: 'nope' });
    expect(badProduct.statusCode).toBe(422);
    expect(json(badProduct).detail[0].loc).toEqual(['body', 'product_id']);
    const reason = await portal('PATCH', `/subscriptions/${subscription.id}`, token, {
      cancel_at_period_end: true,
      cancellation_reason: 'bored',
    });
    expect(reason.statusCode).toBe(422);
    expect(json(await portal('GET', `/subscriptions/${subscription.id}`, token))).toEqual(subscription);

    for (const query of ['sorting=bogus', 'product_billing_type=weekly', 'page=0']) {
      expect((await portal('GET', `/orders/?${query}`, token)).statusCode, query).toBe(422);
    }
    expect((await portal('GET', '/benefit-grants/?type=coffee', token)).statusCode).toBe(422);
    expect((await portal('GET', '/subscriptions/?active=maybe', token)).statusCode).toBe(422);
  });

  it('stops authenticating once the customer is deleted or the session expires', async () => {
    const customer = await customerFactory(server, acme.organization.id);
    const token = await sessionFor(customer.id);
    expect((await portal('GET', '/customers/me', token)).statusCode).toBe(200);
    const deleted = await server.inject({
      method: 'DELETE',
      url: `/v1/customers/${customer.id}`,
      headers: bearer(acme.token),
    });
    expect(deleted.statusCode).toBe(204);
    expect((await portal('GET', '/customers/me', token)).statusCode).toBe(401);

    const expiring = await sessionFor(oneTime.customerId);
    (server.clock as ManualClock).advance(61 * 60 * 1000);
    const expired = await portal('GET', '/customers/me', expiring);
    expect(expired.statusCode).toBe(401);
    expect(json(expired).error).toBe('invalid_token');
  });
});

describe('customers/me', () => {
  it('shows the customer as it sees itself', async () => {
    const token = await sessionFor(oneTime.customerId);
    const me = json(await portal('GET', '/customers/me', token));
    expect(Object.keys(me).sort()).toEqual(
      [
        'billing_address',
        'created_at',
        'credit_balance',
        'credit_balances',
        'email',
        'email_verified',
        'id',
        'modified_at',
        'name',
        'oauth_accounts',
        'tax_id',
      ].sort(),
    );
    expect(me).toMatchObject({
      id: oneTime.customerId,
      oauth_accounts: {},
      billing_address: { country: 'FR' },
      credit_balance: 0,
      credit_balances: {},
    });
  });

  it('updates name, address and a tax id whose format it finds from the country', async () => {
    const customer = await customerFactory(server, acme.organization.id);
    const token = await sessionFor(customer.id);
    const response = await portal('PATCH', '/customers/me', token, {
      name: 'Ada Lovelace',
      billing_address: { country: 'fr', line1: '5 avenue Anatole France', city: 'Paris', postal_code: '75007' },
      tax_id: 'FR 40 303 265 045',
    });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({
      name: 'Ada Lovelace',
      billing_address: { country: 'FR', city: 'Paris' },
      tax_id: ['FR40303265045', 'eu_vat'],
    });
    expect(json(await portal('GET', '/customers/me', token))).toEqual(json(response));
    const seller = json(
      await server.inject({ method: 'GET', url: `/v1/customers/${customer.id}`, headers: bearer(acme.token) }),
    );
    expect(seller).toMatchObject({ name: 'Ada Lovelace', tax_id: ['FR40303265045', 'eu_vat'] });
    expect(await eventTypesAbout(customer.id)).toContain('customer.updated');
  });

  it('refuses a tax id without a country, an invalid one, and an email another customer has', async () => {
    const customer = await customerFactory(server, acme.organization.id);
    const token = await sessionFor(customer.id);
    const noCountry = await portal('PATCH', '/customers/me', token, { tax_id: 'FR40303265045' });
    expect(noCountry.statusCode).toBe(422);
    expect(json(noCountry).detail).toEqual([
      { loc: ['body', 'billing_address'], msg: 'Country is required to validate tax ID.', type: 'missing' },
    ]);
    const invalid = await portal('PATCH', '/customers/me', token, {
      billing_address: { country: 'FR' },
      tax_id: '12',
    });
    expect(json(invalid).detail).toEqual([{ loc: ['body', 'tax_id'], msg: 'Invalid tax ID.', type: 'invalid' }]);
    const taken = (await customerFactory(server, acme.organization.id)).email;
    const duplicate = await portal('PATCH', '/customers/me', token, { email: taken.toUpperCase() });
    expect(duplicate.statusCode).toBe(422);
    expect(json(duplicate).detail[0]).toMatchObject({
      loc: ['body', 'email'],
      msg: 'A customer with this email address already exists.',
    });
    expect(json(await portal('GET', '/customers/me', token))).toMatchObject({
      email: customer.email,
      billing_address: null,
      tax_id: null,
    });
  });

  it('takes a new email, which then needs verifying again', async () => {
    const customer = await customerFactory(server, acme.organization.id);
    const token = await sessionFor(customer.id);
    const email = uniqueEmail('moved');
    const response = await portal('PATCH', '/customers/me', token, { email });
    expect(json(response)).toMatchObject({ email, email_verified: false });
  });
});

describe('orders', () => {
  it("lists only the customer's orders, with filters and sorting", async () => {
    const token = await sessionFor(oneTime.customerId);
    expect(recurring.customerId).toBe(oneTime.customerId);
    const all = json(await portal('GET', '/orders/', token));
    expect(all.pagination).toEqual({ total_count: 2, max_page: 1 });
    expect(ids(all).sort()).toEqual([oneTime.orderId, recurring.orderId].sort());

    const list = async (query: string) => ids(json(await portal('GET', `/orders/?${query}`, token)));
    expect(await list('product_billing_type=one_time')).toEqual([oneTime.orderId]);
    expect(await list('product_billing_type=recurring')).toEqual([recurring.orderId]);
    expect(await list(`product_id=${recurring.productId}`)).toEqual([recurring.orderId]);
    expect(await list(`subscription_id=${recurring.subscriptionId}`)).toEqual([recurring.orderId]);
    expect(await list(`organization_id=${other.organization.id}`)).toEqual([]);
    expect(await list('limit=1&page=2&sorting=subscription')).toEqual([oneTime.orderId]);
    const productName = json(await portal('GET', `/orders/${oneTime.orderId}`, token)).product.name as string;
    expect(await list(`query=${encodeURIComponent(productName.slice(-6).toUpperCase())}`)).toEqual([oneTime.orderId]);
  });

  it('shows an order with its product, organization and subscription, without what only the seller sees', async () => {
    const token = await sessionFor(recurring.customerId);
    const order = json(await portal('GET', `/orders/${recurring.orderId}`, token));
    expect(order).toMatchObject({
      id: recurring.orderId,
      status: 'paid',
      paid: true,
      billing_reason: 'subscription_create',
      customer_id: recurring.customerId,
      product: { id: recurring.productId, organization: { id: acme.organization.id, slug: acme.organization.slug } },
      subscription: { id: recurring.subscriptionId, status: 'active' },
    });
    for (const key of ['metadata', 'custom_field_data', 'customer', 'discount']) expect(order).not.toHaveProperty(key);
    expect(order.product).not.toHaveProperty('metadata');
    expect(order.subscription).not.toHaveProperty('metadata');
    expect(order.items).toHaveLength(1);
    const oneTimeOrder = json(await portal('GET', `/orders/${oneTime.orderId}`, token));
    expect(oneTimeOrder.subscription).toBeNull();
    expect(oneTimeOrder.product.benefits.map((b: { id: string }) => b.id).sort()).toEqual(
      [customBenefitId, licenseBenefitId].sort(),
    );
  });
});

describe('subscriptions', () => {
  it("lists only the customer's subscriptions, with filters", async () => {
    const token = await sessionFor(recurring.customerId);
    const list = async (query: string) => ids(json(await portal('GET', `/subscriptions/?${query}`, token)));
    expect(await list('')).toEqual([recurring.subscriptionId]);
    expect(await list('active=true')).toEqual([recurring.subscriptionId]);
    expect(await list('active=false')).toEqual([]);
    expect(await list(`product_id=${oneTime.productId}`)).toEqual([]);
    expect(await list('query=no-such-product')).toEqual([]);
    expect(await list('sorting=organization&sorting=-amount')).toEqual([recurring.subscriptionId]);
    const read = json(await portal('GET', `/subscriptions/${recurring.subscriptionId}`, token));
    expect(read).toMatchObject({
      id: recurring.subscriptionId,
      status: 'active',
      product: { id: recurring.productId, organization: { id: acme.organization.id } },
      meters: [],
    });
    expect(read.prices).toHaveLength(1);
    for (const key of ['metadata', 'custom_field_data', 'customer', 'discount']) expect(read).not.toHaveProperty(key);
  });

  it('cancels at period end with a reason, refuses a second cancel, uncancels through PATCH', async () => {
    const subscription = await subscriptionFactory(server, acme.organization.id);
    const token = await sessionFor(subscription.customer_id);
    const path = `/subscriptions/${subscription.id}`;
    const canceled = await portal('PATCH', path, token, {
      cancel_at_period_end: true,
      cancellation_reason: 'too_expensive',
      cancellation_comment: 'Cheaper elsewhere',
    });
    expect(canceled.statusCode).toBe(200);
    expect(json(canceled)).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
      ends_at: subscription.current_period_end,
      customer_cancellation_reason: 'too_expensive',
      customer_cancellation_comment: 'Cheaper elsewhere',
    });
    const again = await portal('PATCH', path, token, { cancel_at_period_end: true });
    expect(again.statusCode).toBe(403);
    expect(json(again).error).toBe('AlreadyCanceledSubscription');

    const unchanged = await portal('PATCH', path, token, {});
    expect(json(unchanged)).toEqual(json(canceled));

    const uncanceled = await portal('PATCH', path, token, { cancel_at_period_end: false });
    expect(uncanceled.statusCode).toBe(200);
    expect(json(uncanceled)).toMatchObject({
      cancel_at_period_end: false,
      ends_at: null,
      canceled_at: null,
      customer_cancellation_reason: null,
    });
    const twice = await portal('PATCH', path, token, { cancel_at_period_end: false });
    expect(twice.statusCode).toBe(400);

    const seller = json(
      await server.inject({ method: 'GET', url: `/v1/subscriptions/${subscription.id}`, headers: bearer(acme.token) }),
    );
    expect(seller.cancel_at_period_end).toBe(false);
    expect(await eventTypesAbout(subscription.id)).toEqual(
      expect.arrayContaining(['subscription.canceled', 'subscription.uncanceled']),
    );
  });

  it('DELETE cancels at period end and returns the subscription; a second DELETE is refused', async () => {
    const subscription = await subscriptionFactory(server, acme.organization.id);
    const token = await sessionFor(subscription.customer_id);
    const response = await portal('DELETE', `/subscriptions/${subscription.id}`, token);
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({ id: subscription.id, status: 'active', cancel_at_period_end: true });
    const again = await portal('DELETE', `/subscriptions/${subscription.id}`, token);
    expect(again.statusCode).toBe(403);
    expect(json(again).error).toBe('AlreadyCanceledSubscription');
  });

  it('changes the plan when the organization allows it', async () => {
    const subscription = await subscriptionFactory(server, acme.organization.id, { price: 1000 });
    const { product } = await productFactory(server, acme.organization.id, {
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 3000 }],
    });
    const token = await sessionFor(subscription.customer_id);
    const response = await portal('PATCH', `/subscriptions/${subscription.id}`, token, { product_id: product.id });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({ product_id: product.id, amount: 3000, product: { id: product.id } });

    const { product: foreign } = await productFactory(server, other.organization.id, { recurring_interval: 'month' });
    const refused = await portal('PATCH', `/subscriptions/${subscription.id}`, token, { product_id: foreign.id });
    expect(refused.statusCode).toBe(422);
    expect(json(refused).detail[0]).toMatchObject({ loc: ['body', 'product_id'], msg: 'Product does not exist.' });
  });

  it('refuses a plan change when the organization does not let customers change plans', async () => {
    const strict = await organizationFactory(server, { name: 'Strict' });
    const settings = await server.inject({
      method: 'PATCH',
      url: `/v1/organizations/${strict.organization.id}`,
      headers: bearer(strict.token),
      payload: {
        subscription_settings: {
          allow_multiple_subscriptions: false,
          allow_customer_updates: false,
          proration_behavior: 'prorate',
        },
      },
    });
    expect(settings.statusCode).toBe(200);
    const subscription = await subscriptionFactory(server, strict.organization.id);
    const { product } = await productFactory(server, strict.organization.id, { recurring_interval: 'month' });
    const token = await sessionFor(subscription.customer_id, strict);
    const response = await portal('PATCH', `/subscriptions/${subscription.id}`, token, { product_id: product.id });
    expect(response.statusCode).toBe(403);
    expect(json(response)).toEqual({
      error: 'UpdateSubscriptionNotAllowed',
      detail: 'Updating subscription is not allowed.',
    });
    const read = json(await portal('GET', `/subscriptions/${subscription.id}`, token));
    expect(read.product_id).toBe(subscription.product_id);
    // Cancelling stays the customer's own choice.
    expect((await portal('DELETE', `/subscriptions/${subscription.id}`, token)).statusCode).toBe(200);
  });
});

describe('benefit grants', () => {
  it("lists the customer's grants with filters and sorting", async () => {
    const token = await sessionFor(oneTime.customerId);
    const list = async (query = '') => json(await portal('GET', `/benefit-grants/?${query}`, token));
    const all = await list();
    expect(all.pagination.total_count).toBe(3);
    expect(all.items.every((grant: { customer_id: string }) => grant.customer_id === oneTime.customerId)).toBe(true);

    const benefitIdsOf = (body: { items: { benefit_id: string }[] }) => body.items.map((grant) => grant.benefit_id);
    expect(benefitIdsOf(await list('type=license_keys'))).toEqual([licenseBenefitId]);
    expect((await list(`benefit_id=${customBenefitId}`)).items).toHaveLength(2);
    expect((await list(`checkout_id=${oneTime.checkoutId}`)).items).toHaveLength(2);
    expect(benefitIdsOf(await list(`checkout_id=${recurring.checkoutId}`))).toEqual([customBenefitId]);
    expect((await list(`order_id=${oneTime.orderId}`)).items).toHaveLength(2);
    expect((await list(`subscription_id=${recurring.subscriptionId}`)).items).toHaveLength(1);
    expect((await list(`organization_id=${other.organization.id}`)).items).toEqual([]);
    const byType = await list('sorting=-type');
    expect(byType.items.map((grant: { benefit: { type: string } }) => grant.benefit.type)).toEqual([
      'license_keys',
      'custom',
      'custom',
    ]);
  });

  it('shows each grant with its benefit as the customer may see it', async () => {
    const token = await sessionFor(oneTime.customerId);
    const license = await grantOf(oneTime, licenseBenefitId);
    const key = json(await portal('GET', `/benefit-grants/${license.id}`, token));
    expect(key).toMatchObject({
      id: license.id,
      is_granted: true,
      is_revoked: false,
      order_id: oneTime.orderId,
      customer: { id: oneTime.customerId, oauth_accounts: {} },
      benefit: {
        id: licenseBenefitId,
        type: 'license_keys',
        organization: { id: acme.organization.id },
        properties: { prefix: 'acme', limit_usage: 10 },
      },
      properties: { license_key_id: expect.any(String), display_key: expect.stringMatching(/^\*\*\*\*-/) },
    });
    const keys = json(await portal('GET', '/license-keys/', token));
    expect(keys.items.map((k: { id: string }) => k.id)).toContain(key.properties.license_key_id);

    const custom = await grantOf(oneTime, customBenefitId);
    const note = json(await portal('GET', `/benefit-grants/${custom.id}`, token));
    expect(note).toMatchObject({ benefit: { type: 'custom', properties: { note: 'Welcome aboard' } }, properties: {} });
  });

  it('shows grants still on their way, except meter credits that have not credited yet', async () => {
    const customer = await customerFactory(server, acme.organization.id);
    const meterCredit = await typedBenefitFactory(server, acme.organization.id, 'meter_credit');
    // Grants as the grant job first writes them, before it has run (pending, no properties).
    const pending = await inTransaction(server, async (ctx) => {
      const scope = { customer_id: customer.id, subscription_id: null, order_id: oneTime.orderId };
      const custom = await ensureGrantLocked(
        ctx.db,
        { ...scope, benefit_id: customBenefitId },
        { id: randomUUID(), created_at: ctx.clock.now() },
      );
      await ensureGrantLocked(
        ctx.db,
        { ...scope, benefit_id: meterCredit.id },
        { id: randomUUID(), created_at: ctx.clock.now() },
      );
      return custom;
    });
    const token = await sessionFor(customer.id);
    const listed = json(await portal('GET', '/benefit-grants/', token));
    expect(listed.items).toEqual([
      expect.objectContaining({ id: pending.id, is_granted: false, granted_at: null, properties: {} }),
    ]);
  });

  it('hides revoked grants', async () => {
    const purchase = await purchaseFactory(server, acme, [customBenefitId], { recurring: true });
    const grant = await waitForGrant(server, purchase.customerId, customBenefitId, (g) => g.granted_at !== null);
    const token = await sessionFor(purchase.customerId);
    expect((await portal('GET', `/benefit-grants/${grant.id}`, token)).statusCode).toBe(200);
    const revoked = await server.inject({
      method: 'DELETE',
      url: `/v1/subscriptions/${purchase.subscriptionId}`,
      headers: bearer(acme.token),
    });
    expect(revoked.statusCode).toBe(200);
    await waitForGrant(server, purchase.customerId, customBenefitId, (g) => g.revoked_at !== null);
    expect((await portal('GET', `/benefit-grants/${grant.id}`, token)).statusCode).toBe(404);
    expect(json(await portal('GET', '/benefit-grants/', token)).items).toEqual([]);
    expect(ids(json(await portal('GET', '/subscriptions/?active=false', token)))).toEqual([purchase.subscriptionId]);
  });
});

describe('organizations/{slug}', () => {
  it('shows the organization and the products it offers, without credentials', async () => {
    const shop = await organizationFactory(server, { name: 'Shop' });
    const { product: offered } = await productFactory(server, shop.organization.id, { name: 'Offered' });
    const { product: archived } = await productFactory(server, shop.organization.id, { name: 'Retired' });
    await server.inject({
      method: 'PATCH',
      url: `/v1/products/${archived.id}`,
      headers: bearer(shop.token),
      payload: { is_archived: true },
    });
    const response = await portal('GET', `/organizations/${shop.organization.slug.toUpperCase()}`);
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(body.organization).toMatchObject({ id: shop.organization.id, slug: shop.organization.slug });
    expect(body.products.map((p: { id: string }) => p.id)).toEqual([offered.id]);
    expect(body.products[0]).not.toHaveProperty('metadata');
    expect(body.products[0].prices).toHaveLength(1);
    // The SDK sends a seller token when it has one: it is neither needed nor refused.
    expect((await portal('GET', `/organizations/${shop.organization.slug}`, shop.token)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown slug', async () => {
    const response = await portal('GET', '/organizations/no-such-shop');
    expect(response.statusCode).toBe(404);
    expect(json(response)).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
  });
});
