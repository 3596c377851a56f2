import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentProcessor } from '../src/platform/payments/processor.js';
import { SimulatedIdempotencyConflict } from '../src/platform/payments/simulated.js';
import { ADDRESS, checkoutFactory } from './factories/checkouts.js';
import { organizationFactory } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { json, startTestServer, type TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

const customer = { customerId: '6f1c2f0e-4a7e-4c1b-9d55-2d7f0c3a9b11', email: 'buyer@example.com', name: 'Buyer' };
const FUTURE = { exp_month: 12, exp_year: 2030, cvc: '123' };
let keys = 0;
const key = () => `key-${++keys}`;

const tokenize = (card: Record<string, unknown>) =>
  server.inject({ method: 'POST', url: '/simulated-processor/confirmation-tokens', payload: { card } });

async function token(number: string): Promise<string> {
  const response = await tokenize({ number, ...FUTURE });
  expect(response.statusCode).toBe(201);
  return json(response).id;
}

/**
 * Calls the processor as services do: with no transaction open (it keeps its state in short
 * transactions of its own, as a remote service would).
 */
function withProcessor<T>(work: (payments: PaymentProcessor) => Promise<T>): Promise<T> {
  return work(server.runtime.context().payments!);
}

const charge = (confirmationTokenId: string, idempotencyKey = key(), savePaymentMethod = false, amount = 1000) =>
  withProcessor((payments) =>
    payments.chargeWithConfirmationToken({
      amount,
      currency: 'usd',
      confirmationTokenId,
      customer,
      savePaymentMethod,
      idempotencyKey,
      metadata: {},
    }),
  );

describe('POST /simulated-processor/confirmation-tokens', () => {
  it('answers 201 {id} and keeps only brand, last four and expiry', async () => {
    const response = await tokenize({ number: '4242 4242 4242 4242', exp_month: 12, exp_year: 30, cvc: '123' });
    expect(response.statusCode).toBe(201);
    const { id } = json(response);
    expect(json(response)).toEqual({ id: expect.stringMatching(/^ctoken_sim_/) });
    const row = await server.runtime.database.db
      .selectFrom('simulated_confirmation_tokens')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, used_at: null });
    expect(JSON.stringify(row)).not.toContain('4242424242424242');
    expect(JSON.stringify(row)).not.toContain('123"');
  });

  it('validates number (Luhn), expiry by the app clock and CVC: 422 listing every problem', async () => {
    // The harness clock is 2026-01-15: December 2025 has expired, January 2026 has not.
    const response = await tokenize({ number: '4242424242424241', exp_month: 12, exp_year: 2025, cvc: '12' });
    expect(response.statusCode).toBe(422);
    expect(json(response)).toEqual({
      error: 'RequestValidationError',
      detail: [
        { loc: ['body', 'card', 'number'], msg: 'Your card number is invalid.', type: 'invalid_number' },
        { loc: ['body', 'card', 'exp_year'], msg: 'Your card has expired.', type: 'expired_card' },
        { loc: ['body', 'card', 'cvc'], msg: "Your card's security code is invalid.", type: 'invalid_cvc' },
      ],
    });
    expect((await tokenize({ number: '4242424242424242', exp_month: 1, exp_year: 2026, cvc: '1234' })).statusCode).toBe(
      201,
    );
    const month = await tokenize({ number: '4242424242424242', exp_month: 13, exp_year: 2030, cvc: '123' });
    expect(json(month).detail[0].loc).toEqual(['body', 'card', 'exp_month']);
    const missing = await tokenize({ number: '4242424242424242' });
    expect(missing.statusCode).toBe(422);
    expect(json(missing).detail.map((d: { type: string }) => d.type)).toEqual(['missing', 'missing', 'missing']);
  });

  it('is a plain route, absent from the OpenAPI document', async () => {
    const document = json(await server.inject({ method: 'GET', url: '/openapi.json' }));
    expect(Object.keys(document.paths).some((path) => path.includes('simulated'))).toBe(false);
  });
});

describe('charges with Stripe test cards', () => {
  it('4242 4242 4242 4242 succeeds', async () => {
    const result = await charge(await token('4242424242424242'));
    expect(result).toEqual({
      status: 'succeeded',
      processorPaymentId: expect.stringMatching(/^pi_sim_/),
      card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
      paymentMethodId: null,
    });
  });

  it('4000 0000 0000 0002 is declined (card_declined)', async () => {
    expect(await charge(await token('4000000000000002'))).toMatchObject({
      status: 'failed',
      declineReason: 'card_declined',
      declineMessage: 'Your card was declined.',
      card: { brand: 'visa', last4: '0002' },
    });
  });

  it('4000 0000 0000 9995 fails with insufficient_funds', async () => {
    expect(await charge(await token('4000000000009995'))).toMatchObject({
      status: 'failed',
      declineReason: 'insufficient_funds',
      declineMessage: 'Your card has insufficient funds.',
    });
  });

  it('other valid numbers succeed, with their brand', async () => {
    expect((await charge(await token('5555555555554444'))).card).toMatchObject({ brand: 'mastercard' });
    expect((await charge(await token('378282246310005'))).card).toMatchObject({ brand: 'amex', last4: '0005' });
  });

  it('a confirmation token is single-use', async () => {
    const id = await token('4242424242424242');
    expect((await charge(id)).status).toBe('succeeded');
    expect(await charge(id)).toMatchObject({ status: 'failed', declineReason: 'invalid_confirmation_token' });
    expect(await charge('ctoken_sim_unknown')).toMatchObject({ status: 'failed', processorPaymentId: null });
  });

  it('the same idempotency key returns the same result without a second charge', async () => {
    const id = await token('4242424242424242');
    const first = await charge(id, 'order-123-attempt-1');
    const again = await charge(id, 'order-123-attempt-1');
    expect(again).toEqual(first);
    const charges = await server.runtime.database.db
      .selectFrom('simulated_charges')
      .select('id')
      .where('id', '=', (first as { processorPaymentId: string }).processorPaymentId)
      .execute();
    expect(charges).toHaveLength(1);
    await expect(
      withProcessor((payments) =>
        payments.refund({ processorPaymentId: 'x', amount: 1, idempotencyKey: 'order-123-attempt-1', reason: 'other' }),
      ),
    ).rejects.toBeInstanceOf(SimulatedIdempotencyConflict);
  });

  it("keeps its own state: a caller's rolled-back transaction does not undo a charge", async () => {
    const id = await token('4242424242424242');
    const result = await charge(id, 'own-state');
    await expect(
      server.runtime.database.db.transaction().execute(async () => {
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await charge(id, 'own-state')).toEqual(result);
    expect(await charge(id)).toMatchObject({ status: 'failed', declineReason: 'invalid_confirmation_token' });
  });
});

describe('authentication (3-D Secure)', () => {
  const authenticate = (clientSecret: string, approve: boolean) =>
    server.inject({
      method: 'POST',
      url: '/simulated-processor/payment-intents/authenticate',
      payload: { client_secret: clientSecret, approve },
    });

  it('4000 0025 0000 3155 waits for the buyer; approved, it succeeds and its method is saved', async () => {
    const first = await charge(await token('4000002500003155'), key(), true);
    expect(first).toMatchObject({ status: 'requires_action', clientSecret: expect.stringMatching(/_secret_/) });
    const { clientSecret, processorPaymentId } = first as { clientSecret: string; processorPaymentId: string };
    const retrieve = () =>
      withProcessor((payments) =>
        payments.retrieveCharge({ idempotencyKey: 'unused', processorPaymentId, customer, savePaymentMethod: true }),
      );
    expect((await retrieve()).status).toBe('requires_action');
    const approved = await authenticate(clientSecret, true);
    expect(approved.statusCode).toBe(200);
    expect(json(approved)).toEqual({ status: 'succeeded' });
    const done = await retrieve();
    expect(done).toMatchObject({ status: 'succeeded', processorPaymentId, card: { last4: '3155' } });
    // Off-session charges of the saved method need no authentication.
    const renewal = await withProcessor((payments) =>
      payments.chargeSavedPaymentMethod({
        amount: 500,
        currency: 'usd',
        paymentMethodId: (done as { paymentMethodId: string }).paymentMethodId,
        customer,
        idempotencyKey: key(),
        metadata: {},
      }),
    );
    expect(renewal.status).toBe('succeeded');
    // Answered once: a second answer finds nothing waiting.
    expect((await authenticate(clientSecret, false)).statusCode).toBe(404);
  });

  it('refused, the charge fails with the authentication failure', async () => {
    const idempotencyKey = key();
    const first = (await charge(await token('4000002500003155'), idempotencyKey)) as { clientSecret: string };
    expect(json(await authenticate(first.clientSecret, false))).toEqual({ status: 'failed' });
    const found = await withProcessor((payments) =>
      payments.retrieveCharge({ idempotencyKey, processorPaymentId: null, customer, savePaymentMethod: false }),
    );
    expect(found).toMatchObject({ status: 'failed', declineReason: 'payment_intent_authentication_failure' });
    expect(
      await withProcessor((payments) =>
        payments.retrieveCharge({
          idempotencyKey: key(),
          processorPaymentId: null,
          customer,
          savePaymentMethod: false,
        }),
      ),
    ).toEqual({ status: 'not_found' });
    expect((await authenticate('pi_sim_unknown_secret_x', true)).statusCode).toBe(404);
    expect((await authenticate(first.clientSecret, 'yes' as never)).statusCode).toBe(422);
  });
});

describe('saved payment methods and off-session charges', () => {
  it('saves the card of a succeeded charge and charges it off-session later', async () => {
    const first = await charge(await token('4242424242424242'), key(), true);
    expect(first.status).toBe('succeeded');
    const paymentMethodId = (first as { paymentMethodId: string }).paymentMethodId;
    expect(paymentMethodId).toMatch(/^pm_sim_/);
    const renewal = await withProcessor((payments) =>
      payments.chargeSavedPaymentMethod({
        amount: 1500,
        currency: 'usd',
        paymentMethodId,
        customer,
        idempotencyKey: key(),
        metadata: {},
      }),
    );
    expect(renewal).toMatchObject({ status: 'succeeded', paymentMethodId, card: { last4: '4242' } });
    const stranger = await withProcessor((payments) =>
      payments.chargeSavedPaymentMethod({
        amount: 1500,
        currency: 'usd',
        paymentMethodId,
        customer: { ...customer, customerId: 'someone-else' },
        idempotencyKey: key(),
        metadata: {},
      }),
    );
    expect(stranger).toMatchObject({ status: 'failed', declineReason: 'payment_method_not_found' });
  });

  it('off-session charges with one key, made at once or again, charge once and give one answer', async () => {
    const first = await charge(await token('4242424242424242'), key(), true);
    const paymentMethodId = (first as { paymentMethodId: string }).paymentMethodId;
    const idempotencyKey = key();
    const offSession = () =>
      withProcessor((payments) =>
        payments.chargeSavedPaymentMethod({
          amount: 1234,
          currency: 'usd',
          paymentMethodId,
          customer,
          idempotencyKey,
          metadata: {},
        }),
      );
    const answers = await Promise.all(Array.from({ length: 6 }, offSession));
    answers.push(await offSession());
    expect(answers[0]).toMatchObject({ status: 'succeeded', paymentMethodId, card: { last4: '4242' } });
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    const charges = await server.runtime.database.db
      .selectFrom('simulated_charges')
      .selectAll()
      .where('payment_method_id', '=', paymentMethodId)
      .where('amount', '=', 1234)
      .execute();
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({
      id: (answers[0] as { processorPaymentId: string }).processorPaymentId,
      status: 'succeeded',
      amount_refunded: 0,
      brand: 'visa',
      last4: '4242',
      customer_id: customer.customerId,
      outcome: 'succeed',
    });
    // A key is one operation's: a refund under it is refused, as for any other call.
    await expect(
      withProcessor((payments) =>
        payments.refund({ processorPaymentId: charges[0]!.id, amount: 1, idempotencyKey, reason: 'other' }),
      ),
    ).rejects.toBeInstanceOf(SimulatedIdempotencyConflict);
    // A payment method of another customer is not found, and its answer is kept under its key too.
    const strangerKey = key();
    const stranger = () =>
      withProcessor((payments) =>
        payments.chargeSavedPaymentMethod({
          amount: 1234,
          currency: 'usd',
          paymentMethodId,
          customer: { ...customer, customerId: 'someone-else' },
          idempotencyKey: strangerKey,
          metadata: {},
        }),
      );
    const refused = await stranger();
    expect(refused).toMatchObject({
      status: 'failed',
      processorPaymentId: null,
      declineReason: 'payment_method_not_found',
    });
    expect(await stranger()).toEqual(refused);
  });

  it('charges several saved methods in one call, each as a call of its own would', async () => {
    const saved = async (number: string) => {
      const paid = await charge(await token(number), key(), true);
      return (paid as { paymentMethodId: string }).paymentMethodId;
    };
    const good = await saved('4242424242424242');
    const poor = await withProcessor(async (payments) =>
      payments.setupWithConfirmationToken({
        confirmationTokenId: await token('4000000000000341'),
        customer,
        idempotencyKey: key(),
        metadata: {},
      }),
    );
    const offSession = (paymentMethodId: string, idempotencyKey: string, amount = 700) => ({
      amount,
      currency: 'usd',
      paymentMethodId,
      customer,
      idempotencyKey,
      metadata: {},
    });
    const earlierKey = key();
    const earlier = await withProcessor((payments) => payments.chargeSavedPaymentMethod(offSession(good, earlierKey)));
    const refundKey = key();
    await withProcessor((payments) =>
      payments.refund({
        processorPaymentId: (earlier as { processorPaymentId: string }).processorPaymentId,
        amount: 1,
        idempotencyKey: refundKey,
        reason: 'other',
      }),
    );
    const repeated = key();
    const inputs = [
      offSession(good, key(), 701),
      offSession((poor as { paymentMethodId: string }).paymentMethodId, key(), 702),
      offSession('pm_sim_unknown', key(), 703),
      offSession(good, repeated, 704),
      offSession(good, earlierKey),
      offSession(good, repeated, 704),
      offSession(good, refundKey),
      offSession(good, key(), -1),
    ];
    const answers = await withProcessor((payments) => payments.chargeSavedPaymentMethods(inputs));
    expect(answers).toHaveLength(inputs.length);
    expect(answers[0]).toMatchObject({ status: 'succeeded', paymentMethodId: good, card: { last4: '4242' } });
    expect(answers[1]).toMatchObject({ status: 'failed', declineReason: 'card_declined' });
    expect(answers[2]).toMatchObject({ status: 'failed', declineReason: 'payment_method_not_found' });
    expect(answers[3]).toMatchObject({ status: 'succeeded' });
    // A key used before answers what it answered then; one used twice here is charged once.
    expect(answers[4]).toEqual(earlier);
    expect(answers[5]).toEqual(answers[3]);
    // A key of another operation, or an amount no charge can have, is that charge's error alone.
    expect(answers[6]).toBeInstanceOf(SimulatedIdempotencyConflict);
    expect(answers[7]).toBeInstanceOf(Error);
    const charges = await server.runtime.database.db
      .selectFrom('simulated_charges')
      .select(['id', 'amount', 'status'])
      .where('amount', 'in', [701, 702, 703, 704])
      .orderBy('amount')
      .execute();
    expect(charges).toEqual([
      { id: (answers[0] as { processorPaymentId: string }).processorPaymentId, amount: 701, status: 'succeeded' },
      { id: (answers[1] as { processorPaymentId: string }).processorPaymentId, amount: 702, status: 'failed' },
      { id: (answers[3] as { processorPaymentId: string }).processorPaymentId, amount: 704, status: 'succeeded' },
    ]);
    // Asked again, every answer is the stored one and no money moves.
    const again = await withProcessor((payments) => payments.chargeSavedPaymentMethods(inputs.slice(0, 6)));
    expect(again).toEqual(answers.slice(0, 6));
    const after = await server.runtime.database.db
      .selectFrom('simulated_charges')
      .select('id')
      .where('amount', 'in', [701, 702, 703, 704])
      .execute();
    expect(after).toHaveLength(3);
  });

  it('4000 0000 0000 0341 can be saved, but every later off-session charge fails', async () => {
    const setup = await withProcessor((payments) =>
      payments.setupWithConfirmationToken({
        confirmationTokenId: '',
        customer,
        idempotencyKey: key(),
        metadata: {},
      }),
    );
    expect(setup.status).toBe('failed');
    const tokenId = await token('4000000000000341');
    const saved = await withProcessor(async (payments) =>
      payments.setupWithConfirmationToken({
        confirmationTokenId: tokenId,
        customer,
        idempotencyKey: key(),
        metadata: {},
      }),
    );
    expect(saved).toMatchObject({ status: 'succeeded', card: { brand: 'visa', last4: '0341' } });
    for (let attempt = 0; attempt < 2; attempt++) {
      const renewal = await withProcessor((payments) =>
        payments.chargeSavedPaymentMethod({
          amount: 900,
          currency: 'usd',
          paymentMethodId: (saved as { paymentMethodId: string }).paymentMethodId,
          customer,
          idempotencyKey: key(),
          metadata: {},
        }),
      );
      expect(renewal).toMatchObject({ status: 'failed', declineReason: 'card_declined' });
    }
  });

  it('a declined card cannot be saved', async () => {
    const tokenId = await token('4000000000000002');
    const setup = await withProcessor(async (payments) =>
      payments.setupWithConfirmationToken({
        confirmationTokenId: tokenId,
        customer,
        idempotencyKey: key(),
        metadata: {},
      }),
    );
    expect(setup).toEqual({
      status: 'failed',
      declineReason: 'card_declined',
      declineMessage: 'Your card was declined.',
    });
  });
});

describe('refunds', () => {
  it('refund succeeded charges up to the charged amount', async () => {
    const paid = await charge(await token('4242424242424242'), key(), false, 1000);
    const processorPaymentId = (paid as { processorPaymentId: string }).processorPaymentId;
    const refund = (amount: number, idempotencyKey = key()) =>
      withProcessor((payments) => payments.refund({ processorPaymentId, amount, idempotencyKey, reason: 'other' }));
    expect(await refund(600, 'refund-1')).toEqual({
      status: 'succeeded',
      processorRefundId: expect.stringMatching(/^re_sim_/),
    });
    // A retry of the same refund moves no money.
    expect((await refund(600, 'refund-1')).status).toBe('succeeded');
    expect(await refund(500)).toEqual({ status: 'failed', processorRefundId: null, failureReason: 'amount_too_large' });
    expect((await refund(400)).status).toBe('succeeded');
    expect((await refund(1)).status).toBe('failed');

    const declined = await charge(await token('4000000000000002'));
    const failed = await withProcessor((payments) =>
      payments.refund({
        processorPaymentId: (declined as { processorPaymentId: string }).processorPaymentId,
        amount: 1,
        idempotencyKey: key(),
        reason: 'other',
      }),
    );
    expect(failed).toMatchObject({ status: 'failed', failureReason: 'charge_not_refundable' });
  });
});

describe('processor choice', () => {
  it('uses Stripe when STRIPE_SECRET_KEY is set: no simulated routes', async () => {
    const withStripe = await startTestServer({
      config: { stripeSecretKey: 'sk_test_123', stripePublishableKey: 'pk_test_123' },
    });
    try {
      expect(withStripe.context().payments?.name).toBe('stripe');
      const response = await withStripe.inject({
        method: 'POST',
        url: '/simulated-processor/confirmation-tokens',
        payload: { card: { number: '4242424242424242', ...FUTURE } },
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await withStripe.stop();
    }
  });

  it('refuses clearly when neither Stripe nor simulated payments are allowed', async () => {
    const bare = await startTestServer({ config: { allowSimulatedPayments: false } });
    try {
      await expect(
        bare.context().payments!.refund({ processorPaymentId: 'x', amount: 1, idempotencyKey: 'k', reason: 'other' }),
      ).rejects.toThrow('No payment processor is configured');
      const response = await bare.inject({
        method: 'POST',
        url: '/simulated-processor/confirmation-tokens',
        payload: {},
      });
      expect(response.statusCode).toBe(404);
      // A checkout confirm is refused before anything is committed: the checkout stays open.
      const { organization } = await organizationFactory(bare);
      const { product } = await productFactory(bare, organization.id);
      const checkout = await checkoutFactory(bare, organization.id, [product.id]);
      const confirm = await bare.inject({
        method: 'POST',
        url: `/v1/checkouts/client/${checkout.client_secret}/confirm`,
        payload: {
          customer_email: 'buyer@example.com',
          customer_name: 'Buyer',
          customer_billing_address: ADDRESS,
          confirmation_token_id: 'ctoken_anything',
        },
      });
      expect(confirm.statusCode).toBe(500);
      const state = await bare.inject({ method: 'GET', url: `/v1/checkouts/client/${checkout.client_secret}` });
      expect(json(state)).toMatchObject({ status: 'open', customer_id: null });
      expect(await bare.runtime.database.db.selectFrom('checkout_payment_attempts').select('id').execute()).toEqual([]);
    } finally {
      await bare.stop();
    }
  });
});
