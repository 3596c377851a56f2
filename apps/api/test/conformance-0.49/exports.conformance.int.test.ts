import { Polar } from '@polar-sh/sdk-0.49';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/platform/clock.js';
import { customerFactory } from '../factories/customers.js';
import { orderFactory } from '../factories/orders.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { subscriptionFactory } from '../factories/subscriptions.js';
import { startTestServer, type TestServer } from '../harness.js';
import { withZodIssues } from './issues.js';

/**
 * `orders.export`, `customers.export` and `subscriptions.export` through `@polar-sh/sdk@0.49`: the SDK
 * asks for `text/csv` and reads the body as text; each answer is the reference's CSV.
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

describe('exports through @polar-sh/sdk@0.49', () => {
  it('orders.export answers the orders as CSV', async () => {
    const customer = await customerFactory(server, acme.organization.id, { email: 'order@example.com' });
    await orderFactory(server, acme.organization.id, { customer });
    const body = await withZodIssues(() => polar.orders.export({ organizationId: acme.organization.id }));
    const lines = body.trim().split('\r\n');
    expect(lines[0]).toBe('Email,Created At,Product,Net Amount,Currency,Status,Invoice number');
    expect(lines[1]).toMatch(/^order@example\.com,.+\+00:00,Product \w+,10\.0,usd,paid,.+$/);
  });

  it('customers.export answers the customers as CSV', async () => {
    const customer = await customerFactory(server, acme.organization.id, { email: 'export@example.com' });
    const body = await withZodIssues(() => polar.customers.export({}));
    expect(body.split('\r\n')[0]).toMatch(/^ID,External ID,Created At,Email,Name,Tax ID,/);
    expect(body).toContain(`${customer.id},,`);
  });

  it('subscriptions.export answers the subscriptions as CSV', async () => {
    await subscriptionFactory(server, acme.organization.id, { price: 1500, email: 'sub@example.com' });
    const body = await withZodIssues(() => polar.subscriptions.export({ organizationId: [acme.organization.id] }));
    const lines = body.trim().split('\r\n');
    expect(lines[0]).toBe('Email,Started At,Product,Amount,Currency,Status,Billing Interval');
    expect(lines[1]).toMatch(/^sub@example\.com,.+,15\.0,usd,active,month$/);
  });
});
