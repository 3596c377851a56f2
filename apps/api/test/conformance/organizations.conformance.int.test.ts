import { Polar } from '@polar-sh/sdk';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { SDKError } from '@polar-sh/sdk/models/errors/sdkerror.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { startTestServer, type TestServer } from '../harness.js';

/**
 * Drives the API through the official `@polar-sh/sdk@0.33.2`. Every call passes the SDK's own
 * response validation or throws `ResponseValidationError`, which fails the test.
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

describe('organizations through @polar-sh/sdk', () => {
  it('organizations.get', async () => {
    const organization = await polar.organizations.get({ id: acme.organization.id });
    expect(organization).toMatchObject({ id: acme.organization.id, name: 'Acme', slug: acme.organization.slug });
    expect(organization.createdAt).toBeInstanceOf(Date);
    expect(organization.subscriptionSettings.prorationBehavior).toBe('prorate');
  });

  it('organizations.list, with paging through the iterator', async () => {
    const pages = [];
    for await (const page of await polar.organizations.list({ limit: 1 })) pages.push(page.result);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.items.map((o) => o.id)).toEqual([acme.organization.id]);
    expect(pages[0]!.pagination).toEqual({ totalCount: 1, maxPage: 1 });
    const bySlug = await polar.organizations.list({ slug: acme.organization.slug, sorting: ['-created_at', 'name'] });
    expect(bySlug.result.items).toHaveLength(1);
  });

  it('organizations.update', async () => {
    const updated = await polar.organizations.update({
      id: acme.organization.id,
      organizationUpdate: {
        name: 'Acme Inc',
        email: 'billing@acme.example',
        website: 'https://acme.example',
        socials: [{ platform: 'github', url: 'https://github.com/acme' }],
        featureSettings: { issueFundingEnabled: true },
        subscriptionSettings: {
          allowMultipleSubscriptions: true,
          allowCustomerUpdates: true,
          prorationBehavior: 'invoice',
        },
        details: {
          about: 'Tools',
          productDescription: 'Software',
          intendedUse: 'Subscriptions',
          customerAcquisition: ['search'],
          futureAnnualRevenue: 50000,
        },
      },
    });
    expect(updated).toMatchObject({
      name: 'Acme Inc',
      email: 'billing@acme.example',
      website: 'https://acme.example',
      featureSettings: { issueFundingEnabled: true, usageBasedBillingEnabled: false },
      subscriptionSettings: { allowMultipleSubscriptions: true, prorationBehavior: 'invoice' },
    });
    expect(updated.detailsSubmittedAt).toBeInstanceOf(Date);
    expect(updated.modifiedAt).toBeInstanceOf(Date);
  });

  it("raises ResourceNotFound for another organization's id", async () => {
    await expect(polar.organizations.get({ id: other.organization.id })).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(
      polar.organizations.update({ id: other.organization.id, organizationUpdate: { name: 'Taken over' } }),
    ).rejects.toBeInstanceOf(ResourceNotFound);
  });

  it('raises HTTPValidationError with the detail list for a bad body', async () => {
    const error = await polar.organizations
      .update({ id: acme.organization.id, organizationUpdate: { name: 'x' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HTTPValidationError);
    expect((error as HTTPValidationError).detail).toEqual([
      expect.objectContaining({ loc: ['body', 'name'], type: 'string_too_short' }),
    ]);
    const after = await polar.organizations.get({ id: acme.organization.id });
    expect(after.name).toBe('Acme Inc');
  });

  it('answers 401 without a token (an SDKError with the status)', async () => {
    const anonymous = new Polar({ serverURL: server.url });
    const error = await anonymous.organizations.get({ id: acme.organization.id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SDKError);
    expect((error as SDKError).statusCode).toBe(401);
  });
});
