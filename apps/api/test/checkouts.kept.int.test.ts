import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

/**
 * A checkout's products come from the node's memory while its organization's catalogue version holds
 * (modules/checkouts/checkouts.state.ts, products.kept.ts): every change to what a product shows moves the
 * version as it commits, so the next read of the checkout shows it.
 */
let server: TestServer;
let acme: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
});
afterAll(async () => {
  await server?.stop();
});

const clientGet = async (secret: string) => {
  const response = await server.inject({ method: 'GET', url: `/v1/checkouts/client/${secret}` });
  expect(response.statusCode, response.body).toBe(200);
  return json(response);
};

async function openCheckout(productIds: string[]) {
  const response = await server.inject({
    method: 'POST',
    url: '/v1/checkouts/',
    headers: bearer(acme.token),
    payload: { products: productIds },
  });
  expect(response.statusCode, response.body).toBe(201);
  return json(response);
}

const patchProduct = async (id: string, payload: Record<string, unknown>) => {
  const response = await server.inject({
    method: 'PATCH',
    url: `/v1/products/${id}`,
    headers: bearer(acme.token),
    payload,
  });
  expect(response.statusCode, response.body).toBe(200);
  return json(response);
};

describe('a checkout read while its products are kept in memory', () => {
  it('shows a product change made after the checkout was first read', async () => {
    const first = await productFactory(server, acme.organization.id, { name: 'Plan' });
    const second = await productFactory(server, acme.organization.id, { name: 'Other plan' });
    const checkout = await openCheckout([first.product.id, second.product.id]);
    const secret = checkout.client_secret as string;
    expect((await clientGet(secret)).product.name).toBe('Plan');
    // Twice: the second read is answered from the bundles the first kept.
    expect((await clientGet(secret)).products.map((p: { name: string }) => p.name)).toEqual(['Plan', 'Other plan']);

    await patchProduct(first.product.id, { name: 'Renamed plan', description: 'Now with more' });
    const renamed = await clientGet(secret);
    expect(renamed.product).toMatchObject({ name: 'Renamed plan', description: 'Now with more' });
    await patchProduct(second.product.id, { name: 'Renamed other' });
    expect((await clientGet(secret)).products.map((p: { name: string }) => p.name)).toEqual([
      'Renamed plan',
      'Renamed other',
    ]);
  });

  it('keeps the selected price once it is archived (read from the database, not from memory)', async () => {
    const product = await productFactory(server, acme.organization.id, { name: 'Priced' });
    const checkout = await openCheckout([product.product.id]);
    const secret = checkout.client_secret as string;
    const price = checkout.product_price.id as string;
    await clientGet(secret);
    // The price is replaced: the old one is archived, the checkout keeps it.
    await patchProduct(product.product.id, { prices: [{ amount_type: 'fixed', price_amount: 2500 }] });
    const after = await clientGet(secret);
    expect(after.product_price).toMatchObject({ id: price, is_archived: true });
    expect(after.amount).toBe(1000);
    expect(after.product.prices.map((p: { price_amount: number }) => p.price_amount)).toEqual([2500]);
    // Read again (now from what the database read kept): the same answer.
    expect(await clientGet(secret)).toEqual(after);
  });
});
