import { Polar } from '@polar-sh/sdk-0.49';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/platform/clock.js';
import { typedBenefitFactory } from '../factories/benefit-grants.js';
import { grantFactory } from '../factories/benefits.js';
import { customerFactory } from '../factories/customers.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { startTestServer, type TestServer } from '../harness.js';
import { withZodIssues } from './issues.js';

/**
 * `benefitGrants.list` through `@polar-sh/sdk@0.49`: grants of every benefit type Tessera has, each
 * embedding its customer and its benefit, pass the SDK's validation.
 */
let server: TestServer;
let acme: OrganizationFixture;
let polar: Polar;

beforeAll(async () => {
  server = await startTestServer({ listen: true, clock: systemClock });
  acme = await organizationFactory(server, { name: 'Acme' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
});
afterAll(() => server?.stop());

describe('benefit grants through @polar-sh/sdk@0.49', () => {
  it('benefitGrants.list pages the grants, filtered and sorted as asked', async () => {
    const customer = await customerFactory(server, acme.organization.id, { external_id: 'sdk-user' });
    const types = ['custom', 'discord', 'github_repository', 'downloadables', 'license_keys', 'meter_credit'];
    const granted: string[] = [];
    for (const [i, type] of types.entries()) {
      const benefit = await typedBenefitFactory(server, acme.organization.id, type);
      const grant = await grantFactory(server, acme.organization.id, benefit.id, {
        customerId: customer.id,
        createdAt: new Date(Date.UTC(2026, 0, i + 1)),
      });
      granted.push(grant.id);
    }
    const revokedBenefit = await typedBenefitFactory(server, acme.organization.id, 'custom');
    await grantFactory(server, acme.organization.id, revokedBenefit.id, { revoked: true });

    const pages = [];
    for await (const page of await withZodIssues(() =>
      polar.benefitGrants.list({
        externalCustomerId: 'sdk-user',
        isGranted: true,
        sorting: ['created_at'],
        limit: 4,
      }),
    ))
      pages.push(page.result);
    expect(pages.map((page) => page.items.length)).toEqual([4, 2]);
    const items = pages.flatMap((page) => page.items);
    expect(items.map((grant) => grant.id)).toEqual(granted);
    expect(items.map((grant) => grant.benefit.type)).toEqual(types);
    expect(items.every((grant) => grant.isGranted && grant.customer.id === customer.id)).toBe(true);

    const all = await withZodIssues(() => polar.benefitGrants.list({ organizationId: acme.organization.id }));
    expect(all.result.pagination.totalCount).toBe(7);
  });
});
