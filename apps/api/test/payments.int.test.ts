import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../src/platform/clock.js';
import { linkPaymentToOrder } from '../src/modules/payments/payments.service.js';
import type { PaymentWire } from '../src/modules/payments/payments.serializer.js';
import { orderFactory } from './factories/orders.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { paymentFactory } from './factories/payments.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
});
afterAll(() => server?.stop());

const get = (id: string, token = acme.token) =>
  server.inject({ method: 'GET', url: `/v1/payments/${id}`, headers: bearer(token) });
const list = (query: string, token = acme.token) =>
  server.inject({ method: 'GET', url: `/v1/payments/?${query}`, headers: bearer(token) });

describe('auth matrix', () => {
  it('answers 401 without a token', async () => {
    const payment = await paymentFactory(server, acme.organization.id);
    expect((await server.inject({ method: 'GET', url: '/v1/payments/' })).statusCode).toBe(401);
    expect((await server.inject({ method: 'GET', url: `/v1/payments/${payment.id}` })).statusCode).toBe(401);
  });

  it('answers 403 without payments:read', async () => {
    const payment = await paymentFactory(server, acme.organization.id);
    const unrelated = await tokenFactory(server, acme.organization.id, ['orders:read', 'checkouts:write']);
    expect((await list('', unrelated)).statusCode).toBe(403);
    expect((await get(payment.id, unrelated)).statusCode).toBe(403);
    const reader = await tokenFactory(server, acme.organization.id, ['payments:read']);
    expect((await get(payment.id, reader)).statusCode).toBe(200);
  });

  it("answers 404 for another organization's payment", async () => {
    const foreign = await paymentFactory(server, other.organization.id);
    const response = await get(foreign.id);
    expect(response.statusCode).toBe(404);
    expect(json(response)).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    expect(json(await get(foreign.id, other.token)).id).toBe(foreign.id);
  });

  it('answers 422 for bad input', async () => {
    expect((await get('nope')).statusCode).toBe(422);
    const response = await list('status=paid&sorting=customer_email&checkout_id=x');
    expect(response.statusCode).toBe(422);
    const locs = json(response).detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['query.status.0', 'query.sorting.0', 'query.checkout_id.0']));
  });
});

describe('recordPayment and GET /v1/payments/{id}', () => {
  it('serializes a succeeded card payment', async () => {
    const checkoutId = randomUUID();
    const payment = await paymentFactory(server, acme.organization.id, { checkout_id: checkoutId, amount: 2500 });
    const read = json(await get(payment.id));
    expect(read).toEqual(payment);
    expect(read).toEqual({
      created_at: expect.any(String),
      modified_at: null,
      id: payment.id,
      processor: 'stripe',
      status: 'succeeded',
      amount: 2500,
      currency: 'usd',
      method: 'card',
      method_metadata: { brand: 'visa', last4: '4242' },
      decline_reason: null,
      decline_message: null,
      organization_id: acme.organization.id,
      checkout_id: checkoutId,
      order_id: null,
    });
  });

  it('keeps decline details of failed payments only, and links a payment to its order later', async () => {
    const failed = await paymentFactory(server, acme.organization.id, {
      status: 'failed',
      decline_reason: 'insufficient_funds',
      decline_message: 'Your card has insufficient funds.',
    });
    expect(failed).toMatchObject({
      status: 'failed',
      decline_reason: 'insufficient_funds',
      decline_message: 'Your card has insufficient funds.',
    });
    const succeeded = await paymentFactory(server, acme.organization.id, { decline_reason: 'ignored' });
    expect(succeeded.decline_reason).toBeNull();

    const order = await orderFactory(server, acme.organization.id);
    (server.clock as ManualClock).advance(1000);
    const linked = await server.runtime.database.db
      .transaction()
      .execute((db) => linkPaymentToOrder(server.runtime.context(db), succeeded.id, order.id));
    expect(linked).toMatchObject({ order_id: order.id, modified_at: expect.any(String) });
  });

  it('refuses a payment linked to neither a checkout nor an order', async () => {
    await expect(paymentFactory(server, acme.organization.id, { checkout_id: null, order_id: null })).rejects.toThrow(
      'checkout or an order',
    );
  });
});

describe('GET /v1/payments/', () => {
  let org: OrganizationFixture;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    org = await organizationFactory(server, { name: 'Listing' });
    const id = org.organization.id;
    const clock = server.clock as ManualClock;
    const order = await orderFactory(server, id);
    ids.order = order.id;
    ids.checkout = randomUUID();
    const make = async (key: string, overrides: Parameters<typeof paymentFactory>[2]) => {
      clock.advance(60_000);
      ids[key] = (await paymentFactory(server, id, overrides)).id;
    };
    await make('a', { amount: 3000, checkout_id: ids.checkout, customer_email: 'alice@example.com' });
    await make('b', {
      amount: 1000,
      status: 'failed',
      decline_reason: 'card_declined',
      decline_message: 'Your card was declined.',
      checkout_id: ids.checkout,
      customer_email: 'alice@example.com',
    });
    await make('c', { amount: 2000, order_id: order.id, checkout_id: null, customer_email: 'bob@example.com' });
    await make('d', { amount: 500, status: 'pending', method: 'sepa_debit', card: null });
    await make('e', { amount: 4000, customer_email: 'bob@example.com' });
  });

  const names = async (query: string) => {
    const response = await list(query, org.token);
    expect(response.statusCode).toBe(200);
    const byId = Object.fromEntries(Object.entries(ids).map(([key, value]) => [value, key]));
    return json(response).items.map((payment: PaymentWire) => byId[payment.id]);
  };

  it('lists newest first, only the organization’s payments; a non-card method is the generic shape', async () => {
    expect(await names('')).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(await names(`organization_id=${acme.organization.id}`)).toEqual([]);
    const generic = json(await get(ids.d!, org.token));
    expect(generic.method).toBe('sepa_debit');
    expect(generic).not.toHaveProperty('method_metadata');
  });

  it('filters by organization, checkout, order, status, method and customer email', async () => {
    expect(await names(`organization_id=${org.organization.id}`)).toHaveLength(5);
    expect(await names(`checkout_id=${ids.checkout}`)).toEqual(['b', 'a']);
    expect(await names(`order_id=${ids.order}`)).toEqual(['c']);
    expect(await names('status=failed')).toEqual(['b']);
    expect(await names('status=failed&status=pending')).toEqual(['d', 'b']);
    expect(await names('method=card')).toEqual(['e', 'c', 'b', 'a']);
    expect(await names('method=sepa_debit')).toEqual(['d']);
    expect(await names('customer_email=bob@example.com')).toEqual(['e', 'c']);
    expect(await names('customer_email=alice@example.com&status=succeeded')).toEqual(['a']);
  });

  it('sorts by created_at, status, amount and method', async () => {
    expect(await names('sorting=created_at')).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(await names('sorting=amount')).toEqual(['d', 'b', 'c', 'a', 'e']);
    expect(await names('sorting=-amount')).toEqual(['e', 'a', 'c', 'b', 'd']);
    expect(await names('sorting=status&sorting=created_at')).toEqual(['b', 'd', 'a', 'c', 'e']);
    expect(await names('sorting=-method&sorting=created_at')).toEqual(['d', 'a', 'b', 'c', 'e']);
  });

  it('pages over several pages', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const body = json(await list(`limit=2&page=${page}&sorting=created_at`, org.token));
      expect(body.pagination).toEqual({ total_count: 5, max_page: 3 });
      seen.push(...body.items.map((payment: PaymentWire) => payment.id));
    }
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e'].map((key) => ids[key]));
  });
});
