import { Polar } from '@polar-sh/sdk';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { RFCDate } from '@polar-sh/sdk/types/rfcdate.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { orderFactory } from '../factories/orders.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { productFactory } from '../factories/products.js';
import { startTestServer, type TestServer } from '../harness.js';

let server: TestServer;
let acme: OrganizationFixture;
let polar: Polar;
let productId: string;

beforeAll(async () => {
  server = await startTestServer({ listen: true, clock: new ManualClock('2026-01-15T12:00:00.000Z') });
  acme = await organizationFactory(server, { name: 'Acme' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
  const product = await productFactory(server, acme.organization.id);
  productId = product.product.id;
  await orderFactory(server, acme.organization.id, { product });
  await orderFactory(server, acme.organization.id, { product, subtotal_amount: 2500 });
});
afterAll(() => server?.stop());

describe('metrics through @polar-sh/sdk', () => {
  it('metrics.get parses every period, the totals and the definitions (the extensions are stripped)', async () => {
    const answer = await polar.metrics.get({
      startDate: new RFCDate('2026-01-14'),
      endDate: new RFCDate('2026-01-16'),
      interval: 'day',
      productId: [productId],
      billingType: 'one_time',
      organizationId: acme.organization.id,
    });
    expect(answer.periods.map((period) => period.timestamp.toISOString())).toEqual([
      '2026-01-14T00:00:00.000Z',
      '2026-01-15T00:00:00.000Z',
      '2026-01-16T00:00:00.000Z',
    ]);
    expect(answer.periods[1]).toMatchObject({
      orders: 2,
      revenue: 3500,
      cumulativeRevenue: 3500,
      averageOrderValue: 1750,
      oneTimeProducts: 2,
      oneTimeProductsRevenue: 3500,
      activeSubscriptions: 0,
      checkoutsConversion: 0,
    });
    expect(answer.totals).toMatchObject({ orders: 2, revenue: 3500, cumulativeRevenue: 3500 });
    expect(answer.metrics.monthlyRecurringRevenue).toEqual({
      slug: 'monthly_recurring_revenue',
      displayName: 'Monthly Recurring Revenue',
      type: 'currency',
    });
    // The SDK's objects strip keys they do not know: the extension metrics do not break parsing.
    expect('net_revenue' in answer.periods[1]! || 'netRevenue' in answer.periods[1]!).toBe(false);
  });

  it('metrics.get: a range past the limit is an HTTPValidationError', async () => {
    const error = await polar.metrics
      .get({ startDate: new RFCDate('2026-01-01'), endDate: new RFCDate('2026-01-20'), interval: 'hour' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HTTPValidationError);
    expect((error as HTTPValidationError).detail?.[0]?.loc).toEqual(['query', 'interval']);
  });

  it('metrics.limits', async () => {
    const limits = await polar.metrics.limits();
    expect(limits.minDate.toString()).toBe('2023-01-01');
    expect(limits.intervals).toEqual({
      hour: { maxDays: 7 },
      day: { maxDays: 366 },
      week: { maxDays: 365 },
      month: { maxDays: 1460 },
      year: { maxDays: 3650 },
    });
  });
});
