import { Polar } from '@polar-sh/sdk-0.49';
import { RFCDate } from '@polar-sh/sdk-0.49/types/rfcdate.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/platform/clock.js';
import { typedBenefitFactory } from '../factories/benefit-grants.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { customPrice, fixedPrice, productFactory } from '../factories/products.js';
import { startTestServer, type TestServer } from '../harness.js';
import { withZodIssues } from './issues.js';

/**
 * The organization, its products and its metrics through `@polar-sh/sdk@0.49`: every response passes
 * the SDK's own validation (the 2026 fields Tessera answers with one value included), each call with
 * one assertion on what it did.
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

describe('the organization through @polar-sh/sdk@0.49', () => {
  it('organizations.get answers the 2026 fields from the settings', async () => {
    const organization = await withZodIssues(() => polar.organizations.get({ id: acme.organization.id }));
    expect(organization).toMatchObject({
      id: acme.organization.id,
      status: 'active',
      prorationBehavior: 'prorate',
      allowCustomerUpdates: true,
      defaultTaxBehavior: 'exclusive',
      capabilities: { payouts: false, checkoutPayments: true },
      subscriptionSettings: { benefitRevocationGracePeriod: 0, preventTrialAbuse: false },
    });
  });

  it('organizations.listOrganizations pages the organization', async () => {
    const pages = await withZodIssues(() => polar.organizations.listOrganizations({}));
    expect(pages.result.items.map((organization) => organization.id)).toEqual([acme.organization.id]);
  });

  it("organizations.update takes the reference's settings and keeps their one value", async () => {
    const updated = await withZodIssues(() =>
      polar.organizations.update({
        id: acme.organization.id,
        organizationUpdate: {
          subscriptionSettings: {
            allowMultipleSubscriptions: true,
            allowCustomerUpdates: false,
            prorationBehavior: 'invoice',
            benefitRevocationGracePeriod: 0,
            preventTrialAbuse: false,
          },
        },
      }),
    );
    expect(updated).toMatchObject({
      prorationBehavior: 'invoice',
      allowCustomerUpdates: false,
      customerPortalSettings: { subscription: { updatePlan: false } },
      subscriptionSettings: { allowMultipleSubscriptions: true, benefitRevocationGracePeriod: 0 },
    });
  });
});

describe('products through @polar-sh/sdk@0.49', () => {
  it('products.create answers a recurring product with its 2026 fields', async () => {
    const product = await withZodIssues(() =>
      polar.products.create({
        name: 'Pro',
        recurringInterval: 'month',
        prices: [{ amountType: 'fixed', priceAmount: 2500, priceCurrency: 'usd' }],
      }),
    );
    expect(product).toMatchObject({
      name: 'Pro',
      visibility: 'public',
      recurringInterval: 'month',
      recurringIntervalCount: 1,
      meterInterval: 'month',
      meterIntervalCount: 1,
      prices: [{ amountType: 'fixed', priceAmount: 2500, source: 'catalog', taxBehavior: null }],
    });
  });

  it('products.get and products.list answer one-time and pay-what-you-want products', async () => {
    const once = await productFactory(server, acme.organization.id, {
      name: 'E-book',
      prices: [customPrice({ minimum_amount: 500, preset_amount: 900 })],
    });
    const read = await withZodIssues(() => polar.products.get({ id: once.product.id }));
    expect(read).toMatchObject({ recurringIntervalCount: null, meterInterval: null, isRecurring: false });
    const page = await withZodIssues(() => polar.products.list({ isRecurring: false }));
    expect(page.result.items.map((product) => product.name)).toEqual(['E-book']);
  });

  it('products.update and products.updateBenefits change the product', async () => {
    const { product } = await productFactory(server, acme.organization.id, { prices: [fixedPrice(1000)] });
    const renamed = await withZodIssues(() =>
      polar.products.update({ id: product.id, productUpdate: { name: 'Renamed' } }),
    );
    expect(renamed.name).toBe('Renamed');
    const benefit = await typedBenefitFactory(server, acme.organization.id, 'custom');
    const withBenefit = await withZodIssues(() =>
      polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [benefit.id] } }),
    );
    expect(withBenefit.benefits.map((attached) => attached.id)).toEqual([benefit.id]);
  });
});

describe('metrics through @polar-sh/sdk@0.49', () => {
  it('metrics.limits answers the shortest and longest range of each interval', async () => {
    const limits = await withZodIssues(() => polar.metrics.limits());
    expect(limits.intervals.week).toEqual({ minDays: 14, maxDays: 365 });
  });

  it('metrics.get answers a period per day', async () => {
    const metrics = await withZodIssues(() =>
      polar.metrics.get({
        startDate: new RFCDate('2026-01-01'),
        endDate: new RFCDate('2026-01-07'),
        interval: 'day',
        timezone: 'UTC',
      }),
    );
    expect(metrics.periods).toHaveLength(7);
  });
});
