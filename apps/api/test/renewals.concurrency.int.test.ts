import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runSubscriptionBilling } from '../src/modules/subscriptions/subscriptions.renewal.js';
import type { ManualClock } from '../src/platform/clock.js';
import { organizationFactory } from './factories/organizations.js';
import { copySubscriptions, subscriptionFactory } from './factories/subscriptions.js';
import { startTestServer, type TestServer } from './harness.js';
import { installProcessorGuard, type ProcessorGuard } from './support/processor-guard.js';

/**
 * Billing runs at once (two workers, or a worker and a test-clock advance) share the due work through
 * their claims and still renew and charge every subscription exactly once per period; a run that died
 * holding a claim delays its batch only until the claim expires.
 */
let server: TestServer;
let guard: ProcessorGuard;
beforeAll(async () => {
  // No workers: the two runs of each test are the only ones.
  server = await startTestServer({ work: false });
  guard = installProcessorGuard();
});
afterAll(async () => {
  guard.uninstall();
  await server?.stop();
});
afterEach(() => {
  expect(guard.violations).toEqual([]);
});

const db = () => server.runtime.database.db;
const clock = () => server.clock as ManualClock;
const DAY = 86_400_000;

/** `count` due-next-month subscriptions of a fresh organization, at 1,500 a month. */
async function dueSubscriptions(count: number): Promise<string[]> {
  const { organization } = await organizationFactory(server, { name: 'Renewals' });
  const first = await subscriptionFactory(server, organization.id, { price: 1500 });
  return [first.id, ...(await copySubscriptions(server, first.id, count - 1))];
}

function billingRun() {
  const ctx = server.context();
  return runSubscriptionBilling(ctx, ctx.transactions);
}

/** Per subscription: its cycle orders and their succeeded payments. */
async function cycleOrders(ids: string[]) {
  return db()
    .selectFrom('orders as o')
    .leftJoin('payments as p', (join) => join.onRef('p.order_id', '=', 'o.id').on('p.status', '=', 'succeeded'))
    .select(['o.subscription_id', 'o.id', 'o.status', 'o.total_amount', 'p.id as payment_id'])
    .where('o.subscription_id', 'in', ids)
    .where('o.billing_reason', '=', 'subscription_cycle')
    .execute();
}

const chargeCalls = () => guard.calls.filter((call) => call === 'chargeSavedPaymentMethod').length;

describe('concurrent billing runs', () => {
  it(
    'two runs renew the same 200 due subscriptions: each renewed and charged once for the period',
    { timeout: 300_000 },
    async () => {
      const ids = await dueSubscriptions(200);
      clock().advance(32 * DAY);
      const callsBefore = chargeCalls();

      const [a, b] = await Promise.all([billingRun(), billingRun()]);

      expect(a.renewals + b.renewals).toBe(200);
      expect(a.charge_attempts + b.charge_attempts).toBe(200);
      // The processor was asked once per renewal: no run charged what the other had claimed.
      expect(chargeCalls() - callsBefore).toBe(200);
      const orders = await cycleOrders(ids);
      expect(orders).toHaveLength(200);
      expect(new Set(orders.map((o) => o.subscription_id)).size).toBe(200);
      expect(orders.every((o) => o.status === 'paid' && o.total_amount === 1500 && o.payment_id)).toBe(true);
      const claims = await db()
        .selectFrom('subscriptions')
        .select(['renewal_claim'])
        .where('id', 'in', ids)
        .where('renewal_claim', 'is not', null)
        .execute();
      expect(claims).toEqual([]);

      // Nothing is due any more: further runs do nothing.
      const [c, d] = await Promise.all([billingRun(), billingRun()]);
      expect([c, d]).toEqual([
        { renewals: 0, charge_attempts: 0 },
        { renewals: 0, charge_attempts: 0 },
      ]);
      expect(chargeCalls() - callsBefore).toBe(200);

      // The next period: once more each, and only once.
      clock().advance(31 * DAY);
      const [e, f] = await Promise.all([billingRun(), billingRun()]);
      expect(e.renewals + f.renewals).toBe(200);
      expect(await cycleOrders(ids)).toHaveLength(400);
      expect(chargeCalls() - callsBefore).toBe(400);
    },
  );

  it(
    'a claim left by a run that died holds its subscriptions until it expires, then they renew once',
    { timeout: 120_000 },
    async () => {
      const ids = await dueSubscriptions(20);
      clock().advance(40 * DAY);
      // As if a run had claimed five of them and died: the claim runs for another two minutes.
      const held = ids.slice(0, 5);
      await db()
        .updateTable('subscriptions')
        .set({ renewal_claim: crypto.randomUUID(), renewal_claimed_until: new Date(clock().now().getTime() + 120_000) })
        .where('id', 'in', held)
        .execute();

      const first = await billingRun();
      expect(first.renewals).toBeGreaterThanOrEqual(15);
      expect(new Set((await cycleOrders(ids)).map((o) => o.subscription_id))).toEqual(
        new Set(ids.filter((id) => !held.includes(id))),
      );

      clock().advance(121_000);
      const [a, b] = await Promise.all([billingRun(), billingRun()]);
      expect(a.renewals + b.renewals).toBe(5);
      const orders = await cycleOrders(ids);
      expect(orders).toHaveLength(20);
      expect(new Set(orders.map((o) => o.subscription_id)).size).toBe(20);
    },
  );
});
