import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutLinkFactory } from './factories/checkout-links.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { freePrice, productFactory } from './factories/products.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

/** The `stats` extension of checkout links: visits counted when a link is opened, checkouts from it. */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
});
afterAll(() => server?.stop());

const open = (secret: string) => server.inject({ method: 'GET', url: `/v1/checkout-links/${secret}/redirect` });
const confirm = (secret: string, payload: unknown) =>
  server.inject({ method: 'POST', url: `/v1/checkouts/client/${secret}/confirm`, payload: payload as object });
const getLink = (id: string, token = acme.token) =>
  server.inject({ method: 'GET', url: `/v1/checkout-links/${id}`, headers: bearer(token) });

describe('checkout link stats', () => {
  it('counts visits, checkouts started and completed, and the conversion, on get and list', async () => {
    const { product } = await productFactory(server, acme.organization.id, { prices: [freePrice()] });
    const link = await checkoutLinkFactory(server, acme.organization.id, [product.id]);
    expect(link.stats).toEqual({ visits: 0, checkouts_started: 0, checkouts_completed: 0, conversion: 0 });

    const secrets: string[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await open(link.client_secret);
      expect(response.statusCode).toBe(307);
      secrets.push(/\/checkout\/(polar_c_[^?]+)/.exec(response.headers.location as string)![1]!);
    }
    expect((await confirm(secrets[0]!, { customer_email: 'one@example.com' })).statusCode).toBe(200);

    await expect
      .poll(async () => json(await getLink(link.id)).stats, { timeout: 20_000, interval: 100 })
      .toEqual({ visits: 4, checkouts_started: 1, checkouts_completed: 1, conversion: 0.25 });
    const listed = json(
      await server.inject({ method: 'GET', url: '/v1/checkout-links/?limit=100', headers: bearer(acme.token) }),
    );
    expect(listed.items.find((item: { id: string }) => item.id === link.id).stats.visits).toBe(4);
  });

  it('does not count an unknown link or an open that fails, and stays in its organization', async () => {
    expect((await open('polar_cl_nope')).statusCode).toBe(404);
    const { product } = await productFactory(server, acme.organization.id, { prices: [freePrice()] });
    const link = await checkoutLinkFactory(server, acme.organization.id, [product.id]);
    await server.runtime.database.db
      .updateTable('products')
      .set({ is_archived: true })
      .where('id', '=', product.id)
      .execute();
    expect((await open(link.client_secret)).statusCode).toBe(422);
    expect(json(await getLink(link.id)).stats.visits).toBe(0);
    expect((await getLink(link.id, other.token)).statusCode).toBe(404);
  });
});
