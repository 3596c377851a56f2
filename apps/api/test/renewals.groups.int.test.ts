import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { releaseRenewalClaims } from '../src/modules/subscriptions/subscriptions.repository.js';
import { runSubscriptionBilling } from '../src/modules/subscriptions/subscriptions.renewal.js';
import type { ManualClock } from '../src/platform/clock.js';
import { organizationFactory } from './factories/organizations.js';
import { copySubscriptions, subscriptionFactory } from './factories/subscriptions.js';
import { bearer, startTestServer, usingServerDatabase, type TestServer } from './harness.js';
import { installProcessorGuard, type ProcessorGuard } from './support/processor-guard.js';

/**
 * A billing run commits renewals, and the outcomes of charges, a group at a time (subscriptions.renewal.ts
 * `inGroups`). What grouping could break, and must not: a failure of one member rolls the group back
 * and the others are still billed once; an answer of the processor lost between the charge and its
 * record is recorded once by the next run, with no second charge; a run that outlives its claim and a
 * second run that takes the same batch over bill each period once and move the money once.
 */
let server: TestServer;
let guard: ProcessorGuard;
beforeAll(async () => {
  server = await startTestServer({ work: false });
  guard = installProcessorGuard();
});
afterAll(async () => {
  guard.uninstall();
  await server?.stop();
});
afterEach(async () => {
  expect(guard.violations).toEqual([]);
  await sql`DROP TRIGGER IF EXISTS renewals_groups_fault ON orders`.execute(db());
  await sql`DROP TRIGGER IF EXISTS renewals_groups_fault ON payments`.execute(db());
});

const db = () => server.runtime.database.db;
const clock = () => server.clock as ManualClock;
const DAY = 86_400_000;
/** More than one group (25) of renewals and of charges. */
const COUNT = 30;

/** Each test's own organization: the clock the tests share brings the others' subscriptions due again. */
let organizationId: string;

async function dueSubscriptions(count: number): Promise<string[]> {
  const { organization } = await organizationFactory(server, { name: 'Groups' });
  organizationId = organization.id;
  const first = await subscriptionFactory(server, organization.id, { price: 1500 });
  return [first.id, ...(await copySubscriptions(server, first.id, count - 1))];
}

function billingRun() {
  const ctx = server.context();
  return runSubscriptionBilling(ctx, ctx.transactions, { organizationId });
}

/**
 * A statement that fails for one row: `table`'s inserts whose `column` is `value` raise, as a defect
 * or a lost connection in the middle of a group would.
 */
async function failInserts(table: 'orders' | 'payments', column: string, value: string) {
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION renewals_groups_fault() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF NEW.${column}::text = '${value}' THEN RAISE EXCEPTION 'injected fault'; END IF;
         RETURN NEW;
       END $$`,
    )
    .execute(db());
  await sql
    .raw(
      `CREATE TRIGGER renewals_groups_fault BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION renewals_groups_fault()`,
    )
    .execute(db());
}

/** Per subscription: its cycle orders, their status and succeeded payments. */
async function cycleOrders(ids: string[]) {
  return db()
    .selectFrom('orders as o')
    .leftJoin('payments as p', (join) => join.onRef('p.order_id', '=', 'o.id').on('p.status', '=', 'succeeded'))
    .select(['o.subscription_id', 'o.id', 'o.status', 'o.total_amount', 'p.id as payment_id'])
    .where('o.subscription_id', 'in', ids)
    .where('o.billing_reason', '=', 'subscription_cycle')
    .execute();
}

async function eventsOfOrders(orderIds: string[]) {
  const rows = await db()
    .selectFrom('webhook_events')
    .select(['type', sql<string>`payload::jsonb -> 'data' ->> 'id'`.as('order_id')])
    .where('type', 'in', ['order.created', 'order.paid'])
    .execute();
  return rows.filter((row) => orderIds.includes(row.order_id));
}

describe('billing groups', () => {
  it(
    'a renewal that fails rolls its group back: the others are renewed and charged once, it is not billed',
    {
      timeout: 300_000,
    },
    async () => {
      const ids = await dueSubscriptions(COUNT);
      const failing = ids[3]!;
      await failInserts('orders', 'subscription_id', failing);
      clock().advance(32 * DAY);

      // The run fails (and its job is retried) once it has done everything else it could.
      await expect(billingRun()).rejects.toThrow(/injected fault/);

      const orders = await cycleOrders(ids);
      expect(orders.map((o) => o.subscription_id).sort()).toEqual(ids.filter((id) => id !== failing).sort());
      // Nothing the rolled-back group wrote survived: one order.created per order, written once.
      expect(await eventsOfOrders(orders.map((o) => o.id))).toHaveLength(orders.length);
      const failed = await db()
        .selectFrom('subscriptions')
        .selectAll()
        .where('id', '=', failing)
        .executeTakeFirstOrThrow();
      expect(failed.current_period_end!.getTime()).toBeLessThanOrEqual(clock().now().getTime());

      // Fixed: the next run renews it and charges every order once.
      await sql`DROP TRIGGER renewals_groups_fault ON orders`.execute(db());
      const next = await billingRun();
      expect(next).toEqual({ renewals: 1, charge_attempts: COUNT });
      const after = await cycleOrders(ids);
      expect(after).toHaveLength(COUNT);
      expect(new Set(after.map((o) => o.subscription_id)).size).toBe(COUNT);
      expect(after.every((o) => o.status === 'paid' && o.total_amount === 1500 && o.payment_id)).toBe(true);
      expect(await eventsOfOrders(after.map((o) => o.id))).toHaveLength(2 * COUNT);
    },
  );

  it(
    'a group whose charges partly decline records each outcome as alone: paid, past due, then recovered',
    {
      timeout: 300_000,
    },
    async () => {
      const ids = await dueSubscriptions(COUNT);
      const declining = [ids[2]!, ids[7]!, ids[26]!];
      const cardsOf = async (outcome: string) =>
        sql`UPDATE simulated_payment_methods SET outcome = ${outcome}
            WHERE id IN (SELECT payment_method_id FROM subscriptions WHERE id IN (${sql.join(declining)}))`.execute(
          db(),
        );
      await cardsOf('card_declined');
      clock().advance(32 * DAY);

      expect(await billingRun()).toEqual({ renewals: COUNT, charge_attempts: COUNT });
      const charges = async () =>
        db()
          .selectFrom('subscription_charges')
          .select(['subscription_id', 'status', 'attempts'])
          .where('subscription_id', 'in', ids)
          .execute();
      const statuses = async () =>
        new Map(
          (await db().selectFrom('subscriptions').select(['id', 'status']).where('id', 'in', ids).execute()).map(
            (row) => [row.id, row.status],
          ),
        );
      const orders = await cycleOrders(ids);
      for (const id of ids) {
        const mine = orders.filter((o) => o.subscription_id === id);
        expect(mine).toHaveLength(1);
        expect(mine[0]!.status).toBe(declining.includes(id) ? 'pending' : 'paid');
        expect(Boolean(mine[0]!.payment_id)).toBe(!declining.includes(id));
      }
      expect((await eventsOfOrders(orders.map((o) => o.id))).filter((e) => e.type === 'order.paid')).toHaveLength(
        COUNT - declining.length,
      );
      for (const charge of await charges()) {
        expect(charge).toEqual({
          subscription_id: charge.subscription_id,
          status: declining.includes(charge.subscription_id) ? 'pending' : 'paid',
          attempts: 1,
        });
      }
      const failed = await db()
        .selectFrom('payments')
        .select('order_id')
        .where('status', '=', 'failed')
        .where(
          'order_id',
          'in',
          orders.map((o) => o.id),
        )
        .execute();
      expect(failed).toHaveLength(declining.length);
      let now = await statuses();
      expect(ids.filter((id) => now.get(id) === 'past_due').sort()).toEqual([...declining].sort());

      // The cards fixed, the first retry two days later pays each once.
      await cardsOf('succeed');
      clock().advance(2 * DAY + 60_000);
      expect(await billingRun()).toEqual({ renewals: 0, charge_attempts: declining.length });
      const after = await cycleOrders(ids);
      expect(after).toHaveLength(COUNT);
      expect(after.every((o) => o.status === 'paid' && o.payment_id)).toBe(true);
      expect(new Set(after.map((o) => o.payment_id)).size).toBe(COUNT);
      for (const charge of await charges()) {
        expect(charge.status).toBe('paid');
        expect(charge.attempts).toBe(declining.includes(charge.subscription_id) ? 2 : 1);
      }
      now = await statuses();
      expect(ids.every((id) => now.get(id) === 'active')).toBe(true);
    },
  );

  it(
    'recording a group of outcomes fails after the charges: the next run records each once, with no second charge',
    {
      timeout: 300_000,
    },
    async () => {
      const ids = await dueSubscriptions(COUNT);
      clock().advance(32 * DAY);
      // The renewals commit; no payment can be recorded (a crash between the charges and their record).
      await failInserts('payments', 'amount', '1500');
      const capturedBefore = guard.captured.size;
      const callsBefore = guard.calls.length;

      await expect(billingRun()).rejects.toThrow(/injected fault/);
      // Every charge went through at the processor; none was recorded.
      expect(guard.captured.size - capturedBefore).toBe(COUNT);
      const pending = await cycleOrders(ids);
      expect(pending).toHaveLength(COUNT);
      expect(pending.every((o) => o.status === 'pending' && !o.payment_id)).toBe(true);

      await sql`DROP TRIGGER renewals_groups_fault ON payments`.execute(db());
      const next = await billingRun();
      expect(next).toEqual({ renewals: 0, charge_attempts: COUNT });
      // The processor was asked again with the same keys and answered what it had done: no new money.
      expect(guard.captured.size - capturedBefore).toBe(COUNT);
      expect(guard.calls.length - callsBefore).toBe(2 * COUNT);
      const orders = await cycleOrders(ids);
      expect(orders).toHaveLength(COUNT);
      expect(orders.every((o) => o.status === 'paid' && o.payment_id)).toBe(true);
      const payments = await db()
        .selectFrom('payments')
        .select('order_id')
        .where(
          'order_id',
          'in',
          orders.map((o) => o.id),
        )
        .execute();
      expect(payments).toHaveLength(COUNT);
    },
  );

  it(
    'an answer lost between the charge and its record is recorded once by the next run',
    {
      timeout: 300_000,
    },
    async () => {
      const ids = await dueSubscriptions(COUNT);
      clock().advance(32 * DAY);
      const capturedBefore = guard.captured.size;
      guard.failAfterProcessing('chargeSavedPaymentMethod');

      const first = await billingRun();
      expect(first.renewals).toBe(COUNT);
      const orders = await cycleOrders(ids);
      expect(orders.filter((o) => o.status === 'pending')).toHaveLength(1);
      expect(guard.captured.size - capturedBefore).toBe(COUNT);

      // The deferred attempt is due again at once: the next run records the processor's stored answer.
      const next = await billingRun();
      expect(next).toEqual({ renewals: 0, charge_attempts: 1 });
      expect(guard.captured.size - capturedBefore).toBe(COUNT);
      const paid = await cycleOrders(ids);
      expect(paid.every((o) => o.status === 'paid' && o.payment_id)).toBe(true);
      expect(new Set(paid.map((o) => o.payment_id)).size).toBe(COUNT);
    },
  );

  it(
    'a run that outlives its claim and a run that takes its batch over: each period billed once, each charge made once',
    {
      timeout: 300_000,
    },
    async () => {
      const ids = await dueSubscriptions(COUNT);
      clock().advance(32 * DAY);
      const capturedBefore = guard.captured.size;
      // The first run stops in the middle of its first group's charges, its claims still held.
      const hang = guard.hangAfterProcessing('chargeSavedPaymentMethod');
      const slow = billingRun();
      await hang.reached;
      // Its claims expire (five minutes); a second run claims the same charges and works them.
      clock().advance(6 * 60_000);
      const other = await billingRun();
      hang.release();
      const first = await slow;

      expect(first.renewals + other.renewals).toBe(COUNT);
      const orders = await cycleOrders(ids);
      expect(orders).toHaveLength(COUNT);
      expect(new Set(orders.map((o) => o.subscription_id)).size).toBe(COUNT);
      expect(orders.every((o) => o.status === 'paid' && o.payment_id)).toBe(true);
      // One payment per order and one capture per subscription, however many times the processor was asked.
      const payments = await db()
        .selectFrom('payments')
        .select('order_id')
        .where(
          'order_id',
          'in',
          orders.map((o) => o.id),
        )
        .where('status', '=', 'succeeded')
        .execute();
      expect(payments).toHaveLength(COUNT);
      expect(guard.captured.size - capturedBefore).toBe(COUNT);
    },
  );

  it(
    "a group's members that share a customer spend its credit balance once between them",
    {
      timeout: 300_000,
    },
    async () => {
      // Two subscriptions of one customer and one of another, renewed in one group: the group reads its
      // customers at once, but a shared customer's balance must be read again after the first order moves it.
      const { organization, token } = await organizationFactory(server, { name: 'Shared customer' });
      organizationId = organization.id;
      const settings = await server.inject({
        method: 'PATCH',
        url: `/v1/organizations/${organization.id}`,
        headers: bearer(token),
        payload: {
          subscription_settings: {
            allow_multiple_subscriptions: true,
            allow_customer_updates: true,
            proration_behavior: 'prorate',
          },
        },
      });
      expect(settings.statusCode).toBe(200);
      const email = `shared-${randomUUID().slice(0, 8)}@example.com`;
      const first = await subscriptionFactory(server, organization.id, { price: 1500, email });
      const second = await subscriptionFactory(server, organization.id, { price: 1500, email });
      const other = await subscriptionFactory(server, organization.id, { price: 1500 });
      const ids = [first.id, second.id, other.id];
      expect(second.customer.id).toBe(first.customer.id);
      await db()
        .updateTable('customers')
        .set({ credit_balances: JSON.stringify({ usd: 2000 }) })
        .where('id', 'in', [first.customer.id, other.customer.id])
        .execute();
      clock().advance(32 * DAY);

      // Only the order the balance did not cover is charged.
      expect(await billingRun()).toEqual({ renewals: 3, charge_attempts: 1 });

      const orders = await db()
        .selectFrom('orders')
        .select(['subscription_id', 'total_amount', 'applied_balance_amount', 'status'])
        .where('subscription_id', 'in', ids)
        .where('billing_reason', '=', 'subscription_cycle')
        .execute();
      const shared = orders
        .filter((o) => o.subscription_id !== other.id)
        .map((o) => o.applied_balance_amount)
        .sort((a, b) => a - b);
      // 2,000 of credit: one order paid by 1,500 of it, the other by the 500 left and its card.
      expect(shared).toEqual([500, 1500]);
      expect(orders.find((o) => o.subscription_id === other.id)?.applied_balance_amount).toBe(1500);
      expect(orders.every((o) => o.total_amount === 1500 && o.status === 'paid')).toBe(true);
      const balances = await db()
        .selectFrom('customers')
        .select(['id', 'credit_balances'])
        .where('id', 'in', [first.customer.id, other.customer.id])
        .execute();
      expect(Object.fromEntries(balances.map((b) => [b.id, b.credit_balances]))).toEqual({
        [first.customer.id]: { usd: 0 },
        [other.customer.id]: { usd: 500 },
      });
    },
  );
});

// Two connections at once: PostgreSQL's pass (the embedded database runs one transaction at a time).
describe.runIf(usingServerDatabase())('letting claims go', () => {
  it('never waits for a row while holding others: a transaction locking them in another order goes on', async () => {
    const ids = await dueSubscriptions(2);
    const [first, second] = ids as [string, string];
    const token = randomUUID();
    await db()
      .updateTable('subscriptions')
      .set({ renewal_claim: token, renewal_claimed_until: new Date(Date.now() + 60_000) })
      .where('id', 'in', ids)
      .execute();
    // A request's transaction holds the second subscription, then wants the first: a release that locked
    // the first and waited for the second would close the cycle, and one side would die of a deadlock.
    let releasing: Promise<void> | undefined;
    await db()
      .transaction()
      .execute(async (tx) => {
        await tx.selectFrom('subscriptions').select('id').where('id', '=', second).forUpdate().execute();
        releasing = releaseRenewalClaims(db(), ids, token);
        // The release has taken what it could (the first) and waits for the second, holding nothing.
        await expect
          .poll(async () => (await claimsOf([first]))[0], { timeout: 10_000, interval: 50 })
          .toEqual({ id: first, renewal_claim: null });
        await tx.selectFrom('subscriptions').select('id').where('id', '=', first).forUpdate().execute();
      });
    await releasing;
    expect(await claimsOf(ids)).toEqual(
      expect.arrayContaining([
        { id: first, renewal_claim: null },
        { id: second, renewal_claim: null },
      ]),
    );
  });

  async function claimsOf(ids: string[]) {
    return db().selectFrom('subscriptions').select(['id', 'renewal_claim']).where('id', 'in', ids).execute();
  }
});
