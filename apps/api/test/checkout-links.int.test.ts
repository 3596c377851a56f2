import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../src/platform/clock.js';
import { checkoutLinkFactory } from './factories/checkout-links.js';
import { discountFactory } from './factories/discounts.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { userFactory } from './factories/users.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;
let oneTime: Awaited<ReturnType<typeof productFactory>>;
let monthly: Awaited<ReturnType<typeof productFactory>>;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
  oneTime = await productFactory(server, acme.organization.id, { name: 'E-book' });
  monthly = await productFactory(server, acme.organization.id, { name: 'Pro', recurring_interval: 'month' });
});
afterAll(() => server?.stop());

const create = (payload: unknown, token = acme.token) =>
  server.inject({ method: 'POST', url: '/v1/checkout-links/', headers: bearer(token), payload: payload as object });
const get = (id: string, token = acme.token) =>
  server.inject({ method: 'GET', url: `/v1/checkout-links/${id}`, headers: bearer(token) });
const patch = (id: string, payload: unknown, token = acme.token) =>
  server.inject({
    method: 'PATCH',
    url: `/v1/checkout-links/${id}`,
    headers: bearer(token),
    payload: payload as object,
  });
const del = (id: string, token = acme.token) =>
  server.inject({ method: 'DELETE', url: `/v1/checkout-links/${id}`, headers: bearer(token) });
const list = (query: string, token = acme.token) =>
  server.inject({ method: 'GET', url: `/v1/checkout-links/?${query}`, headers: bearer(token) });

async function linkCount(): Promise<number> {
  const row = await server.runtime.database.db
    .selectFrom('checkout_links')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('auth matrix', () => {
  it('answers 401 without a token and 403 without the scope', async () => {
    expect((await server.inject({ method: 'GET', url: '/v1/checkout-links/' })).statusCode).toBe(401);
    const readOnly = await tokenFactory(server, acme.organization.id, ['checkout_links:read']);
    expect((await list('', readOnly)).statusCode).toBe(200);
    expect((await create({ products: [oneTime.product.id] }, readOnly)).statusCode).toBe(403);
    const unrelated = await tokenFactory(server, acme.organization.id, ['products:write']);
    expect((await list('', unrelated)).statusCode).toBe(403);
  });

  it("answers 404 for another organization's link", async () => {
    const theirProduct = await productFactory(server, other.organization.id);
    const link = await checkoutLinkFactory(server, other.organization.id, [theirProduct.product.id]);
    expect((await get(link.id)).statusCode).toBe(404);
    expect((await patch(link.id, { label: 'Mine' })).statusCode).toBe(404);
    expect((await del(link.id)).statusCode).toBe(404);
  });

  it('answers 422 for a bad body and writes nothing', async () => {
    const before = await linkCount();
    const response = await create({ products: [], success_url: 'not a url', allow_discount_codes: 'yes' });
    expect(response.statusCode).toBe(422);
    const locs = json(response).detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.products', 'body.success_url', 'body.allow_discount_codes']));
    expect(await linkCount()).toBe(before);
  });
});

describe('POST /v1/checkout-links/', () => {
  it('creates a link with the defaults, a polar_cl_ secret and its public URL', async () => {
    const response = await create({ products: [oneTime.product.id, monthly.product.id], label: 'Launch' });
    expect(response.statusCode).toBe(201);
    const link = json(response);
    expect(link).toMatchObject({
      payment_processor: 'stripe',
      label: 'Launch',
      allow_discount_codes: true,
      require_billing_address: false,
      discount: null,
      discount_id: null,
      success_url: null,
      metadata: {},
      organization_id: acme.organization.id,
    });
    expect(link.client_secret).toMatch(/^polar_cl_[0-9A-Za-z]{43}$/);
    expect(link.url).toBe(`http://127.0.0.1/v1/checkout-links/${link.client_secret}/redirect`);
    expect(link.products.map((p: { id: string }) => p.id)).toEqual([oneTime.product.id, monthly.product.id]);
    expect(link.products[0].prices).toHaveLength(1);
    expect(link.products[0]).not.toHaveProperty('attached_custom_fields');
  });

  it('accepts exactly one of products, product_id and product_price_id', async () => {
    const byProduct = json(await create({ product_id: monthly.product.id }));
    expect(byProduct.products.map((p: { id: string }) => p.id)).toEqual([monthly.product.id]);
    const priceId = oneTime.prices[0]!.id;
    const byPrice = json(await create({ product_price_id: priceId }));
    expect(byPrice.products.map((p: { id: string }) => p.id)).toEqual([oneTime.product.id]);
    const none = await create({ label: 'nothing' });
    expect(none.statusCode).toBe(422);
    expect(json(none).detail[0]).toMatchObject({ loc: ['body', 'products'], type: 'missing' });
    const two = await create({ product_id: monthly.product.id, products: [oneTime.product.id] });
    expect(two.statusCode).toBe(422);
  });

  it("refuses another organization's products, unknown prices and archived products", async () => {
    const theirs = await productFactory(server, other.organization.id);
    const foreign = await create({ products: [oneTime.product.id, theirs.product.id] });
    expect(json(foreign).detail).toEqual([
      expect.objectContaining({ loc: ['body', 'products', 1], msg: 'Product does not exist.' }),
    ]);
    const price = await create({ product_price_id: theirs.prices[0]!.id });
    expect(json(price).detail[0]).toMatchObject({ loc: ['body', 'product_price_id'], msg: 'Price does not exist.' });
    const archived = await productFactory(server, acme.organization.id, { name: 'Old' });
    await server.inject({
      method: 'PATCH',
      url: `/v1/products/${archived.product.id}`,
      headers: bearer(acme.token),
      payload: { is_archived: true },
    });
    const response = await create({ product_id: archived.product.id });
    expect(json(response).detail[0]).toMatchObject({ loc: ['body', 'product_id'], msg: 'Product is archived.' });
  });

  it('attaches a discount only if it applies to every product of the link', async () => {
    const repeating = await discountFactory(server, acme.organization.id, {
      duration: 'repeating',
      duration_in_months: 3,
    });
    const onlyMonthly = await discountFactory(server, acme.organization.id, { products: [monthly.product.id] });
    const foreign = await discountFactory(server, other.organization.id);
    const message = 'Discount does not exist or is not applicable to this product.';
    for (const [discountId, products] of [
      [repeating.id, [oneTime.product.id]],
      [onlyMonthly.id, [monthly.product.id, oneTime.product.id]],
      [foreign.id, [monthly.product.id]],
    ] as const) {
      const response = await create({ products, discount_id: discountId });
      expect(response.statusCode).toBe(422);
      expect(json(response).detail[0]).toMatchObject({ loc: ['body', 'discount_id'], msg: message });
    }
    const ok = json(await create({ products: [monthly.product.id], discount_id: repeating.id }));
    expect(ok.discount).toMatchObject({ id: repeating.id, duration: 'repeating', duration_in_months: 3 });
    expect(ok.discount).not.toHaveProperty('products');
  });

  it('lets a dashboard user create a link for products of an organization they belong to', async () => {
    const user = await userFactory(server);
    const stranger = await server.inject({
      method: 'POST',
      url: '/v1/checkout-links/',
      headers: user.headers,
      payload: { products: [oneTime.product.id] },
    });
    expect(stranger.statusCode).toBe(422);
    const org = json(
      await server.inject({
        method: 'POST',
        url: '/v1/organizations/',
        headers: user.headers,
        payload: { name: 'Mine', slug: `mine-${Date.now()}` },
      }),
    );
    const product = await productFactory(server, org.id);
    const response = await server.inject({
      method: 'POST',
      url: '/v1/checkout-links/',
      headers: user.headers,
      payload: { products: [product.product.id] },
    });
    expect(response.statusCode).toBe(201);
    expect(json(response).organization_id).toBe(org.id);
  });
});

describe('PATCH /v1/checkout-links/{id}', () => {
  it('replaces products, flags, label, success URL and metadata; clears the discount with null', async () => {
    const discount = await discountFactory(server, acme.organization.id);
    const link = await checkoutLinkFactory(server, acme.organization.id, [oneTime.product.id], {
      discount_id: discount.id,
    });
    const response = await patch(link.id, {
      products: [monthly.product.id],
      label: 'Renamed',
      allow_discount_codes: false,
      require_billing_address: true,
      success_url: 'https://shop.example/thanks?checkout={CHECKOUT_ID}',
      metadata: { campaign: 'fall' },
    });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({
      label: 'Renamed',
      allow_discount_codes: false,
      require_billing_address: true,
      success_url: 'https://shop.example/thanks?checkout={CHECKOUT_ID}',
      metadata: { campaign: 'fall' },
      discount_id: discount.id,
      client_secret: link.client_secret,
    });
    expect(json(response).products.map((p: { id: string }) => p.id)).toEqual([monthly.product.id]);
    const cleared = json(await patch(link.id, { discount_id: null }));
    expect(cleared).toMatchObject({ discount_id: null, discount: null });
  });

  it('refuses new products that the discount does not apply to', async () => {
    const onlyOneTime = await discountFactory(server, acme.organization.id, { products: [oneTime.product.id] });
    const link = await checkoutLinkFactory(server, acme.organization.id, [oneTime.product.id], {
      discount_id: onlyOneTime.id,
    });
    const response = await patch(link.id, { products: [monthly.product.id] });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail[0].loc).toEqual(['body', 'discount_id']);
  });
});

describe('DELETE /v1/checkout-links/{id}', () => {
  it('soft-deletes: 204, then 404', async () => {
    const link = await checkoutLinkFactory(server, acme.organization.id, [oneTime.product.id]);
    expect((await del(link.id)).statusCode).toBe(204);
    expect((await get(link.id)).statusCode).toBe(404);
    const row = await server.runtime.database.db
      .selectFrom('checkout_links')
      .select('deleted_at')
      .where('id', '=', link.id)
      .executeTakeFirst();
    expect(row?.deleted_at).not.toBeNull();
  });
});

describe('GET /v1/checkout-links/', () => {
  it('pages oldest first by default, sorts, and filters by product', async () => {
    const org = await organizationFactory(server);
    const [a, b] = [
      await productFactory(server, org.organization.id),
      await productFactory(server, org.organization.id),
    ];
    const labels = ['c', 'a', 'b'];
    for (const [i, label] of labels.entries()) {
      (server.clock as ManualClock).advance(1000);
      await checkoutLinkFactory(server, org.organization.id, [i === 2 ? b.product.id : a.product.id], {
        label,
        allow_discount_codes: i !== 1,
      });
    }
    const page1 = json(await list('limit=2', org.token));
    expect(page1.pagination).toEqual({ total_count: 3, max_page: 2 });
    expect(page1.items.map((l: { label: string }) => l.label)).toEqual(['c', 'a']);
    expect(json(await list('limit=2&page=2', org.token)).items.map((l: { label: string }) => l.label)).toEqual(['b']);
    expect(json(await list('sorting=-label', org.token)).items.map((l: { label: string }) => l.label)).toEqual([
      'c',
      'b',
      'a',
    ]);
    expect(
      json(await list('sorting=allow_discount_codes&sorting=label', org.token)).items.map(
        (l: { label: string }) => l.label,
      ),
    ).toEqual(['a', 'b', 'c']);
    expect(
      json(await list(`product_id=${b.product.id}`, org.token)).items.map((l: { label: string }) => l.label),
    ).toEqual(['b']);
    expect(json(await list(`organization_id=${acme.organization.id}`, org.token)).items).toEqual([]);
  });
});

describe('archiving a product', () => {
  it('removes it from every link, and deletes a link left without products', async () => {
    const keep = await productFactory(server, acme.organization.id, { name: 'Keep' });
    const archive = await productFactory(server, acme.organization.id, { name: 'Archive' });
    const shared = await checkoutLinkFactory(server, acme.organization.id, [keep.product.id, archive.product.id]);
    const alone = await checkoutLinkFactory(server, acme.organization.id, [archive.product.id]);
    const response = await server.inject({
      method: 'PATCH',
      url: `/v1/products/${archive.product.id}`,
      headers: bearer(acme.token),
      payload: { is_archived: true },
    });
    expect(response.statusCode).toBe(200);
    expect(json(await get(shared.id)).products.map((p: { id: string }) => p.id)).toEqual([keep.product.id]);
    expect((await get(alone.id)).statusCode).toBe(404);
  });
});
