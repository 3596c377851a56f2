import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { subscriptionFactory } from './factories/subscriptions.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

/** GET /v1/subscriptions/{id}/history (extension): changes written in the transaction of each change. */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
});
afterAll(() => server?.stop());

const history = (id: string, token?: string, query = '') =>
  server.inject({
    method: 'GET',
    url: `/v1/subscriptions/${id}/history${query}`,
    headers: token ? bearer(token) : {},
  });
const patch = (id: string, payload: object) =>
  server.inject({ method: 'PATCH', url: `/v1/subscriptions/${id}`, headers: bearer(acme.token), payload });

interface Change {
  kind: string;
  actor: string;
  details: Record<string, unknown>;
}
const kinds = async (id: string) => (json(await history(id, acme.token)).items as Change[]).map((c) => c.kind);

describe('GET /v1/subscriptions/{id}/history', () => {
  it('answers 401 without a token, 403 without subscriptions:read, 404 for another organization, 422 for a bad query', async () => {
    const subscription = await subscriptionFactory(server, acme.organization.id);
    expect((await history(subscription.id)).statusCode).toBe(401);
    const unrelated = await tokenFactory(server, acme.organization.id, ['customers:read']);
    expect((await history(subscription.id, unrelated)).statusCode).toBe(403);
    const notFound = await history(subscription.id, other.token);
    expect(notFound.statusCode).toBe(404);
    expect(json(notFound).error).toBe('ResourceNotFound');
    expect((await history(subscription.id, acme.token, '?limit=0')).statusCode).toBe(422);
    expect((await history('nope', acme.token)).statusCode).toBe(422);
  });

  it('records creation, a cancellation with its reason and comment, uncancel, a plan change and a revoke', async () => {
    const subscription = await subscriptionFactory(server, acme.organization.id);
    expect(await kinds(subscription.id)).toEqual(['created']);

    const canceled = await patch(subscription.id, {
      cancel_at_period_end: true,
      customer_cancellation_reason: 'too_expensive',
      customer_cancellation_comment: 'Budget cuts',
    });
    expect(canceled.statusCode).toBe(200);
    expect((await patch(subscription.id, { cancel_at_period_end: false })).statusCode).toBe(200);
    const { product: bigger } = await productFactory(server, acme.organization.id, {
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 2500 }],
    });
    expect((await patch(subscription.id, { product_id: bigger.id })).statusCode).toBe(200);
    expect((await patch(subscription.id, { revoke: true })).statusCode).toBe(200);

    const items = json(await history(subscription.id, acme.token)).items as Change[];
    expect(items.map((c) => c.kind)).toEqual(['revoked', 'product_changed', 'uncanceled', 'canceled', 'created']);
    expect(items.find((c) => c.kind === 'canceled')).toMatchObject({
      actor: 'seller',
      details: { reason: 'too_expensive', comment: 'Budget cuts', at_period_end: true },
    });
    expect(items.find((c) => c.kind === 'product_changed')!.details).toMatchObject({
      previous_product_id: subscription.product_id,
      product_id: bigger.id,
      previous_amount: 1000,
      amount: 2500,
    });
    expect(items[0]!.details).toMatchObject({ cause: 'revoked' });
    const page = json(await history(subscription.id, acme.token, '?limit=2&page=2'));
    expect(page.items.map((c: Change) => c.kind)).toEqual(['uncanceled', 'canceled']);
    expect(page.pagination).toMatchObject({ total_count: 5, max_page: 3 });
  });

  it('writes nothing when the change is refused', async () => {
    const subscription = await subscriptionFactory(server, acme.organization.id);
    expect((await patch(subscription.id, { cancel_at_period_end: false })).statusCode).toBe(400);
    expect((await patch(subscription.id, { product_id: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(422);
    expect(await kinds(subscription.id)).toEqual(['created']);
  });
});
