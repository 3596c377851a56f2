import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod/v4';
import type { Clock } from '../clock.js';
import type { Executor } from '../db/database.js';
import { IssueCollector } from '../http/errors.js';
import { parseOrThrow } from '../http/validation.js';
import {
  DECLINES,
  detectBrand,
  isExpired,
  luhnValid,
  normalizeCardNumber,
  normalizeExpYear,
  simulatedOutcome,
  validLengthForBrand,
  type SimulatedOutcome,
} from './cards.js';
import type { CardDetails, ChargeResult, PaymentProcessor, RefundResult, SetupResult } from './processor.js';

/**
 * The built-in simulated card processor: the default outside production. A card becomes a
 * single-use confirmation token (`POST /simulated-processor/confirmation-tokens`); charges, setups,
 * off-session charges and refunds then behave as Stripe's test cards do in test mode.
 *
 * Its state lives in the database and is written through the executor it is bound to, so inside a
 * request it takes part in the request's transaction (on the embedded database a second connection
 * would wait for that transaction forever). Only brand, last four digits and expiry of a card are
 * stored, never the number or the CVC.
 */

function simulatedId(prefix: string): string {
  return `${prefix}_sim_${randomBytes(12).toString('hex')}`;
}

export interface CardInput {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}

/** Card forms send numbers or digit strings (as Stripe accepts both). */
const intLike = z.preprocess(
  (value) => (typeof value === 'string' && /^\d{1,4}$/.test(value) ? Number(value) : value),
  z.int(),
);

export const ConfirmationTokenCreate = z.object({
  card: z.object({
    number: z.string().min(1).max(32),
    exp_month: intLike,
    exp_year: intLike,
    cvc: z.string(),
  }),
});

/** Checks a card as a card form would (422 in the API's shape, every problem at once). */
export function validateCard(card: CardInput, now: Date, loc: (string | number)[] = ['body', 'card']) {
  const issues = new IssueCollector();
  const digits = normalizeCardNumber(card.number);
  const brand = digits ? detectBrand(digits) : 'unknown';
  if (!digits || !luhnValid(digits) || !validLengthForBrand(brand, digits.length)) {
    issues.add([...loc, 'number'], 'Your card number is invalid.', 'invalid_number');
  }
  const monthValid = Number.isInteger(card.exp_month) && card.exp_month >= 1 && card.exp_month <= 12;
  if (!monthValid)
    issues.add([...loc, 'exp_month'], "Your card's expiration month is invalid.", 'invalid_expiry_month');
  const year = normalizeExpYear(card.exp_year);
  const yearValid = Number.isInteger(card.exp_year) && year >= 2000 && year <= 2099;
  if (!yearValid) issues.add([...loc, 'exp_year'], "Your card's expiration year is invalid.", 'invalid_expiry_year');
  if (monthValid && yearValid && isExpired(card.exp_month, year, now)) {
    issues.add([...loc, 'exp_year'], 'Your card has expired.', 'expired_card');
  }
  if (!/^\d{3,4}$/.test(card.cvc)) issues.add([...loc, 'cvc'], "Your card's security code is invalid.", 'invalid_cvc');
  issues.throwIfAny();
  return {
    brand,
    last4: digits!.slice(-4),
    exp_month: card.exp_month,
    exp_year: year,
    outcome: simulatedOutcome(digits!),
  };
}

/** Turns a card into a single-use confirmation token; only brand, last four and expiry are kept. */
export async function createSimulatedConfirmationToken(db: Executor, clock: Clock, card: CardInput): Promise<string> {
  const now = clock.now();
  const checked = validateCard(card, now);
  const id = simulatedId('ctoken');
  await db
    .insertInto('simulated_confirmation_tokens')
    .values({ id, created_at: now, used_at: null, ...checked })
    .execute();
  return id;
}

/** `POST /simulated-processor/confirmation-tokens`: a plain route, registered only when this processor is active. */
export function registerSimulatedProcessorRoutes(app: FastifyInstance, deps: { db: Executor; clock: Clock }): void {
  app.post('/simulated-processor/confirmation-tokens', async (request, reply) => {
    const body = parseOrThrow(ConfirmationTokenCreate, request.body, ['body']);
    const id = await createSimulatedConfirmationToken(deps.db, deps.clock, body.card);
    return reply.code(201).type('application/json; charset=utf-8').send(JSON.stringify({ id }));
  });
}

interface StoredCard {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  outcome: string;
}

const cardOf = (row: StoredCard): CardDetails => ({
  brand: row.brand,
  last4: row.last4,
  exp_month: row.exp_month,
  exp_year: row.exp_year,
});

/** The decline a card's outcome gives for a charge (null: the charge goes through). */
function chargeDecline(card: StoredCard, now: Date) {
  if (isExpired(card.exp_month, card.exp_year, now)) return DECLINES.expired_card;
  switch (card.outcome as SimulatedOutcome) {
    case 'card_declined':
    case 'charge_declined_after_attach':
      return DECLINES.card_declined;
    case 'insufficient_funds':
      return DECLINES.insufficient_funds;
    default:
      return null;
  }
}

/** The decline a card gives when it is saved without a charge. */
function setupDecline(card: StoredCard, now: Date) {
  if (isExpired(card.exp_month, card.exp_year, now)) return DECLINES.expired_card;
  if (card.outcome === 'card_declined') return DECLINES.card_declined;
  if (card.outcome === 'insufficient_funds') return DECLINES.insufficient_funds;
  return null;
}

const INVALID_TOKEN = {
  reason: 'invalid_confirmation_token',
  message: 'This confirmation token is invalid or has already been used.',
};

export class SimulatedIdempotencyConflict extends Error {
  constructor(key: string) {
    super(`Idempotency key ${key} was already used for another operation.`);
    this.name = 'SimulatedIdempotencyConflict';
  }
}

export class SimulatedPaymentProcessor implements PaymentProcessor {
  readonly name = 'simulated' as const;

  constructor(
    private readonly db: Executor,
    private readonly clock: Clock,
  ) {}

  withExecutor(db: Executor): PaymentProcessor {
    return new SimulatedPaymentProcessor(db, this.clock);
  }

  /**
   * Runs `operation` once per idempotency key: a retry answers the stored result and moves no money.
   * Concurrent calls with one key wait on a transaction-scoped advisory lock.
   */
  private async once<T>(key: string, operation: string, run: () => Promise<T>): Promise<T> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`simulated:${key}`}, 0))`.execute(this.db);
    const existing = await this.db
      .selectFrom('simulated_idempotency_keys')
      .selectAll()
      .where('key', '=', key)
      .executeTakeFirst();
    if (existing) {
      if (existing.operation !== operation) throw new SimulatedIdempotencyConflict(key);
      return existing.result as T;
    }
    const result = await run();
    await this.db
      .insertInto('simulated_idempotency_keys')
      .values({ key, created_at: this.clock.now(), operation, result: JSON.stringify(result) })
      .execute();
    return result;
  }

  /** Marks the token used and returns its card; undefined when unknown or already used. */
  private async consumeToken(id: string): Promise<StoredCard | undefined> {
    return this.db
      .updateTable('simulated_confirmation_tokens')
      .set({ used_at: this.clock.now() })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .returning(['brand', 'last4', 'exp_month', 'exp_year', 'outcome'])
      .executeTakeFirst();
  }

  private async savePaymentMethod(customerId: string, card: StoredCard): Promise<string> {
    const id = simulatedId('pm');
    await this.db
      .insertInto('simulated_payment_methods')
      .values({ id, created_at: this.clock.now(), customer_id: customerId, ...card })
      .execute();
    return id;
  }

  private async charge(
    amount: number,
    currency: string,
    card: StoredCard,
    paymentMethodId: string | null,
  ): Promise<ChargeResult> {
    const decline = chargeDecline(card, this.clock.now());
    const id = simulatedId('pi');
    await this.db
      .insertInto('simulated_charges')
      .values({
        id,
        created_at: this.clock.now(),
        status: decline ? 'failed' : 'succeeded',
        amount,
        currency,
        payment_method_id: paymentMethodId,
        decline_reason: decline?.reason ?? null,
      })
      .execute();
    if (decline) {
      return {
        status: 'failed',
        processorPaymentId: id,
        declineReason: decline.reason,
        declineMessage: decline.message,
        card: cardOf(card),
      };
    }
    return { status: 'succeeded', processorPaymentId: id, card: cardOf(card), paymentMethodId };
  }

  chargeWithConfirmationToken(input: Parameters<PaymentProcessor['chargeWithConfirmationToken']>[0]) {
    checkAmount(input.amount);
    return this.once(input.idempotencyKey, 'charge_confirmation_token', async (): Promise<ChargeResult> => {
      const card = await this.consumeToken(input.confirmationTokenId);
      if (!card) {
        return {
          status: 'failed',
          processorPaymentId: null,
          declineReason: INVALID_TOKEN.reason,
          declineMessage: INVALID_TOKEN.message,
          card: null,
        };
      }
      // As with Stripe, a method is attached to the customer only when the charge succeeds.
      const declined = chargeDecline(card, this.clock.now()) !== null;
      const paymentMethodId =
        input.savePaymentMethod && !declined ? await this.savePaymentMethod(input.customer.customerId, card) : null;
      return this.charge(input.amount, input.currency, card, paymentMethodId);
    });
  }

  setupWithConfirmationToken(input: Parameters<PaymentProcessor['setupWithConfirmationToken']>[0]) {
    return this.once(input.idempotencyKey, 'setup_confirmation_token', async (): Promise<SetupResult> => {
      const card = await this.consumeToken(input.confirmationTokenId);
      if (!card)
        return { status: 'failed', declineReason: INVALID_TOKEN.reason, declineMessage: INVALID_TOKEN.message };
      const decline = setupDecline(card, this.clock.now());
      if (decline) return { status: 'failed', declineReason: decline.reason, declineMessage: decline.message };
      const paymentMethodId = await this.savePaymentMethod(input.customer.customerId, card);
      return { status: 'succeeded', paymentMethodId, card: cardOf(card) };
    });
  }

  chargeSavedPaymentMethod(input: Parameters<PaymentProcessor['chargeSavedPaymentMethod']>[0]) {
    checkAmount(input.amount);
    return this.once(input.idempotencyKey, 'charge_saved_payment_method', async (): Promise<ChargeResult> => {
      const method = await this.db
        .selectFrom('simulated_payment_methods')
        .select(['brand', 'last4', 'exp_month', 'exp_year', 'outcome'])
        .where('id', '=', input.paymentMethodId)
        .where('customer_id', '=', input.customer.customerId)
        .executeTakeFirst();
      if (!method) {
        return {
          status: 'failed',
          processorPaymentId: null,
          declineReason: 'payment_method_not_found',
          declineMessage: 'The saved payment method does not exist for this customer.',
          card: null,
        };
      }
      return this.charge(input.amount, input.currency, method, input.paymentMethodId);
    });
  }

  refund(input: Parameters<PaymentProcessor['refund']>[0]) {
    checkAmount(input.amount);
    return this.once(input.idempotencyKey, 'refund', async (): Promise<RefundResult> => {
      const charge = await this.db
        .selectFrom('simulated_charges')
        .selectAll()
        .where('id', '=', input.processorPaymentId)
        .forUpdate()
        .executeTakeFirst();
      if (!charge || charge.status !== 'succeeded') {
        return { status: 'failed', processorRefundId: null, failureReason: 'charge_not_refundable' };
      }
      if (input.amount <= 0 || charge.amount_refunded + input.amount > charge.amount) {
        return { status: 'failed', processorRefundId: null, failureReason: 'amount_too_large' };
      }
      const id = simulatedId('re');
      await this.db
        .updateTable('simulated_charges')
        .set({ amount_refunded: charge.amount_refunded + input.amount })
        .where('id', '=', charge.id)
        .execute();
      await this.db
        .insertInto('simulated_refunds')
        .values({ id, created_at: this.clock.now(), charge_id: charge.id, amount: input.amount })
        .execute();
      return { status: 'succeeded', processorRefundId: id };
    });
  }
}

function checkAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount < 0) {
    throw new Error(`amount must be an integer ≥ 0 in minor units, got ${amount}`);
  }
}
