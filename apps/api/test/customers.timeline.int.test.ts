import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchaseFactory } from './factories/benefit-grants.js';
import { customerFactory } from './factories/customers.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

/** GET /v1/customers/{id}/timeline (extension): what happened to a customer, and its lifetime value. */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
});
afterAll(() => server?.stop());

const timeline = (id: string, token?: string, query = '') =>
  server.inject({ method: 'GET', url: `/v1/customers/${id}/timeline${query}`, headers: token ? bearer(token) : {} });

interface Item {
  type: string;
  status: string | null;
  amount: number | null;
  resource_id: string;
}

describe('GET /v1/customers/{id}/timeline', () => {
  it('answers 401 without a token, 403 without customers:read, 404 for another organization, 422 for a bad query', async () => {
    const customer = await customerFactory(server, acme.organization.id);
    expect((await timeline(customer.id)).statusCode).toBe(401);
    const unrelated = await tokenFactory(server, acme.organization.id, ['orders:read']);
    expect((await timeline(customer.id, unrelated)).statusCode).toBe(403);
    const notFound = await timeline(customer.id, other.token);
    expect(notFound.statusCode).toBe(404);
    expect(json(notFound).error).toBe('ResourceNotFound');
    expect((await timeline(customer.id, acme.token, '?page=0')).statusCode).toBe(422);
    const empty = json(await timeline(customer.id, acme.token));
    expect(empty).toEqual({ items: [], pagination: { total_count: 0, max_page: 0 }, lifetime_value: [] });
  });

  it('lists the order, its payment, the subscription and a refund, and the lifetime value net of the refund', async () => {
    const purchase = await purchaseFactory(server, acme, [], { recurring: true });
    const refund = await server.inject({
      method: 'POST',
      url: '/v1/refunds/',
      headers: bearer(acme.token),
      payload: { order_id: purchase.orderId, reason: 'customer_request', amount: 300 },
    });
    expect(refund.statusCode).toBe(200);

    const read = async () => json(await timeline(purchase.customerId, acme.token, '?limit=100'));
    // Settled: the refund succeeded and its emails were sent (their jobs run as soon as they commit), so
    // the two reads below see the same timeline.
    const settled = (items: Item[]) => ({
      refund: items.find((i) => i.type === 'refund')?.status,
      emails: items.filter((i) => i.type === 'email' && i.status !== 'sent').length,
    });
    await expect
      .poll(async () => settled((await read()).items as Item[]), { timeout: 20_000, interval: 100 })
      .toEqual({ refund: 'succeeded', emails: 0 });
    const body = await read();
    const items = body.items as Item[];
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'order', resource_id: purchase.orderId, status: 'partially_refunded' }),
        expect.objectContaining({ type: 'payment', status: 'succeeded', amount: 1000 }),
        expect.objectContaining({
          type: 'subscription_change',
          status: 'created',
          resource_id: purchase.subscriptionId,
        }),
        expect.objectContaining({ type: 'refund', amount: 300 }),
      ]),
    );
    expect(body.lifetime_value).toEqual([
      { currency: 'usd', paid_amount: 1000, refunded_amount: 300, net_amount: 700 },
    ]);
    expect(body.pagination.total_count).toBe(items.length);
    const second = json(await timeline(purchase.customerId, acme.token, '?limit=1&page=2'));
    expect(second.items).toEqual([items[1]]);
  });
});
