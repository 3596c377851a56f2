import { randomUUID } from 'node:crypto';
import { z } from 'zod/v4';
import type { Context } from '../../platform/context.js';
import { handOut, memoizeReadsIn } from '../../platform/db/read-memo.js';
import { deferWritesIn } from '../../platform/db/deferred-writes.js';
import { forEachConcurrently } from '../../platform/jobs/concurrently.js';
import { defineJob, runIn, runOnClock, type JobRun } from '../../platform/jobs/queue.js';
import { onOrganizationClock, organizationsWithTestClocks, serverClock } from '../../platform/test-clock.js';
import { EXPIRE_BATCH, expireCheckouts } from '../checkouts/checkouts.expire.js';
import type { PeriodicTask } from '../../platform/jobs/periodic.js';
import type { ChargeResult, PaymentProcessor, SavedMethodCharge } from '../../platform/payments/processor.js';
import { findDiscountsByIds } from '../discounts/discounts.repository.js';
import { findGrantsOfSubscriptions } from '../benefit-grants/benefit-grants.repository.js';
import {
  findCustomersByIds,
  findItemsOfOrders,
  findOrderById,
  lockOrderById,
  lockOrdersByIds,
  type OrderRow,
} from '../orders/orders.repository.js';
import { markOrderPaid, markOrdersPaid } from '../orders/orders.service.js';
import { serializeOrderSubscription } from '../orders/orders.serializer.js';
import { findProductRowsByIds } from '../orders/orders.repository.js';
import { recordPayment, recordPayments, type RecordPaymentInput } from '../payments/payments.service.js';
import { reserveFullRefund } from '../refunds/refunds.service.js';
import { askProcessor, settleRefund } from '../refunds/refunds.settle.js';
import { nextRetryAt } from './subscriptions.billing.js';
import { discountCovers, dueAmount, subscriptionAmount } from '../billing/billing.money.js';
import { billSubscription, restoreAppliedBalance } from '../billing/billing.orders.js';
import { askStripeTaxIn, inTransaction, StripeTaxQuestion, withStripeTax } from '../billing/billing.stripe-tax.js';
import { closeMeteredUsage } from '../billing/billing.usage.js';
import { findMeteredPricesOfSubscriptions } from '../billing/billing.usage.repository.js';
import { lockBillingCustomers } from '../billing/billing.repository.js';
import { recordSubscriptionChange } from './subscriptions.history.js';
import { nextPeriodEnd } from './subscriptions.periods.js';
import { remindEndingTrials } from './subscriptions.trial-reminders.js';
import { cycleLines, periodLabel } from './subscriptions.plan-change.js';
import {
  type BillingClaim,
  type BillingScope,
  claimDueCharges,
  claimDueSubscriptions,
  claimPeriod,
  findChangeChargesToCollect,
  findVisibleSubscription,
  findPendingBillingEntriesOf,
  findRefundingCharges,
  findSubscriptionPrices,
  lockCharge,
  lockChargeAttempts,
  lockCharges,
  lockSubscriptionById,
  lockSubscriptionsByIds,
  markChargesPaid,
  releaseChargeClaims,
  type ChargeRow,
  type SubscriptionRow,
  releaseRenewalClaims,
  updateCharge,
  updateSubscriptionRow,
} from './subscriptions.repository.js';
import {
  discountAppliedAt,
  emailPaymentOutcome,
  endSubscription,
  onSubscriptionBenefitsRestored,
  onSubscriptionCycled,
  recordSubscriptionEvents,
} from './subscriptions.service.js';

/** How many subscriptions (and charges) one claim hands out; the loop claims again until none are due. */
const BATCH = 500;
/**
 * How long a run's claim on a batch holds off other runs (server clock). A run lets its claims go when
 * the batch is done; this only bounds how long a run that died keeps its batch waiting.
 */
const CLAIM_MS = 5 * 60_000;
/**
 * Groups in flight at once. Each is independent (its own rows, its own transaction, its own idempotency
 * keys), so they overlap their database round trips and processor calls; four leaves most of the pool
 * (10 connections) to the API. The embedded database serves them in turns.
 */
const CONCURRENCY = 4;
/**
 * Renewals (or charge outcomes) committed by one transaction. A commit waits for the disk: one per
 * group instead of one per subscription is most of what a run saves. Small enough that a group's locks
 * (its subscriptions and their customers) are held for a few milliseconds and a group done again one by
 * one after a failure costs little.
 */
const GROUP = 25;

/**
 * Renews one due subscription, in the caller's transaction: ends it when it was canceled at period
 * end (its pending entries settled in a final order); otherwise claims the period (a conditional UPDATE
 * on `current_period_end`: a second run, or a retry, finds nothing to do), drops a discount whose
 * duration is over, and bills the period with its pending entries. Returns whether it did anything.
 */
export async function cycleSubscription(ctx: Context, subscriptionId: string, expectedEnd: Date): Promise<boolean> {
  const row = await lockSubscriptionById(ctx.db, subscriptionId);
  const now = ctx.clock.now();
  if (!row || !(row.status === 'active' || row.status === 'trialing') || !row.current_period_end) return false;
  if (row.current_period_end.getTime() !== expectedEnd.getTime() || row.current_period_end > now) return false;
  if (row.cancel_at_period_end) {
    // As the reference, the subscription still says it was canceled at period end.
    await endSubscription(
      ctx,
      row,
      { ended_at: row.ends_at ?? row.current_period_end, cancel_at_period_end: true },
      'subscription_cycle',
      'period_end',
    );
    return true;
  }
  // A trial without a card to charge ends at its end, unpaid (docs/trials.md).
  if (row.status === 'trialing' && !row.payment_method_id) {
    await endSubscription(ctx, row, { ended_at: row.current_period_end }, 'subscription_cycle', 'trial_unpaid');
    return true;
  }
  const start = row.current_period_end;
  const end = nextPeriodEnd(start, row.recurring_interval, row.anchor_day);
  const [discount] = row.discount_id ? await findDiscountsByIds(ctx.db, [row.discount_id]) : [];
  const appliedAt = discountAppliedAt(row);
  const pays = discount && discountCovers(discount, appliedAt, start) ? discount : null;
  // A discount that has not started yet stays; one whose duration is over goes.
  const keep = pays ?? (discount && start < appliedAt ? discount : null);
  const snapshot = (await findSubscriptionPrices(ctx.db, [row.id])).get(row.id) ?? [];
  const claimed = await claimPeriod(
    ctx.db,
    row.id,
    start,
    {
      current_period_start: start,
      current_period_end: end,
      discount_id: keep?.id ?? null,
      discount_applied_at: keep ? appliedAt : null,
      amount: subscriptionAmount(snapshot, keep),
      modified_at: now,
      // A trial converts: its first paid period starts, charged like any renewal (dunning included).
      ...(row.status === 'trialing' ? { status: 'active' as const } : {}),
    },
    row,
  );
  if (!claimed) return false;
  const product = (await findProductRowsByIds(ctx.db, [row.product_id])).get(row.product_id);
  const label = periodLabel(product?.name ?? 'Subscription', start, end);
  // The period that ended: its usage (each metered price's window, closed here with its reset and
  // rollover, in this transaction) goes on the order that pays for the period that starts.
  // Usage during a trial is free: its windows close here, their lines are dropped.
  const closed = await closeMeteredUsage(ctx, claimed, 'rollover');
  const metered = row.status === 'trialing' ? [] : closed;
  const cycle = [
    ...cycleLines(snapshot, label),
    ...metered.map(({ label, amount, product_price_id }) => ({ label, amount, product_price_id })),
  ];
  const billed = await billSubscription(ctx, claimed, {
    reason: 'subscription_cycle',
    cycle,
    discount: pays,
    periodStart: start,
    ...(product ? { product } : {}),
  });
  if (row.status === 'trialing') await recordSubscriptionChange(ctx, claimed, 'trial_converted');
  // A new period started: subscription.cycled (the reference's since 2026), after active for a trial that converts.
  await recordSubscriptionEvents(
    ctx,
    claimed,
    row.status === 'trialing' ? ['subscription.active', 'subscription.cycled'] : ['subscription.cycled'],
  );
  if (!billed || billed.due === 0) await onSubscriptionCycled(ctx, claimed);
  return true;
}

/**
 * What a group's renewals read, read for all its members at once at the start of their transaction:
 * the subscriptions (locked, in id order), their pending proration entries, and, unless a member bills
 * usage, the customers only one member bills (locked, in id order), each handed to its member's first
 * read of it (`handOut`); a customer two members share is locked and read by each, since the first one's
 * order moves the balance the second one reads. Price snapshots, metered prices and customers are
 * memoized (a customer is read again once its balance moved).
 */
async function readRenewalGroup(tx: Context, subscriptionIds: readonly string[]): Promise<void> {
  const rows = await lockSubscriptionsByIds(tx.db, subscriptionIds);
  handOut(
    tx.db,
    'subscription',
    rows.map((row) => [row.id, row] as const),
  );
  const ids = rows.map((row) => row.id);
  await findSubscriptionPrices(tx.db, ids);
  await findCustomersByIds(
    tx.db,
    rows.map((row) => row.customer_id),
  );
  const metered = await findMeteredPricesOfSubscriptions(tx.db, ids);
  const entries = await findPendingBillingEntriesOf(tx.db, ids);
  handOut(tx.db, 'pendingBillingEntries', entries);
  // A metered member takes its organization's usage lock (waiting for ingests in flight, which hold it
  // shared and lock their customers' keys) before it locks its customer: no customer is locked earlier.
  if ([...metered.values()].some((prices) => prices.length > 0)) return;
  const members = new Map<string, number>();
  for (const row of rows) members.set(row.customer_id, (members.get(row.customer_id) ?? 0) + 1);
  const customers = await lockBillingCustomers(
    tx.db,
    [...members].flatMap(([id, count]) => (count === 1 ? [id] : [])),
  );
  handOut(
    tx.db,
    'billingCustomer',
    customers.map((customer) => [customer.id, customer] as const),
  );
}

/**
 * What recording a group's charge outcomes reads, read at once at the start of their transaction: the
 * charges, then their subscriptions, then their orders, each locked in id order and handed to the
 * member's own first read (a subscription two charges share is handed to the first: the second reads it
 * again, after the first's changes), and the customers, benefit grants and orders' items (memoized).
 */
async function readOutcomeGroup(tx: Context, orderIds: readonly string[]): Promise<void> {
  const charges = await lockCharges(tx.db, orderIds);
  handOut(
    tx.db,
    'charge',
    charges.map((charge) => [charge.order_id, charge] as const),
  );
  const subscriptions = await lockSubscriptionsByIds(
    tx.db,
    charges.map((charge) => charge.subscription_id),
  );
  handOut(
    tx.db,
    'subscription',
    subscriptions.map((row) => [row.id, row] as const),
  );
  await findCustomersByIds(
    tx.db,
    subscriptions.map((row) => row.customer_id),
  );
  await findGrantsOfSubscriptions(
    tx.db,
    subscriptions.map((row) => row.id),
  );
  const orders = await lockOrdersByIds(
    tx.db,
    charges.map((charge) => charge.order_id),
  );
  handOut(
    tx.db,
    'order',
    orders.map((order) => [order.id, order] as const),
  );
  await findItemsOfOrders(
    tx.db,
    orders.map((order) => order.id),
  );
}

interface Attempt {
  attempt: number;
  amount: number;
  currency: string;
  paymentMethodId: string | null;
  customer: { customerId: string; email: string; name: string | null };
  subscriptionId: string;
}

/**
 * One attempt at a pending charge: read it in a short transaction, call the processor outside any
 * transaction with a key per order and attempt (a repeated or concurrent attempt gets the same answer),
 * then record the outcome if nobody recorded this attempt first. Money that came in after the
 * subscription ended is refunded. A billing run makes the same three steps for a group of charges at
 * once (`attemptCharges`).
 */
export async function attemptCharge(ctx: Context, run: JobRun, orderId: string): Promise<void> {
  const attempt = await run.transaction((tx) => readAttempt(tx, orderId));
  if (!attempt) return;
  const result = await chargeOrDefer(ctx, orderId, attempt);
  if (!result) return;
  const refund = await record(ctx, run, orderId, attempt, result);
  if (refund) await refundCharge(ctx, run, orderId);
}

/**
 * A group of charges attempted as `attemptCharge` attempts one, with one transaction for the group's
 * reads and one for its outcomes instead of one each: read (each attempt's number, amount and card), the
 * processor asked for every charge in one call with no transaction open, then every answer recorded in
 * one transaction.
 * Each outcome is still recorded only if its attempt is the one under the charge's lock, so a group
 * that fails and is done again charge by charge (`inGroups`) records nothing twice; a crash anywhere
 * leaves attempts that the next run makes again with the same idempotency keys.
 */
async function attemptCharges(ctx: Context, run: JobRun, orderIds: readonly string[]): Promise<void> {
  const attempts = await run.transaction((tx) => readAttempts(tx, orderIds));
  const answered = await chargeAllOrDefer(ctx, attempts);
  const processor = ctx.payments?.name ?? 'simulated';
  let refunds: string[];
  try {
    refunds = await run.transaction(async (tx) => {
      askStripeTaxIn(tx);
      // Recording outcomes changes no product, price, benefit or organization setting: read each once.
      memoizeReadsIn(tx.db);
      await readOutcomeGroup(
        tx,
        answered.map(({ orderId }) => orderId),
      );
      return recordOutcomes(tx, processor, answered);
    });
  } catch (error) {
    // Nothing of the group was recorded: each answer is recorded alone (the processor is not asked again).
    if (!(error instanceof StripeTaxQuestion)) ctx.log.warn({ err: error }, 'charge outcomes recorded one by one');
    const alone: string[] = [];
    try {
      await forEachConcurrently(answered, 1, async ({ orderId, attempt, result }) => {
        if (await record(ctx, run, orderId, attempt, result)) alone.push(orderId);
      });
    } catch (failure) {
      for (const orderId of alone) await refundCharge(ctx, run, orderId);
      // Not worth doing again from the start: the processor was asked already.
      throw new DoneAlone(failure);
    }
    refunds = alone;
  }
  for (const orderId of refunds) await refundCharge(ctx, run, orderId);
}

/**
 * Charges what a change billed at once (an invoiced plan change, an interval change) is owed, right after
 * the change commits, with the attempt the billing run would make (research §3.8: "created and charged
 * immediately"); a decline starts dunning like a renewal's. A revoke calls it first too, so a change's
 * charge left unattempted (the processor could not be reached) is collected before the ending voids
 * it; a renewal's charge is not (the customer does not get the period). Answers how many attempts were
 * made.
 */
export async function collectChangeCharges(ctx: Context, run: JobRun, subscriptionId: string): Promise<number> {
  const orderIds = await run.transaction((tx) => findChangeChargesToCollect(tx.db, subscriptionId, tx.clock.now()));
  for (const orderId of orderIds) await attemptCharge(ctx, run, orderId);
  return orderIds.length;
}

/** `collectChangeCharges` for a subscription the subject may see (nothing for one it may not). */
export async function collectVisibleChangeCharges(ctx: Context, run: JobRun, id: string): Promise<void> {
  const row = await run.transaction((tx) => findVisibleSubscription(tx.db, tx.subject, id));
  if (row) await collectChangeCharges(ctx, run, row.id);
}

export type ManualChargeReadiness =
  { state: 'ready'; attempts: number } | { state: 'attempted' } | { state: 'not_eligible' } | { state: 'in_progress' };

/**
 * Makes an order's pending charge due now for the customer paying it from the portal, in the caller's
 * transaction, under the charge's lock: the attempt is then the dunning retry's own (`attemptCharge`,
 * after the commit), never a second way to charge. `not_eligible` for an order with no pending charge (a
 * checkout's order, one paid, one whose dunning ended); `in_progress` while a billing run holds it.
 * Without `makeDue`, only the check (before a new card is saved). With `sinceAttempts`, a charge attempted
 * since that check (by the retry a new default enqueues) is `attempted` and not made due again: one
 * request, one attempt.
 */
export async function readyChargeForCustomer(
  tx: Context,
  orderId: string,
  options: { makeDue: boolean; sinceAttempts?: number },
): Promise<ManualChargeReadiness> {
  const charge = await lockCharge(tx.db, orderId);
  if (options.sinceAttempts !== undefined && charge && charge.attempts !== options.sinceAttempts) {
    return { state: 'attempted' };
  }
  if (!charge || charge.status !== 'pending' || !charge.next_attempt_at) return { state: 'not_eligible' };
  if (charge.claimed_until && charge.claimed_until > serverClock(tx.clock).now()) return { state: 'in_progress' };
  const now = tx.clock.now();
  if (options.makeDue && charge.next_attempt_at > now) {
    await updateCharge(tx.db, orderId, { next_attempt_at: now, modified_at: now });
  }
  return { state: 'ready', attempts: charge.attempts };
}

/** A processor's answer to one attempt of a group. */
interface Answer {
  orderId: string;
  attempt: Attempt;
  result: ChargeResult;
}

/** A group's failure after its members were done one by one: `inGroups` only passes it on. */
class DoneAlone extends Error {
  constructor(readonly failure: unknown) {
    super('a member of a billing group failed alone');
  }
}

/** The pending charge's attempt to make now, read under its lock; null when none is due. */
async function readAttempt(tx: Context, orderId: string): Promise<Attempt | null> {
  return (await readAttempts(tx, [orderId]))[0]?.attempt ?? null;
}

/** The attempts due now of the charges of `orderIds` (one statement, the charges and subscriptions locked). */
async function readAttempts(
  tx: Context,
  orderIds: readonly string[],
): Promise<{ orderId: string; attempt: Attempt }[]> {
  const now = tx.clock.now();
  const rows = await lockChargeAttempts(tx.db, orderIds);
  return rows.flatMap((row) => {
    if (row.status !== 'pending' || !row.next_attempt_at || row.next_attempt_at > now) return [];
    const attempt: Attempt = {
      attempt: row.attempts,
      // The credit balance paid its part when the order was made: the card pays the rest.
      amount: dueAmount(row),
      currency: row.currency,
      paymentMethodId: row.payment_method_id,
      customer: { customerId: row.customer_id, email: row.customer_email, name: row.customer_name },
      subscriptionId: row.subscription_id,
    };
    return [{ orderId: row.order_id, attempt }];
  });
}

/** The processor's answer, or null when the call failed (the attempt is made again by the next run). */
async function chargeOrDefer(ctx: Context, orderId: string, attempt: Attempt): Promise<ChargeResult | null> {
  try {
    return await charge(ctx, orderId, attempt);
  } catch (error) {
    // A concurrent run making the same attempt (same idempotency key) races at the processor; the
    // attempt stays as it is and the next run gets the processor's stored answer.
    ctx.log.warn({ err: error, orderId }, 'subscription charge attempt deferred');
    return null;
  }
}

/**
 * `chargeOrDefer` for a group's attempts, in one call to the processor (`chargeSavedPaymentMethods`): the
 * answers, without the attempts whose call failed (made again by the next run, with the same keys).
 */
async function chargeAllOrDefer(
  ctx: Context,
  attempts: readonly { orderId: string; attempt: Attempt }[],
): Promise<Answer[]> {
  const charged = attempts.filter(({ attempt }) => attempt.paymentMethodId && ctx.payments);
  let results: (ChargeResult | Error)[];
  try {
    results = charged.length > 0 ? await ctx.payments!.chargeSavedPaymentMethods(charged.map(savedMethodCharge)) : [];
  } catch (error) {
    results = charged.map(() => (error instanceof Error ? error : new Error(String(error))));
  }
  const answers = new Map(charged.map(({ orderId }, index) => [orderId, results[index]!]));
  return attempts.flatMap(({ orderId, attempt }) => {
    const result = answers.get(orderId) ?? NO_SAVED_METHOD;
    if (!(result instanceof Error)) return [{ orderId, attempt, result }];
    ctx.log.warn({ err: result, orderId }, 'subscription charge attempt deferred');
    return [];
  });
}

async function charge(ctx: Context, orderId: string, attempt: Attempt): Promise<ChargeResult> {
  return attempt.paymentMethodId && ctx.payments
    ? ctx.payments.chargeSavedPaymentMethod(savedMethodCharge({ orderId, attempt }))
    : NO_SAVED_METHOD;
}

const NO_SAVED_METHOD: ChargeResult = {
  status: 'failed',
  processorPaymentId: null,
  declineReason: 'payment_method_not_found',
  declineMessage: 'No saved payment method.',
  card: null,
};

/** The processor call of an attempt: its key is the order's and the attempt's (a retry gets the same answer). */
function savedMethodCharge({ orderId, attempt }: { orderId: string; attempt: Attempt }): SavedMethodCharge {
  return {
    amount: attempt.amount,
    currency: attempt.currency,
    paymentMethodId: attempt.paymentMethodId!,
    customer: attempt.customer,
    idempotencyKey: `subscription-charge:${orderId}:${attempt.attempt}`,
    metadata: { order_id: orderId, subscription_id: attempt.subscriptionId },
  };
}

/**
 * Records the processor's answer to an attempt. The payment is always recorded, even when the charge
 * was voided meanwhile (the subscription ended while the card was being charged): then a success marks
 * the order paid and the charge `refunding`, and the answer is true — the caller refunds it.
 */
async function record(
  ctx: Context,
  run: JobRun,
  orderId: string,
  attempt: Attempt,
  result: ChargeResult,
): Promise<boolean> {
  // A subscription that ends here bills what is pending in a final order, taxed by Stripe Tax when the
  // organization uses it (asked before the transaction that writes it).
  const processor = ctx.payments?.name ?? 'simulated';
  return withStripeTax(ctx, run, (tx) => recordOutcome(tx, processor, orderId, attempt, result));
}

/**
 * `recordOutcome` for each answer of a group, in the caller's transaction; answers the charges to refund.
 * The paid renewals (the common case: the attempt is the charge's, the charge pending, the order pending,
 * the subscription not past due and no other answer of the group for it) are recorded together, as
 * `recordOutcome` records each: their payments in one statement, their charges in one, their orders
 * marked paid in one (each order's events in turn), then each subscription's period begins for its
 * benefits. Every other answer (a decline, a recovery from past due, a charge voided meanwhile, two
 * answers for one subscription) is recorded after them, one by one: none shares a subscription with the
 * paid ones, whose writes touch nothing else another answer reads.
 */
async function recordOutcomes(
  tx: Context,
  processor: PaymentProcessor['name'],
  answered: readonly Answer[],
): Promise<string[]> {
  const perSubscription = new Map<string, number>();
  for (const { attempt } of answered) {
    perSubscription.set(attempt.subscriptionId, (perSubscription.get(attempt.subscriptionId) ?? 0) + 1);
  }
  const paid: (Answer & {
    charge: ChargeRow;
    subscription: SubscriptionRow;
    order: OrderRow;
  })[] = [];
  const alone: Answer[] = [];
  for (const answer of answered) {
    const { orderId, attempt, result } = answer;
    if (result.status !== 'succeeded' || perSubscription.get(attempt.subscriptionId) !== 1) {
      alone.push(answer);
      continue;
    }
    const charge = await lockCharge(tx.db, orderId);
    const subscription = charge && (await lockSubscriptionById(tx.db, charge.subscription_id));
    const order = charge && (await lockOrderById(tx.db, orderId));
    if (
      charge?.attempts === attempt.attempt &&
      charge.status === 'pending' &&
      subscription &&
      subscription.status !== 'past_due' &&
      order?.status === 'pending'
    ) {
      paid.push({ orderId, attempt, result, charge, subscription, order });
    } else {
      alone.push(answer);
    }
  }
  if (paid.length > 0) {
    const now = tx.clock.now();
    await recordPayments(
      tx,
      paid.map((answer) => paymentOf(answer.charge, processor, answer)),
    );
    await markChargesPaid(
      tx.db,
      paid.map(({ orderId, charge }) => ({ orderId, attempts: charge.attempts + 1 })),
      now,
    );
    await markOrdersPaid(
      tx,
      paid.map(({ order }) => order),
      new Map(paid.map(({ orderId, subscription }) => [orderId, serializeOrderSubscription(subscription)])),
    );
    for (const { charge, subscription } of paid) {
      if (charge.billing_reason === 'subscription_cycle') await onSubscriptionCycled(tx, subscription);
    }
  }
  const refunding: string[] = [];
  for (const { orderId, attempt, result } of alone) {
    if (await recordOutcome(tx, processor, orderId, attempt, result)) refunding.push(orderId);
  }
  return refunding;
}

/** The payment an attempt's answer records. */
function paymentOf(
  charge: ChargeRow,
  processor: PaymentProcessor['name'],
  { orderId, attempt, result }: Answer,
): RecordPaymentInput {
  return {
    organization_id: charge.organization_id,
    checkout_id: null,
    order_id: orderId,
    processor,
    processor_payment_id: result.processorPaymentId,
    status: result.status === 'succeeded' ? 'succeeded' : 'failed',
    amount: attempt.amount,
    currency: attempt.currency,
    card: result.card ? { brand: result.card.brand, last4: result.card.last4 } : null,
    decline_reason: result.status === 'failed' ? result.declineReason : null,
    decline_message: result.status === 'failed' ? result.declineMessage : null,
    customer_email: attempt.customer.email,
  };
}

/** `record`'s work, in the caller's transaction. */
async function recordOutcome(
  tx: Context,
  processor: PaymentProcessor['name'],
  orderId: string,
  attempt: Attempt,
  result: ChargeResult,
): Promise<boolean> {
  const charge = await lockCharge(tx.db, orderId);
  if (!charge || charge.attempts !== attempt.attempt) return false;
  if (charge.status !== 'pending' && charge.status !== 'failed') return false;
  const voided = charge.status === 'failed';
  const subscription = (await lockSubscriptionById(tx.db, charge.subscription_id))!;
  const now = tx.clock.now();
  await recordPayment(tx, paymentOf(charge, processor, { orderId, attempt, result }));
  const failures = charge.attempts + 1;
  if (voided) {
    const succeeded = result.status === 'succeeded';
    await updateCharge(tx.db, orderId, {
      attempts: failures,
      modified_at: now,
      ...(succeeded ? { status: 'refunding' as const, refund_payment_id: result.processorPaymentId } : {}),
    });
    if (!succeeded) return false;
    await markOrderPaid(tx, orderId, { subscription: serializeOrderSubscription(subscription) });
    return true;
  }
  if (result.status === 'succeeded') {
    await updateCharge(tx.db, orderId, {
      status: 'paid',
      attempts: failures,
      next_attempt_at: null,
      modified_at: now,
    });
    await markOrderPaid(tx, orderId, { subscription: serializeOrderSubscription(subscription) });
    if (subscription.status === 'past_due') {
      const active = await updateSubscriptionRow(tx.db, subscription.id, {
        status: 'active',
        past_due_at: null,
        modified_at: now,
      });
      await onSubscriptionBenefitsRestored(tx, active);
      await recordSubscriptionChange(tx, active, 'recovered', { order_id: orderId });
      await recordSubscriptionEvents(tx, active, ['subscription.active']);
      await emailPaymentOutcome(tx, active, { template: 'payment_recovered' });
    } else if (charge.billing_reason === 'subscription_cycle') {
      await onSubscriptionCycled(tx, subscription);
    }
    return false;
  }
  const next = nextRetryAt(failures, result.declineReason, now);
  await updateCharge(tx.db, orderId, {
    status: next ? 'pending' : 'failed',
    attempts: failures,
    next_attempt_at: next,
    modified_at: now,
  });
  if (!next) {
    const order = await findOrderById(tx.db, orderId);
    if (order) await restoreAppliedBalance(tx, order);
  }
  if (subscription.ended_at) return false;
  if (!next) {
    // Its `subscription.revoked` event emails the customer that it ended (platform/mail/event-emails.ts).
    await endSubscription(tx, subscription, {}, 'subscription_update', 'payment_failed');
    return false;
  }
  if (subscription.status !== 'past_due') {
    const pastDue = await updateSubscriptionRow(tx.db, subscription.id, {
      status: 'past_due',
      past_due_at: now,
      modified_at: now,
    });
    await recordSubscriptionChange(tx, pastDue, 'past_due', {
      order_id: orderId,
      decline_message: result.declineMessage,
      next_attempt_at: next.toISOString(),
    });
    await recordSubscriptionEvents(tx, pastDue, ['subscription.past_due']);
  }
  await emailPaymentOutcome(tx, subscription, {
    template: 'payment_failed',
    amount: attempt.amount,
    currency: attempt.currency,
    declineMessage: result.declineMessage,
    nextAttemptAt: next,
  });
  return false;
}

/**
 * Gives back money that came in for a subscription that had ended, as a refund of the whole order
 * (modules/refunds): reserved in a short transaction under the charge's lock with one idempotency key
 * per charge, sent to the processor outside any transaction (a retry refunds once), settled (the order
 * refunded, the credit balance it used given back, `refund.created`, `order.refunded`), then the charge
 * recorded `refunded`. A crash in between is finished by the next billing run, which picks up every
 * charge still `refunding`.
 */
export async function refundCharge(ctx: Context, run: JobRun, orderId: string): Promise<void> {
  const call = await run.transaction(async (tx) => {
    const charge = await lockCharge(tx.db, orderId);
    if (!charge || charge.status !== 'refunding' || !charge.refund_payment_id) return null;
    return reserveFullRefund(tx, orderId, {
      idempotencyKey: `subscription-charge-refund:${orderId}`,
      reason: 'other',
      comment: 'Charged after the subscription ended.',
    });
  });
  if (call && ctx.payments) {
    const outcome = await askProcessor(ctx, call);
    const refund = await settleRefund(ctx, run, call.refund.id, outcome);
    if (refund.status === 'failed') {
      ctx.log.error(
        { orderId, reason: refund.failure_reason },
        'refund of a charge after the subscription ended failed',
      );
    }
    if (refund.status !== 'succeeded') return;
  } else if (call) return;
  await run.transaction(async (tx) => {
    const charge = await lockCharge(tx.db, orderId);
    if (!charge || charge.status !== 'refunding') return;
    const order = await findOrderById(tx.db, orderId);
    // Refunded (by this refund, or one that settled before a crash): the charge is done.
    if (order?.status !== 'refunded') return;
    await updateCharge(tx.db, orderId, { status: 'refunded', modified_at: tx.clock.now() });
  });
}

/**
 * Everything that became due by the app clock: renewals (each in its own transaction), then charges
 * and dunning retries (processor calls outside transactions). Safe to run twice at once: each run
 * claims its batches in one statement (`FOR UPDATE SKIP LOCKED`, a claim with an expiry on the rows),
 * so concurrent runs and workers share the due work instead of racing for the same rows; a renewal
 * still happens once per period because its period is claimed by a conditional UPDATE, and a charge
 * attempt is recorded once because its attempt counter is checked under the charge's lock. `scope`
 * limits the run to one organization (its test clock) or leaves out organizations whose test clock
 * runs ahead.
 */
export async function runSubscriptionBilling(
  ctx: Context,
  run: JobRun = runIn(ctx),
  scope: BillingScope = {},
): Promise<BillingRunSummary> {
  const summary: BillingRunSummary = { renewals: 0, charge_attempts: 0 };
  for (;;) {
    const claim = newClaim(ctx);
    const due = await claimDueSubscriptions(ctx.db, ctx.clock.now(), claim, BATCH, scope);
    if (due.length === 0) break;
    let progressed = 0;
    try {
      // Stripe Tax (when the organization uses it) is asked before the transaction that writes the
      // order; while Stripe cannot be reached, the renewal waits for the next run.
      progressed = await inGroups(
        ctx,
        due,
        async (group) => {
          let renewed = 0;
          await run.transaction(async (tx) => {
            askStripeTaxIn(tx);
            // Renewals change no product, price, benefit or organization setting: read each once.
            memoizeReadsIn(tx.db);
            // Each renewal's claim, order, items and charge are sent with the group's (one statement
            // each for all of them) before the transaction's next read or its commit.
            deferWritesIn(tx.db);
            await readRenewalGroup(
              tx,
              group.map((row) => row.id),
            );
            for (const { id, current_period_end } of group) {
              if (await cycleSubscription(tx, id, current_period_end!)) renewed += 1;
            }
          });
          return renewed;
        },
        ({ id, current_period_end }) =>
          withStripeTax(
            ctx,
            run,
            (tx) => cycleSubscription(tx, id, current_period_end!),
            () => false,
          ),
      );
    } finally {
      await releaseRenewalClaims(
        ctx.db,
        due.map((row) => row.id),
        claim.token,
      );
    }
    summary.renewals += progressed;
    if (progressed === 0) break;
  }
  const seen = new Set<string>();
  for (;;) {
    const claim = newClaim(ctx);
    const claimed = await claimDueCharges(ctx.db, ctx.clock.now(), claim, BATCH, scope);
    const charges = claimed.filter((c) => !seen.has(c.order_id));
    try {
      for (const charge of charges) seen.add(charge.order_id);
      summary.charge_attempts += await inGroups(
        ctx,
        charges,
        async (group) => {
          await attemptCharges(
            ctx,
            run,
            group.map((c) => c.order_id),
          );
          return group.length;
        },
        (charge) => attemptCharge(ctx, run, charge.order_id),
      );
    } finally {
      await releaseChargeClaims(
        ctx.db,
        claimed.map((c) => c.order_id),
        claim.token,
      );
    }
    if (charges.length === 0) break;
  }
  // Refunds a crash left half-way (the processor call is idempotent by charge).
  const refunding = await findRefundingCharges(ctx.db, BATCH, scope);
  await forEachConcurrently(refunding, CONCURRENCY, (charge) => refundCharge(ctx, run, charge.order_id));
  await remindEndingTrials(ctx, run, scope);
  return summary;
}

/**
 * Works `items` in groups of `GROUP`, `CONCURRENCY` groups at a time; `group` does a group's work in
 * as few transactions as it can and answers how many items it did. A group that fails (a deadlock with
 * another worker over a customer two subscriptions share, a question for Stripe Tax, a defect of one
 * item) kept nothing of the transaction that failed, and its items are done again each alone (`alone`),
 * where a failure stays the item's own: every item is safe to do again, since a period is claimed by a
 * conditional UPDATE and a charge attempt is recorded under its counter. Where `ctx.db` is already a
 * transaction, nothing could be rolled back on its own: each item is done alone, as before grouping.
 */
async function inGroups<T>(
  ctx: Context,
  items: readonly T[],
  group: (items: readonly T[]) => Promise<number>,
  alone: (item: T) => Promise<boolean | void>,
): Promise<number> {
  if (inTransaction(ctx.db)) return forEachConcurrently(items, CONCURRENCY, alone);
  const groups: T[][] = [];
  for (let start = 0; start < items.length; start += GROUP) groups.push(items.slice(start, start + GROUP));
  let done = 0;
  await forEachConcurrently(groups, CONCURRENCY, async (members) => {
    // Counted after the await: `done += await …` would add to the value read before the lanes' awaits.
    let count: number;
    try {
      count = await group(members);
    } catch (error) {
      if (error instanceof DoneAlone) throw error.failure;
      if (!(error instanceof StripeTaxQuestion)) ctx.log.warn({ err: error }, 'billing group done again one by one');
      count = await forEachConcurrently(members, 1, alone);
    }
    done += count;
  });
  return done;
}

function newClaim(ctx: Context): BillingClaim {
  const serverNow = serverClock(ctx.clock).now();
  return { token: randomUUID(), serverNow, until: new Date(serverNow.getTime() + CLAIM_MS) };
}

export interface BillingRunSummary {
  /** Periods renewed or subscriptions ended at period end. */
  renewals: number;
  charge_attempts: number;
}

/**
 * One organization's due work on its own clock (its test clock, or the server's): billing, then the
 * expiry of its open checkouts.
 */
export async function runOrganizationDueWork(
  ctx: Context,
  run: JobRun,
  organizationId: string,
): Promise<BillingRunSummary & { checkouts_expired: number }> {
  const own = await onOrganizationClock(ctx, organizationId);
  const onOwnClock = runOnClock(run, own.clock);
  const billing = await runSubscriptionBilling(own, onOwnClock, { organizationId });
  // Every expired checkout, a batch per transaction (the organization's clock may have jumped months).
  let expired = 0;
  for (;;) {
    const batch = await onOwnClock.transaction((tx) => expireCheckouts(tx, organizationId));
    expired += batch;
    if (batch < EXPIRE_BATCH) break;
  }
  return { ...billing, checkouts_expired: expired };
}

export const subscriptionBillingJob = defineJob<Record<string, never>>({
  name: 'subscription.billing',
  schema: z.object({}),
  transaction: false,
  retryLimit: 3,
  async handle(ctx, _data, run) {
    const jobRun = run ?? runIn(ctx);
    if (!ctx.config.devMode) {
      await runSubscriptionBilling(ctx, jobRun);
      return;
    }
    await runSubscriptionBilling(ctx, jobRun, { skipTestClocks: true });
    for (const { organizationId } of await organizationsWithTestClocks(ctx.db)) {
      await runOrganizationDueWork(ctx, jobRun, organizationId);
    }
  },
});

/** Every minute: renewals happen at most a minute after the period ends. */
export const subscriptionBillingSchedule: PeriodicTask = { job: subscriptionBillingJob, everySeconds: 60 };
