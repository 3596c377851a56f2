import { Polar } from '@polar-sh/sdk-0.49';
import { OrderNotEligibleForRetry } from '@polar-sh/sdk-0.49/models/errors/ordernoteligibleforretry.js';
import { ResourceNotFound } from '@polar-sh/sdk-0.49/models/errors/resourcenotfound.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/platform/clock.js';
import { confirmationToken } from '../factories/checkouts.js';
import { orderFactory } from '../factories/orders.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { paidOrderFactory } from '../factories/refunds.js';
import { subscriptionFactory } from '../factories/subscriptions.js';
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

/** A $15/month subscription whose card declines, at its period's end: its renewal order pending. */
async function pastDue() {
  const subscription = await subscriptionFactory(server, acme.organization.id, { price: 1500 });
  await server.runtime.database.db
    .updateTable('simulated_payment_methods')
    .set({ outcome: 'charge_declined_after_attach' })
    .where('customer_id', '=', subscription.customer_id)
    .execute();
  const clock = json(await server.inject({ method: 'GET', url: '/v1/test-clock/', headers: bearer(acme.token) }));
  const seconds = Math.ceil(
    (new Date(subscription.current_period_end!).getTime() - new Date(clock.now).getTime()) / 1000,
  );
  await server.inject({
    method: 'POST',
    url: '/v1/test-clock/advance',
    headers: bearer(acme.token),
    payload: { seconds: seconds + 60 },
  });
  const orders = json(
    await server.inject({
      method: 'GET',
      url: `/v1/orders/?customer_id=${subscription.customer_id}`,
      headers: bearer(acme.token),
    }),
  );
  const renewal = (orders.items as { id: string; billing_reason: string }[]).find(
    (order) => order.billing_reason === 'subscription_cycle',
  )!;
  return { orderId: renewal.id, security: { customerSession: await sessionFor(subscription.customer_id) } };
}

describe('portal payment of an order through @polar-sh/sdk@0.49', () => {
  it('customerPortal.orders.getPaymentStatus answers the declined renewal', async () => {
    const { orderId, security } = await pastDue();
    const answer = await withZodIssues(() => polar.customerPortal.orders.getPaymentStatus(security, { id: orderId }));
    expect(answer).toEqual({ status: 'failed', error: 'Your card was declined.' });
  });

  it('customerPortal.orders.confirmRetryPayment pays it with a new card; again is OrderNotEligibleForRetry', async () => {
    const { orderId, security } = await pastDue();
    const request = {
      id: orderId,
      customerOrderConfirmPayment: {
        confirmationTokenId: await confirmationToken(server, '5555555555554444'),
        paymentProcessor: 'stripe' as const,
      },
    };
    const answer = await withZodIssues(() => polar.customerPortal.orders.confirmRetryPayment(security, request));
    expect(answer.status).toBe('succeeded');
    await expect(polar.customerPortal.orders.confirmRetryPayment(security, request)).rejects.toBeInstanceOf(
      OrderNotEligibleForRetry,
    );
  });
});
