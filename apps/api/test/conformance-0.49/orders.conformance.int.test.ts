import { Polar } from '@polar-sh/sdk-0.49';
import { ResourceNotFound } from '@polar-sh/sdk-0.49/models/errors/resourcenotfound.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/platform/clock.js';
import { orderFactory } from '../factories/orders.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { paidOrderFactory } from '../factories/refunds.js';
import { bearer, json, startTestServer, type TestServer } from '../harness.js';
import { withZodIssues } from './issues.js';

/**
 * The 2026-10 order calls through `@polar-sh/sdk@0.49` (receipts; the portal's payment status and
 * confirmation): every response passes the SDK's own validation, each call with one assertion.
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

async function sessionFor(customerId: string): Promise<string> {
  const response = await server.inject({
    method: 'POST',
    url: '/v1/customer-sessions/',
    headers: bearer(acme.token),
    payload: { customer_id: customerId },
  });
  return json(response).token;
}

/** Calls until the SDK answers the receipt (undefined is the 202 while it is rendered). */
async function untilRendered<T>(call: () => Promise<T | undefined>): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const answer = await withZodIssues(call);
    if (answer !== undefined) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the receipt was not rendered');
}

describe('receipts through @polar-sh/sdk@0.49', () => {
  it('orders.receipt answers undefined (202) while rendering, then a link to the PDF', async () => {
    const purchase = await paidOrderFactory(server, acme);
    await expect(withZodIssues(() => polar.orders.receipt({ id: purchase.orderId }))).resolves.toBeUndefined();
    const receipt = await untilRendered(() => polar.orders.receipt({ id: purchase.orderId }));
    const file = await server.inject({
      method: 'GET',
      url: new URL(receipt.url).pathname + new URL(receipt.url).search,
    });
    expect(file.headers['content-type']).toBe('application/pdf');
  });

  it('orders.receipt of an order never paid is ResourceNotFound', async () => {
    const pending = await orderFactory(server, acme.organization.id, { status: 'pending' });
    await expect(polar.orders.receipt({ id: pending.id })).rejects.toBeInstanceOf(ResourceNotFound);
  });

  it("customerPortal.orders.receipt answers the customer's receipt", async () => {
    const purchase = await paidOrderFactory(server, acme);
    const security = { customerSession: await sessionFor(purchase.customerId) };
    const receipt = await untilRendered(() => polar.customerPortal.orders.receipt(security, { id: purchase.orderId }));
    expect(new URL(receipt.url).pathname).toMatch(/^\/v1\/storage\/download\//);
  });
});
