import { Polar } from '@polar-sh/sdk';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerFactory } from '../factories/customers.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { startTestServer, type TestServer } from '../harness.js';

/**
 * Customers and customer sessions through the official `@polar-sh/sdk@0.33.2`: every call passes the
 * SDK's own response validation or throws, which fails the test.
 */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;
let polar: Polar;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
});
afterAll(() => server?.stop());

describe('customers through @polar-sh/sdk', () => {
  let customerId: string;

  it('customers.create', async () => {
    const customer = await polar.customers.create({
      email: 'sdk@example.com',
      name: 'SDK Customer',
      externalId: 'sdk-1',
      billingAddress: { line1: '1 Rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FR' },
      taxId: ['FR12345678901', 'eu_vat'],
      metadata: { plan: 'pro', seats: 3, beta: true },
    });
    customerId = customer.id;
    expect(customer).toMatchObject({
      email: 'sdk@example.com',
      name: 'SDK Customer',
      externalId: 'sdk-1',
      emailVerified: false,
      billingAddress: { line1: '1 Rue de Rivoli', postalCode: '75001', country: 'FR', state: null },
      taxId: ['FR12345678901', 'eu_vat'],
      metadata: { plan: 'pro', seats: 3, beta: true },
      organizationId: acme.organization.id,
      deletedAt: null,
      modifiedAt: null,
    });
    expect(customer.createdAt).toBeInstanceOf(Date);
    expect(customer.avatarUrl).toMatch(/^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{64}\?d=blank$/);
  });

  it('customers.get and customers.getExternal', async () => {
    expect((await polar.customers.get({ id: customerId })).email).toBe('sdk@example.com');
    expect((await polar.customers.getExternal({ externalId: 'sdk-1' })).id).toBe(customerId);
  });

  it('customers.list, iterating pages with the SDK iterator, with filters and sorting', async () => {
    for (let i = 0; i < 4; i++) await customerFactory(server, acme.organization.id, { email: `page-${i}@example.com` });
    const pages = [];
    for await (const page of await polar.customers.list({ limit: 2 })) pages.push(page.result);
    expect(pages).toHaveLength(3);
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1]);
    expect(pages[0]!.pagination).toEqual({ totalCount: 5, maxPage: 3 });
    expect(new Set(pages.flatMap((p) => p.items.map((c) => c.id))).size).toBe(5);

    const filtered = await polar.customers.list({
      organizationId: [acme.organization.id],
      query: 'sdk',
      email: 'SDK@example.com',
      metadata: { plan: 'pro', seats: ['3', '4'] },
      sorting: ['-email', 'name'],
    });
    expect(filtered.result.items.map((c) => c.id)).toEqual([customerId]);
  });

  it('customers.update and customers.updateExternal', async () => {
    const updated = await polar.customers.update({
      id: customerId,
      customerUpdate: { name: 'Renamed', metadata: { plan: 'team' }, billingAddress: { country: 'DE' }, taxId: null },
    });
    expect(updated).toMatchObject({ name: 'Renamed', metadata: { plan: 'team' }, taxId: null });
    expect(updated.billingAddress?.country).toBe('DE');
    expect(updated.modifiedAt).toBeInstanceOf(Date);
    const byExternal = await polar.customers.updateExternal({
      externalId: 'sdk-1',
      customerUpdateExternalID: { email: 'sdk-new@example.com' },
    });
    expect(byExternal).toMatchObject({ id: customerId, email: 'sdk-new@example.com', emailVerified: false });
  });

  it('customers.getState and customers.getStateExternal', async () => {
    const state = await polar.customers.getState({ id: customerId });
    expect(state).toMatchObject({ id: customerId, activeSubscriptions: [], grantedBenefits: [], activeMeters: [] });
    const external = await polar.customers.getStateExternal({ externalId: 'sdk-1' });
    expect(external.id).toBe(customerId);
  });

  it('customerSessions.create by id and by external id', async () => {
    const session = await polar.customerSessions.create({ customerId });
    expect(session.token).toMatch(/^polar_cst_/);
    expect(session.customerId).toBe(customerId);
    expect(session.customer.id).toBe(customerId);
    expect(session.expiresAt.getTime() - server.clock.now().getTime()).toBe(3600_000);
    expect(session.customerPortalUrl).toContain(`/portal/${acme.organization.slug}?customer_session_token=`);
    const byExternal = await polar.customerSessions.create({ customerExternalId: 'sdk-1' });
    expect(byExternal.customerId).toBe(customerId);
  });

  it('raises HTTPValidationError with the detail list', async () => {
    const error = await polar.customers.create({ email: 'sdk-new@example.com' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HTTPValidationError);
    expect((error as HTTPValidationError).detail).toEqual([
      { loc: ['body', 'email'], msg: 'A customer with this email address already exists.', type: 'value_error' },
    ]);
    const session = await polar.customerSessions.create({ customerExternalId: 'nobody' }).catch((e: unknown) => e);
    expect(session).toBeInstanceOf(HTTPValidationError);
  });

  it("raises ResourceNotFound for another organization's customer", async () => {
    const foreign = await customerFactory(server, other.organization.id, { external_id: 'foreign' });
    await expect(polar.customers.get({ id: foreign.id })).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(polar.customers.getExternal({ externalId: 'foreign' })).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(polar.customers.delete({ id: foreign.id })).rejects.toBeInstanceOf(ResourceNotFound);
  });

  it('customers.delete and customers.deleteExternal', async () => {
    await polar.customers.delete({ id: customerId });
    await expect(polar.customers.get({ id: customerId })).rejects.toBeInstanceOf(ResourceNotFound);
    const again = await polar.customers.create({ email: 'sdk-new@example.com', externalId: 'sdk-1' });
    await polar.customers.deleteExternal({ externalId: 'sdk-1' });
    await expect(polar.customers.getStateExternal({ externalId: 'sdk-1' })).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(polar.customers.getState({ id: again.id })).rejects.toBeInstanceOf(ResourceNotFound);
  });
});
