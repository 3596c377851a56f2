import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../src/platform/clock.js';
import { sql } from 'kysely';
import { reconcileCheckoutPayments } from '../src/modules/checkouts/checkouts.reconcile.js';
import { settleAttempt } from '../src/modules/checkouts/checkouts.payment.js';
import { ADDRESS, CARDS, checkoutFactory, confirmationToken } from './factories/checkouts.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { discountFactory } from './factories/discounts.js';
import { productFactory } from './factories/products.js';
import { json, startTestServer, usingServerDatabase, type TestServer } from './harness.js';
import { installProcessorGuard, type ProcessorGuard } from './support/processor-guard.js';

/**
 * Checkout confirm takes money in three steps: the attempt is committed before the processor is called,
 * the processor is called outside any transaction with one idempotency key per attempt, and the outcome
 * is recorded in a transaction of its own. Whatever fails in between, the buyer is charged once.
 */
let server: TestServer;
let acme: OrganizationFixture;
let guard: ProcessorGuard;

beforeAll(async () => {
  guard = installProcessorGuard();
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
});
afterAll(async () => {
  await server?.stop();
  guard?.uninstall();
});
afterEach(() => {
  // No processor call, in any test of this file, was made with a transaction open.
  expect(guard.violations.map((violation) => `${violation.method}\n${violation.stack}`)).toEqual([]);
});

const confirm = (secret: string, payload: object) =>
  server.inject({ method: 'POST', url: `/v1/checkouts/client/${secret}/confirm`, payload });

const BUYER = { customer_email: 'buyer@example.com', customer_name: 'Bea Buyer', customer_billing_address: ADDRESS };

async function paidCheckout() {
  const { product } = await productFactory(server, acme.organization.id);
  return checkoutFactory(server, acme.organization.id, [product.id]);
}

async function ordersOf(checkoutId: string) {
  return server.runtime.database.db.selectFrom('orders').selectAll().where('checkout_id', '=', checkoutId).execute();
}

async function paymentsOf(checkoutId: string) {
  return server.runtime.database.db.selectFrom('payments').selectAll().where('checkout_id', '=', checkoutId).execute();
}

describe('a processor answer lost after the charge', () => {
  it('the retry is answered by the same charge: charged once, one order', async () => {
    const checkout = await paidCheckout();
    const capturedBefore = guard.captured.size;
    guard.failAfterProcessing('chargeWithConfirmationToken');
    const lost = await confirm(checkout.client_secret, {
      ...BUYER,
      confirmation_token_id: await confirmationToken(server),
    });
    expect(lost.statusCode).toBe(400);
    expect(json(lost).error).toBe('PaymentError');
    expect(guard.captured.size).toBe(capturedBefore + 1);

    // The page makes a new token and confirms again.
    const retry = await confirm(checkout.client_secret, {
      ...BUYER,
      confirmation_token_id: await confirmationToken(server),
    });
    expect(retry.statusCode).toBe(200);
    expect(json(retry).status).toBe('confirmed');
    expect(guard.captured.size).toBe(capturedBefore + 1);
    expect(await ordersOf(checkout.id)).toHaveLength(1);
    const payments = await paymentsOf(checkout.id);
    expect(payments.map((payment) => payment.status)).toEqual(['succeeded']);
    expect(payments[0]!.order_id).toBe((await ordersOf(checkout.id))[0]!.id);
  });
});

describe('reconciliation', () => {
  it('finishes a payment left pending by a crash between the charge and its record, exactly once', async () => {
    const checkout = await paidCheckout();
    const capturedBefore = guard.captured.size;
    const hang = guard.hangAfterProcessing('chargeWithConfirmationToken');
    const stuck = confirm(checkout.client_secret, { ...BUYER, confirmation_token_id: await confirmationToken(server) });
    await hang.reached;
    const attempt = await server.runtime.database.db
      .selectFrom('checkout_payment_attempts')
      .selectAll()
      .where('checkout_id', '=', checkout.id)
      .executeTakeFirstOrThrow();
    expect(attempt).toMatchObject({ status: 'pending', idempotency_key: `checkout:${checkout.id}:attempt:1` });

    // Younger than a minute: left alone (its request may still be running).
    const clock = server.clock as ManualClock;
    expect(await reconcileCheckoutPayments(server.context())).toMatchObject({ settled: 0 });
    clock.advance(2 * 60_000);
    expect(await reconcileCheckoutPayments(server.context())).toMatchObject({ settled: 1 });
    expect(await ordersOf(checkout.id)).toHaveLength(1);
    expect(
      json(await server.inject({ method: 'GET', url: `/v1/checkouts/client/${checkout.client_secret}` })).status,
    ).toBe('succeeded');

    // The request wakes up: it finds the payment settled and records nothing twice.
    hang.release();
    const answer = await stuck;
    expect(answer.statusCode).toBe(200);
    expect(await reconcileCheckoutPayments(server.context())).toMatchObject({ settled: 0 });
    expect(await ordersOf(checkout.id)).toHaveLength(1);
    expect((await paymentsOf(checkout.id)).map((payment) => payment.status)).toEqual(['succeeded']);
    expect(guard.captured.size).toBe(capturedBefore + 1);
  });
});

describe('concurrent confirms', () => {
  it('two confirms of one checkout at once charge once', async () => {
    const checkout = await paidCheckout();
    const capturedBefore = guard.captured.size;
    const [first, second] = await Promise.all([
      confirm(checkout.client_secret, { ...BUYER, confirmation_token_id: await confirmationToken(server) }),
      confirm(checkout.client_secret, { ...BUYER, confirmation_token_id: await confirmationToken(server) }),
    ]);
    const statuses = [first.statusCode, second.statusCode].sort();
    expect(statuses).toEqual([200, 403]);
    const refused = [first, second].find((response) => response.statusCode === 403)!;
    expect(json(refused).error).toBe('NotOpenCheckout');
    expect(guard.captured.size).toBe(capturedBefore + 1);
    expect(await ordersOf(checkout.id)).toHaveLength(1);
  });
});

describe('lock order', () => {
  // The embedded database runs one transaction at a time: only a server can hold two at once.
  it.skipIf(!usingServerDatabase())(
    'settling an attempt waits for its checkout before taking the attempt, as a confirm takes them',
    async () => {
      const checkout = await paidCheckout();
      const paid = await confirm(checkout.client_secret, {
        ...BUYER,
        confirmation_token_id: await confirmationToken(server),
      });
      expect(paid.statusCode).toBe(200);
      const db = server.runtime.database.db;
      const attempt = await db
        .selectFrom('checkout_payment_attempts')
        .select('id')
        .where('checkout_id', '=', checkout.id)
        .executeTakeFirstOrThrow();
      const ctx = server.context();
      let finished = false;
      await db.transaction().execute(async (tx) => {
        // A second confirm of the checkout: its row first…
        await tx.selectFrom('checkouts').select('id').where('id', '=', checkout.id).forUpdate().execute();
        const settling = settleAttempt(ctx, ctx.transactions!, attempt.id, { status: 'interrupted' }).then(() => {
          finished = true;
        });
        // …while the settle runs: it must be waiting for that row, holding nothing the confirm needs next.
        for (let waited = 0; !finished; waited += 20) {
          const waiting = await sql<{ n: number }>`
            SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db);
          if (waiting.rows[0]!.n > 0) break;
          if (waited > 10_000) throw new Error('the settle neither waited nor finished');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(finished).toBe(false);
        // …then its attempt, at once (NOWAIT fails if the settle took the attempt first).
        await sql`SELECT id FROM checkout_payment_attempts WHERE id = ${attempt.id} FOR UPDATE NOWAIT`.execute(tx);
        void settling;
      });
      await new Promise<void>((resolve) => {
        const check = () => (finished ? resolve() : setTimeout(check, 10));
        check();
      });
    },
  );
});

describe('idempotency keys', () => {
  it('one key per attempt: it moves on only after a recorded decline', async () => {
    const checkout = await paidCheckout();
    const declined = await confirm(checkout.client_secret, {
      ...BUYER,
      confirmation_token_id: await confirmationToken(server, CARDS.declined),
    });
    expect(declined.statusCode).toBe(400);
    const paid = await confirm(checkout.client_secret, {
      ...BUYER,
      confirmation_token_id: await confirmationToken(server),
    });
    expect(paid.statusCode).toBe(200);
    const attempts = await server.runtime.database.db
      .selectFrom('checkout_payment_attempts')
      .select(['attempt', 'status', 'idempotency_key'])
      .where('checkout_id', '=', checkout.id)
      .orderBy('attempt')
      .execute();
    expect(attempts).toEqual([
      { attempt: 1, status: 'failed', idempotency_key: `checkout:${checkout.id}:attempt:1` },
      { attempt: 2, status: 'succeeded', idempotency_key: `checkout:${checkout.id}:attempt:2` },
    ]);
  });
});

describe('3-D Secure (simulated test card 4000 0025 0000 3155)', () => {
  const authenticate = (clientSecret: string, approve: boolean) =>
    server.inject({
      method: 'POST',
      url: '/simulated-processor/payment-intents/authenticate',
      payload: { client_secret: clientSecret, approve },
    });

  async function confirmNeedingAuthentication() {
    const checkout = await paidCheckout();
    const body = { ...BUYER, customer_email: 'threeds@example.com', confirmation_token_id: '' };
    body.confirmation_token_id = await confirmationToken(server, '4000002500003155');
    const first = await confirm(checkout.client_secret, body);
    expect(first.statusCode).toBe(200);
    const metadata = json(first).payment_processor_metadata;
    expect(metadata).toMatchObject({ intent_status: 'requires_action', intent_client_secret: expect.any(String) });
    expect(json(first).customer_session_token).toBeNull();
    const state = json(await server.inject({ method: 'GET', url: `/v1/checkouts/client/${checkout.client_secret}` }));
    // Not a decline: the checkout stays confirmed while the buyer authenticates (a page opened again
    // learns it); the client secret is only in confirm's answer.
    expect(state.status).toBe('confirmed');
    expect(state.payment_processor_metadata).toEqual({ intent_status: 'requires_action' });
    return { checkout, body, clientSecret: metadata.intent_client_secret as string };
  }

  it('approved in the page, the next confirm completes the same charge', async () => {
    const capturedBefore = guard.captured.size;
    const { checkout, body, clientSecret } = await confirmNeedingAuthentication();
    // Confirming again before authenticating gives the same challenge back (a reload of the page).
    const again = await confirm(checkout.client_secret, body);
    expect(json(again).payment_processor_metadata.intent_client_secret).toBe(clientSecret);
    expect((await authenticate(clientSecret, true)).statusCode).toBe(200);
    const done = await confirm(checkout.client_secret, body);
    expect(done.statusCode).toBe(200);
    expect(json(done).payment_processor_metadata).toEqual({});
    expect(guard.captured.size).toBe(capturedBefore + 1);
    expect(await ordersOf(checkout.id)).toHaveLength(1);
    expect((await paymentsOf(checkout.id)).map((payment) => payment.status)).toEqual(['succeeded']);
  });

  it('refused, the confirm answers the decline and the checkout reopens for another card', async () => {
    const { checkout, body, clientSecret } = await confirmNeedingAuthentication();
    expect((await authenticate(clientSecret, false)).statusCode).toBe(200);
    const declined = await confirm(checkout.client_secret, body);
    expect(declined.statusCode).toBe(400);
    expect(json(declined)).toMatchObject({ error: 'PaymentError', detail: expect.stringContaining('authenticate') });
    expect(
      json(await server.inject({ method: 'GET', url: `/v1/checkouts/client/${checkout.client_secret}` })).status,
    ).toBe('open');
    const paid = await confirm(checkout.client_secret, {
      ...body,
      confirmation_token_id: await confirmationToken(server),
    });
    expect(paid.statusCode).toBe(200);
    expect(await ordersOf(checkout.id)).toHaveLength(1);
    expect((await paymentsOf(checkout.id)).map((payment) => payment.status).sort()).toEqual(['failed', 'succeeded']);
  });
});

describe('nothing due today, a card saved for the renewals (setup)', () => {
  it('a lost answer is asked again: one saved method, one subscription', async () => {
    const { product } = await productFactory(server, acme.organization.id, { recurring_interval: 'month' });
    const discount = await discountFactory(server, acme.organization.id, { basis_points: 10_000, duration: 'once' });
    const checkout = await checkoutFactory(server, acme.organization.id, [product.id], { discount_id: discount.id });
    guard.failAfterProcessing('setupWithConfirmationToken');
    const body = { ...BUYER, customer_email: 'trial@example.com' };
    const lost = await confirm(checkout.client_secret, {
      ...body,
      confirmation_token_id: await confirmationToken(server),
    });
    expect(lost.statusCode).toBe(400);
    const retry = await confirm(checkout.client_secret, {
      ...body,
      confirmation_token_id: await confirmationToken(server),
    });
    expect(retry.statusCode).toBe(200);
    const attempts = await server.runtime.database.db
      .selectFrom('checkout_payment_attempts')
      .select(['kind', 'status', 'amount'])
      .where('checkout_id', '=', checkout.id)
      .execute();
    expect(attempts).toEqual([{ kind: 'setup', status: 'succeeded', amount: 0 }]);
    const subscription = await server.runtime.database.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('checkout_id', '=', checkout.id)
      .executeTakeFirstOrThrow();
    expect(subscription.payment_method_id).toMatch(/^pm_sim_/);
    const methods = await server.runtime.database.db
      .selectFrom('simulated_payment_methods')
      .select('id')
      .where('customer_id', '=', subscription.customer_id)
      .execute();
    expect(methods).toHaveLength(1);
    expect(await paymentsOf(checkout.id)).toEqual([]);
  });
});
