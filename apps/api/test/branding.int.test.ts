import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutFactory } from './factories/checkouts.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

/** Checkout and portal branding, an extension field of the organization (docs/branding.md). */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
});
afterAll(() => server?.stop());

const patch = (id: string, payload: object, token = acme.token) =>
  server.inject({ method: 'PATCH', url: `/v1/organizations/${id}`, headers: bearer(token), payload });
const read = async (id = acme.organization.id) =>
  json(await server.inject({ method: 'GET', url: `/v1/organizations/${id}`, headers: bearer(acme.token) }));

describe('branding_settings on the organization', () => {
  it('defaults, then merges the keys sent (the colour lower-cased)', async () => {
    expect((await read()).branding_settings).toEqual({
      brand_color: null,
      theme: 'light',
      show_logo: true,
      show_product_images: true,
    });
    const first = await patch(acme.organization.id, { branding_settings: { brand_color: '#7C3AED', theme: 'dark' } });
    expect(first.statusCode).toBe(200);
    expect(json(first).branding_settings).toEqual({
      brand_color: '#7c3aed',
      theme: 'dark',
      show_logo: true,
      show_product_images: true,
    });
    const second = await patch(acme.organization.id, { branding_settings: { show_logo: false } });
    expect(json(second).branding_settings).toMatchObject({ brand_color: '#7c3aed', theme: 'dark', show_logo: false });
    const cleared = await patch(acme.organization.id, { branding_settings: { brand_color: null, show_logo: true } });
    expect(json(cleared).branding_settings).toMatchObject({ brand_color: null, theme: 'dark', show_logo: true });
  });

  it('422 for a colour that is not #rrggbb or an unknown theme, and nothing changes', async () => {
    const before = (await read()).branding_settings;
    const bad = await patch(acme.organization.id, {
      branding_settings: { brand_color: 'red', theme: 'blue', show_logo: 'yes' },
    });
    expect(bad.statusCode).toBe(422);
    expect(
      json(bad)
        .detail.map((d: { loc: string[] }) => d.loc.join('.'))
        .sort(),
    ).toEqual([
      'body.branding_settings.brand_color',
      'body.branding_settings.show_logo',
      'body.branding_settings.theme',
    ]);
    for (const color of ['#12345', '#1234567', '123456', '#ggg000']) {
      expect((await patch(acme.organization.id, { branding_settings: { brand_color: color } })).statusCode).toBe(422);
    }
    expect((await read()).branding_settings).toEqual(before);
  });

  it('401 without a token, 403 without organizations:write, 404 for another organization', async () => {
    const anonymous = await server.inject({
      method: 'PATCH',
      url: `/v1/organizations/${acme.organization.id}`,
      payload: { branding_settings: { theme: 'light' } },
    });
    expect(anonymous.statusCode).toBe(401);
    const readOnly = await tokenFactory(server, acme.organization.id, ['organizations:read']);
    expect((await patch(acme.organization.id, { branding_settings: { theme: 'light' } }, readOnly)).statusCode).toBe(
      403,
    );
    const foreign = await patch(other.organization.id, { branding_settings: { theme: 'dark' } });
    expect(foreign.statusCode).toBe(404);
    expect(
      (
        await server.inject({
          method: 'GET',
          url: `/v1/organizations/${other.organization.id}`,
          headers: bearer(other.token),
        })
      ).json().branding_settings.theme,
    ).toBe('light');
  });

  it('reaches the hosted checkout and the customer portal', async () => {
    await patch(acme.organization.id, { branding_settings: { brand_color: '#0f766e', theme: 'dark' } });
    const product = await productFactory(server, acme.organization.id);
    const checkout = await checkoutFactory(server, acme.organization.id, [product.product.id]);
    const publicCheckout = await server.inject({
      method: 'GET',
      url: `/v1/checkouts/client/${checkout.client_secret}`,
    });
    expect(publicCheckout.statusCode).toBe(200);
    expect(json(publicCheckout).organization.branding_settings).toMatchObject({
      brand_color: '#0f766e',
      theme: 'dark',
    });
    const portal = await server.inject({
      method: 'GET',
      url: `/v1/customer-portal/organizations/${acme.organization.slug}`,
    });
    expect(portal.statusCode).toBe(200);
    expect(json(portal).organization.branding_settings).toMatchObject({ brand_color: '#0f766e', theme: 'dark' });
  });
});
