import { randomBytes } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { SimulatedChargesTable } from '../../db/tables/orders.js';
import type { SimulatedSetupIntentsTable } from '../../db/tables/payment-methods.js';
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
import type {
  CardDetails,
  ChargeResult,
  CheckoutChargeResult,
  PaymentMethodSetupResult,
  PaymentProcessor,
  RefundResult,
  RetrievedCharge,
  RetrievedSetup,
  SavedMethodCharge,
  SetupResult,
} from './processor.js';

/**
 * The built-in simulated card processor: the default outside production. A card becomes a
 * single-use confirmation token (`POST /simulated-processor/confirmation-tokens`); charges, setups,
 * off-session charges and refunds then behave as Stripe's test cards do in test mode.
 *
 * Its state lives in the database but it behaves as a remote service: every call runs in a short
 * transaction of its own on the pool, never in the caller's. Callers therefore never call it with a
 * transaction open (with the embedded database that call would wait for that transaction forever, and
 * with any processor the money would move while the caller's records could still roll back). Only
 * brand, last four digits and expiry of a card are stored, never the number or the CVC.
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

export const PaymentAuthentication = z.object({
  client_secret: z.string().min(1).max(200),
  approve: z.boolean(),
});

/**
 * Plain routes, registered only when this processor is active: `POST /simulated-processor/confirmation-tokens`
 * (a card becomes a token) and `POST /simulated-processor/payment-intents/authenticate` (the buyer's answer
 * to the simulated 3-D Secure challenge of a charge that requires authentication, by its client secret).
 */
export function registerSimulatedProcessorRoutes(app: FastifyInstance, deps: { db: Executor; clock: Clock }): void {
  app.post('/simulated-processor/confirmation-tokens', async (request, reply) => {
    const body = parseOrThrow(ConfirmationTokenCreate, request.body, ['body']);
    const id = await createSimulatedConfirmationToken(deps.db, deps.clock, body.card);
    return reply.code(201).type('application/json; charset=utf-8').send(JSON.stringify({ id }));
  });
  app.post('/simulated-processor/payment-intents/authenticate', async (request, reply) => {
    const body = parseOrThrow(PaymentAuthentication, request.body, ['body']);
    const processor = new SimulatedPaymentProcessor(deps.db, deps.clock);
    const status = await processor.authenticate(body.client_secret, body.approve);
    if (!status) {
      return reply
        .code(404)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ error: 'ResourceNotFound', detail: 'No payment awaits authentication.' }));
    }
    return reply.code(200).type('application/json; charset=utf-8').send(JSON.stringify({ status }));
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
  if (card.outcome === 'authentication_required') return DECLINES.authentication_required;
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

type ChargeRow = Selectable<SimulatedChargesTable>;

/** The answer stored under an idempotency key, if it was stored for the same operation. */
function storedAnswer<T>(key: string, operation: string, stored: { operation: string | null; result: unknown }): T {
  if (stored.operation !== operation) throw new SimulatedIdempotencyConflict(key);
  return stored.result as T;
}

/** `storedAnswer` for one charge of several: the conflict is that charge's answer, not a throw. */
function answerOrConflict(
  key: string,
  operation: string,
  stored: { operation: string | null; result: unknown },
): ChargeResult | Error {
  return stored.operation === operation ? (stored.result as ChargeResult) : new SimulatedIdempotencyConflict(key);
}

/** A charge as it stands now (a charge that awaited authentication may have been completed since). */
function resultOfCharge(row: ChargeRow): CheckoutChargeResult {
  const card =
    row.brand && row.last4 && row.exp_month !== null && row.exp_year !== null
      ? { brand: row.brand, last4: row.last4, exp_month: row.exp_month, exp_year: row.exp_year }
      : null;
  if (row.status === 'requires_action') {
    return { status: 'requires_action', processorPaymentId: row.id, clientSecret: row.client_secret!, card };
  }
  if (row.status === 'failed') {
    const decline = Object.values(DECLINES).find((candidate) => candidate.reason === row.decline_reason);
    return {
      status: 'failed',
      processorPaymentId: row.id,
      declineReason: row.decline_reason ?? 'card_declined',
      declineMessage: decline?.message ?? 'Your card was declined.',
      card,
    };
  }
  return {
    status: 'succeeded',
    processorPaymentId: row.id,
    card: card ?? { brand: 'unknown', last4: '', exp_month: 0, exp_year: 0 },
    paymentMethodId: row.payment_method_id,
  };
}

/** A setup as it stands now. */
function resultOfSetup(row: Selectable<SimulatedSetupIntentsTable>): PaymentMethodSetupResult {
  if (row.status === 'requires_action')
    return { status: 'requires_action', processorSetupId: row.id, clientSecret: row.client_secret! };
  if (row.status === 'failed') {
    const decline = Object.values(DECLINES).find((candidate) => candidate.reason === row.decline_reason);
    return {
      status: 'failed',
      declineReason: row.decline_reason ?? 'card_declined',
      declineMessage: decline?.message ?? 'Your card was declined.',
    };
  }
  return { status: 'succeeded', paymentMethodId: row.payment_method_id!, card: cardOf(row) };
}

export class SimulatedPaymentProcessor implements PaymentProcessor {
  readonly name = 'simulated' as const;

  /** `db` is the pool: each call opens its own short transaction, as a remote service keeps its own state. */
  constructor(
    private readonly db: Executor,
    private readonly clock: Clock,
  ) {}

  /**
   * Runs `operation` once per idempotency key, in a transaction of its own: a retry answers the stored
   * result and moves no money. Concurrent calls with one key wait on a transaction-scoped advisory lock.
   */
  private once<T>(key: string, operation: string, run: (db: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (db) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`simulated:${key}`}, 0))`.execute(db);
      const existing = await db
        .selectFrom('simulated_idempotency_keys')
        .selectAll()
        .where('key', '=', key)
        .executeTakeFirst();
      if (existing) return storedAnswer<T>(key, operation, existing);
      const result = await run(db);
      await db
        .insertInto('simulated_idempotency_keys')
        .values({ key, created_at: this.clock.now(), operation, result: JSON.stringify(result) })
        .execute();
      return result;
    });
  }

  /** Marks the token used and returns its card; undefined when unknown or already used. */
  private async consumeToken(db: Executor, id: string): Promise<StoredCard | undefined> {
    return db
      .updateTable('simulated_confirmation_tokens')
      .set({ used_at: this.clock.now() })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .returning(['brand', 'last4', 'exp_month', 'exp_year', 'outcome'])
      .executeTakeFirst();
  }

  private async savePaymentMethod(db: Executor, customerId: string, card: StoredCard): Promise<string> {
    const id = simulatedId('pm');
    await db
      .insertInto('simulated_payment_methods')
      .values({ id, created_at: this.clock.now(), customer_id: customerId, ...card })
      .execute();
    return id;
  }

  private async charge(
    db: Executor,
    input: { amount: number; currency: string; customerId: string },
    card: StoredCard,
    paymentMethodId: string | null,
    authentication: { required: boolean; saveOnSuccess: boolean } = { required: false, saveOnSuccess: false },
  ): Promise<CheckoutChargeResult> {
    const decline = chargeDecline(card, this.clock.now());
    const id = simulatedId('pi');
    const status = decline ? 'failed' : authentication.required ? 'requires_action' : 'succeeded';
    const row = await db
      .insertInto('simulated_charges')
      .values({
        id,
        created_at: this.clock.now(),
        status,
        amount: input.amount,
        currency: input.currency,
        payment_method_id: paymentMethodId,
        decline_reason: decline?.reason ?? null,
        client_secret: status === 'requires_action' ? `${id}_secret_${randomBytes(12).toString('hex')}` : null,
        customer_id: input.customerId,
        save_payment_method: authentication.saveOnSuccess,
        ...card,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return resultOfCharge(row);
  }

  chargeWithConfirmationToken(
    input: Parameters<PaymentProcessor['chargeWithConfirmationToken']>[0],
  ): Promise<CheckoutChargeResult> {
    checkAmount(input.amount);
    return this.once(input.idempotencyKey, 'charge_confirmation_token', async (db): Promise<CheckoutChargeResult> => {
      const card = await this.consumeToken(db, input.confirmationTokenId);
      if (!card) {
        return {
          status: 'failed',
          processorPaymentId: null,
          declineReason: INVALID_TOKEN.reason,
          declineMessage: INVALID_TOKEN.message,
          card: null,
        };
      }
      const customerId = input.customer.customerId;
      const charge = { amount: input.amount, currency: input.currency, customerId };
      // 4000 0025 0000 3155: the buyer authenticates first; the method is saved once that succeeds.
      if (card.outcome === 'authentication_required' && chargeDecline(card, this.clock.now()) === null) {
        return this.charge(db, charge, card, null, { required: true, saveOnSuccess: input.savePaymentMethod });
      }
      // As with Stripe, a method is attached to the customer only when the charge succeeds.
      const declined = chargeDecline(card, this.clock.now()) !== null;
      const paymentMethodId =
        input.savePaymentMethod && !declined ? await this.savePaymentMethod(db, customerId, card) : null;
      return this.charge(db, charge, card, paymentMethodId);
    });
  }

  /**
   * The buyer's answer to the authentication challenge of a charge (by its client secret): approved, the
   * charge succeeds (and its method is saved when asked); refused, it fails. Undefined when no charge
   * with this secret awaits authentication.
   */
  async authenticate(clientSecret: string, approve: boolean): Promise<'succeeded' | 'failed' | undefined> {
    return this.db.transaction().execute(async (db) => {
      const row = await db
        .selectFrom('simulated_charges')
        .selectAll()
        .where('client_secret', '=', clientSecret)
        .forUpdate()
        .executeTakeFirst();
      if (!row) return this.authenticateSetup(db, clientSecret, approve);
      if (row.status !== 'requires_action') return undefined;
      if (!approve) {
        await db
          .updateTable('simulated_charges')
          .set({ status: 'failed', decline_reason: DECLINES.authentication_failed.reason })
          .where('id', '=', row.id)
          .execute();
        return 'failed';
      }
      const card = { brand: row.brand!, last4: row.last4!, exp_month: row.exp_month!, exp_year: row.exp_year! };
      const paymentMethodId =
        row.save_payment_method && row.customer_id
          ? await this.savePaymentMethod(db, row.customer_id, { ...card, outcome: row.outcome ?? 'succeed' })
          : null;
      await db
        .updateTable('simulated_charges')
        .set({ status: 'succeeded', payment_method_id: paymentMethodId })
        .where('id', '=', row.id)
        .execute();
      return 'succeeded';
    });
  }

  /** The customer's answer to the authentication of a setup (a card added in the portal). */
  private async authenticateSetup(
    db: Executor,
    clientSecret: string,
    approve: boolean,
  ): Promise<'succeeded' | 'failed' | undefined> {
    const setup = await db
      .selectFrom('simulated_setup_intents')
      .selectAll()
      .where('client_secret', '=', clientSecret)
      .forUpdate()
      .executeTakeFirst();
    if (!setup || setup.status !== 'requires_action') return undefined;
    if (!approve) {
      await db
        .updateTable('simulated_setup_intents')
        .set({ status: 'failed', decline_reason: DECLINES.authentication_failed.reason })
        .where('id', '=', setup.id)
        .execute();
      return 'failed';
    }
    const { brand, last4, exp_month, exp_year, outcome } = setup;
    const paymentMethodId = await this.savePaymentMethod(db, setup.customer_id, {
      brand,
      last4,
      exp_month,
      exp_year,
      outcome,
    });
    await db
      .updateTable('simulated_setup_intents')
      .set({ status: 'succeeded', payment_method_id: paymentMethodId })
      .where('id', '=', setup.id)
      .execute();
    return 'succeeded';
  }

  /**
   * A card saved from the portal: as `setupWithConfirmationToken`, except that the 3-D Secure card
   * (4000 0025 0000 3155) waits for the customer's authentication instead of failing.
   */
  setupPaymentMethod(input: Parameters<PaymentProcessor['setupPaymentMethod']>[0]) {
    return this.once(input.idempotencyKey, 'setup_payment_method', async (db): Promise<PaymentMethodSetupResult> => {
      const card = await this.consumeToken(db, input.confirmationTokenId);
      if (!card)
        return { status: 'failed', declineReason: INVALID_TOKEN.reason, declineMessage: INVALID_TOKEN.message };
      const customerId = input.customer.customerId;
      const id = simulatedId('seti');
      const decline = setupDecline(card, this.clock.now());
      if (decline?.reason === DECLINES.authentication_required.reason) {
        const row = await db
          .insertInto('simulated_setup_intents')
          .values({
            id,
            created_at: this.clock.now(),
            customer_id: customerId,
            status: 'requires_action',
            client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
            payment_method_id: null,
            decline_reason: null,
            ...card,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return resultOfSetup(row);
      }
      const paymentMethodId = decline ? null : await this.savePaymentMethod(db, customerId, card);
      const row = await db
        .insertInto('simulated_setup_intents')
        .values({
          id,
          created_at: this.clock.now(),
          customer_id: customerId,
          status: decline ? 'failed' : 'succeeded',
          client_secret: null,
          payment_method_id: paymentMethodId,
          decline_reason: decline?.reason ?? null,
          ...card,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return resultOfSetup(row);
    });
  }

  async retrievePaymentMethodSetup(
    input: Parameters<PaymentProcessor['retrievePaymentMethodSetup']>[0],
  ): Promise<PaymentMethodSetupResult | { status: 'not_found' }> {
    const row = await this.db
      .selectFrom('simulated_setup_intents')
      .selectAll()
      .where('id', '=', input.processorSetupId)
      .where('customer_id', '=', input.customer.customerId)
      .executeTakeFirst();
    return row ? resultOfSetup(row) : { status: 'not_found' };
  }

  /** A detached method is gone from the customer: a later charge of it finds no method. */
  /**
   * A dispute the seller accepts: the simulated card network keeps no disputes of its own (they are opened
   * by `POST /v1/disputes/simulate`), so closing one always settles it as lost.
   */
  async closeDispute(_input: Parameters<PaymentProcessor['closeDispute']>[0]): Promise<{ status: 'lost' }> {
    return { status: 'lost' };
  }

  async detachPaymentMethod(input: Parameters<PaymentProcessor['detachPaymentMethod']>[0]): Promise<void> {
    await this.db
      .deleteFrom('simulated_payment_methods')
      .where('id', '=', input.paymentMethodId)
      .where('customer_id', '=', input.customer.customerId)
      .execute();
  }

  /** The outcome of a charge made with this idempotency key (or this id), as it stands now. */
  async retrieveCharge(input: Parameters<PaymentProcessor['retrieveCharge']>[0]): Promise<RetrievedCharge> {
    return this.db.transaction().execute(async (db) => {
      let id = input.processorPaymentId;
      if (!id) {
        const stored = await db
          .selectFrom('simulated_idempotency_keys')
          .selectAll()
          .where('key', '=', input.idempotencyKey)
          .executeTakeFirst();
        if (!stored) return { status: 'not_found' as const };
        const result = stored.result as CheckoutChargeResult;
        if (!result.processorPaymentId) return result;
        id = result.processorPaymentId;
      }
      const row = await db.selectFrom('simulated_charges').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? resultOfCharge(row) : { status: 'not_found' as const };
    });
  }

  /** The outcome of a setup made with this idempotency key. */
  async retrieveSetup(input: Parameters<PaymentProcessor['retrieveSetup']>[0]): Promise<RetrievedSetup> {
    const stored = await this.db
      .selectFrom('simulated_idempotency_keys')
      .selectAll()
      .where('key', '=', input.idempotencyKey)
      .executeTakeFirst();
    return stored ? (stored.result as SetupResult) : { status: 'not_found' };
  }

  setupWithConfirmationToken(input: Parameters<PaymentProcessor['setupWithConfirmationToken']>[0]) {
    return this.once(input.idempotencyKey, 'setup_confirmation_token', async (db): Promise<SetupResult> => {
      const card = await this.consumeToken(db, input.confirmationTokenId);
      if (!card)
        return { status: 'failed', declineReason: INVALID_TOKEN.reason, declineMessage: INVALID_TOKEN.message };
      const decline = setupDecline(card, this.clock.now());
      if (decline) return { status: 'failed', declineReason: decline.reason, declineMessage: decline.message };
      const paymentMethodId = await this.savePaymentMethod(db, input.customer.customerId, card);
      return { status: 'succeeded', paymentMethodId, card: cardOf(card) };
    });
  }

  /** An off-session charge: `chargeSavedPaymentMethods` of one, its error thrown. */
  async chargeSavedPaymentMethod(input: SavedMethodCharge): Promise<ChargeResult> {
    const [answer] = await this.chargeSavedPaymentMethods([input]);
    if (answer instanceof Error) throw answer;
    return answer!;
  }

  /**
   * Off-session charges in two statements however many there are, instead of `once`'s transaction of six
   * each: one reads each key's stored answer and each saved method, the other stores the new answers with
   * their charges (`ON CONFLICT DO NOTHING` on the key: a key stored meanwhile by a call with the same key
   * charges nothing here and keeps its answer, which a third statement reads). Either way a key charges
   * once; a key met twice in one call is charged once, the second answer being the first's.
   */
  async chargeSavedPaymentMethods(inputs: readonly SavedMethodCharge[]): Promise<(ChargeResult | Error)[]> {
    const operation = 'charge_saved_payment_method';
    const answers: (ChargeResult | Error | undefined)[] = inputs.map((input) => {
      try {
        checkAmount(input.amount);
        return undefined;
      } catch (error) {
        return error as Error;
      }
    });
    const asked = inputs.flatMap((input, index) => (answers[index] === undefined ? [{ input, index }] : []));
    if (asked.length === 0) return answers as (ChargeResult | Error)[];
    const found = await sql<StoredCard & { ord: string; operation: string | null; result: ChargeResult | null }>`
      SELECT i.ord, k.operation, k.result, m.brand, m.last4, m.exp_month, m.exp_year, m.outcome
      FROM unnest(${asked.map(({ input }) => input.idempotencyKey)}::text[],
        ${asked.map(({ input }) => input.paymentMethodId)}::text[],
        ${asked.map(({ input }) => input.customer.customerId)}::text[]) WITH ORDINALITY AS i(key, method, customer, ord)
      LEFT JOIN simulated_idempotency_keys k ON k.key = i.key
      LEFT JOIN simulated_payment_methods m ON m.id = i.method AND m.customer_id = i.customer
      ORDER BY i.ord`.execute(this.db);
    const now = this.clock.now();
    const fresh = new Map<string, { index: number; result: ChargeResult; charge: ChargeRow | null }>();
    const repeats: { index: number; key: string }[] = [];
    found.rows.forEach((row, position) => {
      const { input, index } = asked[position]!;
      const key = input.idempotencyKey;
      if (row.operation !== null) {
        answers[index] = answerOrConflict(key, operation, row);
      } else if (fresh.has(key)) {
        repeats.push({ index, key });
      } else {
        fresh.set(key, { index, ...this.offSessionCharge(input, row, now) });
      }
    });
    if (fresh.size > 0) {
      const rows = [...fresh].map(([key, { result, charge }]) => ({ key, result, ...charge, created_at: undefined }));
      const stored = await sql<{ key: string }>`
        WITH input AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(key text, result jsonb, id text,
            status text, amount bigint, currency text, payment_method_id text, decline_reason text, customer_id text,
            brand text, last4 text, exp_month integer, exp_year integer, outcome text)
        ), k AS (
          INSERT INTO simulated_idempotency_keys (key, created_at, operation, result)
          SELECT key, ${now}::timestamptz, ${operation}::text, result FROM input
          ON CONFLICT (key) DO NOTHING
          RETURNING key
        ), c AS (
          INSERT INTO simulated_charges (id, created_at, status, amount, currency, payment_method_id, decline_reason,
            customer_id, brand, last4, exp_month, exp_year, outcome)
          SELECT input.id, ${now}::timestamptz, input.status, input.amount, input.currency, input.payment_method_id,
            input.decline_reason, input.customer_id, input.brand, input.last4, input.exp_month, input.exp_year,
            input.outcome
          FROM input JOIN k ON k.key = input.key
          WHERE input.id IS NOT NULL
          RETURNING id
        )
        SELECT key FROM k`.execute(this.db);
      const kept = new Set(stored.rows.map((row) => row.key));
      const lost = [...fresh.keys()].filter((key) => !kept.has(key));
      // A call with the same key stored its answer between the two statements: that answer is the one.
      const winners = new Map<string, { operation: string; result: unknown }>();
      if (lost.length > 0) {
        const rows = await this.db
          .selectFrom('simulated_idempotency_keys')
          .select(['key', 'operation', 'result'])
          .where('key', 'in', lost)
          .execute();
        for (const row of rows) winners.set(row.key, row);
      }
      for (const [key, { index, result }] of fresh) {
        const winner = winners.get(key);
        answers[index] = kept.has(key)
          ? result
          : answerOrConflict(key, operation, winner ?? { operation: null, result: null });
      }
    }
    for (const { index, key } of repeats) answers[index] = answers[fresh.get(key)!.index];
    return answers as (ChargeResult | Error)[];
  }

  /** The answer to a new off-session charge of `card` (null: no such method for the customer). */
  private offSessionCharge(
    input: SavedMethodCharge,
    card: Partial<StoredCard> & { brand: string | null },
    now: Date,
  ): { result: ChargeResult; charge: ChargeRow | null } {
    if (card.brand === null) {
      return {
        result: {
          status: 'failed',
          processorPaymentId: null,
          declineReason: 'payment_method_not_found',
          declineMessage: 'The saved payment method does not exist for this customer.',
          card: null,
        },
        charge: null,
      };
    }
    // Off-session charges of a saved method need no authentication (as Stripe's 3155 card once set up).
    const stored = card as StoredCard;
    const decline = chargeDecline(stored, now);
    const charge: ChargeRow = {
      id: simulatedId('pi'),
      created_at: now,
      status: decline ? 'failed' : 'succeeded',
      amount: input.amount,
      currency: input.currency,
      amount_refunded: 0,
      payment_method_id: input.paymentMethodId,
      decline_reason: decline?.reason ?? null,
      client_secret: null,
      customer_id: input.customer.customerId,
      save_payment_method: false,
      ...cardOf(stored),
      outcome: stored.outcome,
    };
    return { result: resultOfCharge(charge) as ChargeResult, charge };
  }

  refund(input: Parameters<PaymentProcessor['refund']>[0]) {
    checkAmount(input.amount);
    return this.once(input.idempotencyKey, 'refund', async (db): Promise<RefundResult> => {
      const charge = await db
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
      await db
        .updateTable('simulated_charges')
        .set({ amount_refunded: charge.amount_refunded + input.amount })
        .where('id', '=', charge.id)
        .execute();
      await db
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
