import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../src/platform/clock.js';
import type { PaymentProcessor } from '../src/platform/payments/processor.js';
import { attemptCharge, cycleSubscription } from '../src/modules/subscriptions/subscriptions.renewal.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { subscriptionFactory } from './factories/subscriptions.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';
import { installProcessorGuard, type ProcessorGuard } from './support/processor-guard.js';

/** Renewal charges racing with the rest of the world: what the processor did is always recorded. */
let server: TestServer;
let acme: OrganizationFixture;
beforeAll(async () => {
  // No workers: the periodic billing run would race this test for the same charge and refund.
  server = await startTestServer({ work: false });
  acme = await organizationFactory(server, { name: 'Acme' });
});
// Every charge, retry and refund of these scenarios is made with no database transaction open.
let guard: ProcessorGuard;
beforeAll(() => {
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
const run = {
  transaction: <T>(fn: (ctx: ReturnType<TestServer['context']>) => Promise<T>) =>
    db()
      .transaction()
      .execute((tx) => fn(server.runtime.context(tx))),
};

/** The deployment's processor, holding its answer to a renewal charge until released. */
function heldProcessor(real: PaymentProcessor) {
  let release!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const atProcessor = new Promise<void>((resolve) => (reached = resolve));
  const processor: PaymentProcessor = Object.assign(Object.create(real) as PaymentProcessor, {
    chargeSavedPaymentMethod: async (input: Parameters<PaymentProcessor['chargeSavedPaymentMethod']>[0]) => {
      const result = await real.chargeSavedPaymentMethod(input);
      reached();
      await gate;
      return result;
    },
  });
  return { processor, atProcessor, release };
}

describe('a revoke while a renewal charge is at the processor', () => {
  it('records the payment the processor took, then refunds it', async () => {
    const subscription = await subscriptionFactory(server, acme.organization.id, { price: 1000 });
    (server.clock as ManualClock).advance(
      new Date(subscription.current_period_end!).getTime() - server.clock.now().getTime(),
    );
    await run.transaction((ctx) => cycleSubscription(ctx, subscription.id, new Date(subscription.current_period_end!)));
    const order = await db()
      .selectFrom('orders')
      .selectAll()
      .where('subscription_id', '=', subscription.id)
      .where('billing_reason', '=', 'subscription_cycle')
      .executeTakeFirstOrThrow();

    const held = heldProcessor(server.context().payments!);
    const charging = attemptCharge({ ...server.context(), payments: held.processor }, run, order.id);
    await held.atProcessor;
    const revoked = await server.inject({
      method: 'DELETE',
      url: `/v1/subscriptions/${subscription.id}`,
      headers: bearer(acme.token),
    });
    expect(revoked.statusCode).toBe(200);
    held.release();
    await charging;

    const payments = await db().selectFrom('payments').selectAll().where('order_id', '=', order.id).execute();
    expect(payments.map((p) => [p.status, Number(p.amount)])).toEqual([['succeeded', 1000]]);
    const refunded = json(
      await server.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: bearer(acme.token) }),
    );
    expect(refunded).toMatchObject({ status: 'refunded', refunded_amount: 1000, total_amount: 1000 });
    const charge = await db()
      .selectFrom('subscription_charges')
      .selectAll()
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(charge.status).toBe('refunded');
    const refunds = await db()
      .selectFrom('simulated_refunds')
      .select(['amount'])
      .where('charge_id', '=', payments[0]!.processor_payment_id!)
      .execute();
    expect(refunds.map((r) => Number(r.amount))).toEqual([1000]);
    const events = await db()
      .selectFrom('webhook_events')
      .select('type')
      .where('organization_id', '=', acme.organization.id)
      .where('type', '=', 'order.refunded')
      .execute();
    expect(events).toHaveLength(1);
    // The seller sees it among the refunds: the whole order, made by Tessera with the charge's key.
    const listed = json(
      await server.inject({ method: 'GET', url: `/v1/refunds/?order_id=${order.id}`, headers: bearer(acme.token) }),
    );
    expect(listed.items).toEqual([
      expect.objectContaining({ status: 'succeeded', reason: 'other', amount: 1000, tax_amount: 0 }),
    ]);
    const [refund] = await db().selectFrom('refunds').selectAll().where('order_id', '=', order.id).execute();
    expect(refund).toMatchObject({ idempotency_key: `subscription-charge-refund:${order.id}`, processor_amount: 1000 });
  });
});
