import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { ManualClock } from '../src/platform/clock.js';
import { runSubscriptionBilling } from '../src/modules/subscriptions/subscriptions.renewal.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { subscriptionFactory } from './factories/subscriptions.js';
import { startTestServer, type TestServer } from './harness.js';

// A calculator with a rate, in place of the built-in one (which taxes nothing): 20% in France.
vi.mock('../src/platform/tax.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/platform/tax.js')>();
  const twentyPercentInFrance: import('../src/platform/tax.js').TaxCalculator = {
    name: 'test-rates',
    calculate: (input) =>
      Promise.resolve(
        input.country === 'FR'
          ? { status: 'calculated', amount: Math.round(input.amount * 0.2) }
          : input.country
            ? { status: 'calculated', amount: 0 }
            : { status: 'unknown' },
      ),
  };
  return { ...original, taxCalculator: () => twentyPercentInFrance };
});

let server: TestServer;
let acme: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
});
afterAll(() => server?.stop());

it('taxes each renewal on its net amount from the customer billing address, and charges the total', async () => {
  const subscription = await subscriptionFactory(server, acme.organization.id, { price: 1000 });
  (server.clock as ManualClock).advance(32 * 86_400_000);
  await runSubscriptionBilling(server.context(), server.context().transactions);
  const orders = await server.runtime.database.db
    .selectFrom('orders')
    .select(['billing_reason', 'net_amount', 'tax_amount', 'total_amount', 'status'])
    .where('subscription_id', '=', subscription.id)
    .orderBy('created_at')
    .execute();
  expect(orders).toEqual([
    { billing_reason: 'subscription_create', net_amount: 1000, tax_amount: 200, total_amount: 1200, status: 'paid' },
    { billing_reason: 'subscription_cycle', net_amount: 1000, tax_amount: 200, total_amount: 1200, status: 'paid' },
  ]);
  const payments = await server.runtime.database.db
    .selectFrom('payments')
    .innerJoin('orders', 'orders.id', 'payments.order_id')
    .select('payments.amount')
    .where('orders.subscription_id', '=', subscription.id)
    .execute();
  expect(payments.map((payment) => payment.amount)).toEqual([1200, 1200]);
});
