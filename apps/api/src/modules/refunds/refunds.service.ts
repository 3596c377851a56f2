import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { BadRequest, IssueCollector } from '../../platform/http/errors.js';
import { pageOf } from '../../platform/http/query.js';
import { runIn } from '../../platform/jobs/queue.js';
import { PaymentProcessorUnavailable, UnavailablePaymentProcessor } from '../../platform/payments/index.js';
import type { RefundReason } from '../../db/tables/refunds.js';
import type { Metadata } from '../../platform/http/metadata.js';
import { lockOrderById, lockVisibleOrder, type OrderRow } from '../orders/orders.repository.js';
import {
  RefundAmountTooHigh,
  RefundedAlready,
  RefundUnknownPayment,
  RevokeSubscriptionBenefitsProhibited,
} from './refunds.errors.js';
import { refundableAmount, refundTaxPortion, splitRefund } from './refunds.money.js';
import {
  findProcessorPaymentId,
  findRefundablePayment,
  findRefundByIdempotencyKey,
  insertRefund,
  listVisibleRefunds,
  sumRefundsOfOrder,
  type RefundRow,
} from './refunds.repository.js';
import type { RefundCreateInput, RefundListParams } from './refunds.schemas.js';
import { serializeRefund, type RefundWire } from './refunds.serializer.js';
import { askProcessor, settleRefund } from './refunds.settle.js';

/**
 * Refunds (research §7.2, §7.3). Creating one takes three steps, as a checkout payment does:
 * 1. `reserveRefund`, in one short transaction under the order's row lock: the reference's checks in
 *    its order, the tax portion, the split between card and credit balance, and the refund committed
 *    `pending` (its amount is reserved: a concurrent refund of the same order sees it);
 * 2. the processor is asked with NO transaction open, with the refund's idempotency key
 *    (`refund:{id}`): asking again after a crash or a lost answer never refunds twice;
 * 3. `settleRefund` records the outcome once, in a transaction of its own (refunds.settle.ts), with
 *    `refund.created` for the processor's first answer (as the reference creates its refund from it, so
 *    a refund announced as created is one the processor took), `refund.updated` for later ones.
 * A refund left pending (a crash, a lost answer, a processor that settles later) is finished by the
 * reconciliation job or the processor's webhook.
 */

export async function listRefunds(ctx: Context, params: RefundListParams) {
  const { rows, total } = await listVisibleRefunds(ctx.db, ctx.subject, params);
  return pageOf(rows.map(serializeRefund), total, params);
}

export function refundIdempotencyKey(refundId: string): string {
  return `refund:${refundId}`;
}

/** What step 2 needs, read in step 1. */
export interface RefundCall {
  refund: RefundRow;
  processorPaymentId: string | null;
}

/** Step 1, in the caller's transaction. */
export async function reserveRefund(ctx: Context, input: RefundCreateInput): Promise<RefundCall> {
  // The row lock serializes refunds of one order: the amounts reserved below are read under it.
  const order = await lockVisibleOrder(ctx.db, ctx.subject, input.order_id);
  if (!order) {
    const issues = new IssueCollector();
    issues.add(['body', 'order_id'], 'Order not found');
    issues.throwIfAny();
  }
  const found = order!;
  if (found.status === 'refunded') throw new RefundedAlready(found.id);
  if (input.revoke_benefits && found.subscription_id) throw new RevokeSubscriptionBenefitsProhibited();
  if (found.status === 'pending') {
    const issues = new IssueCollector();
    issues.add(['body', 'order_id'], 'Order is not paid');
    issues.throwIfAny();
  }

  const state = await refundState(ctx, found);
  const refundable = refundableAmount(state);
  if (input.amount > refundable) throw new RefundAmountTooHigh(refundable);
  const id = randomUUID();
  return insertReservedRefund(ctx, found, state, {
    id,
    amount: input.amount,
    reason: input.reason,
    comment: input.comment ?? null,
    revoke_benefits: input.revoke_benefits,
    metadata: input.metadata ?? {},
    idempotency_key: refundIdempotencyKey(id),
  });
}

/** The order as refunds see it: refunds still pending count as refunded (their amounts are reserved). */
async function refundState(ctx: Context, order: OrderRow) {
  const held = await sumRefundsOfOrder(ctx.db, order.id);
  return {
    net_amount: order.net_amount,
    tax_amount: order.tax_amount,
    refunded_amount: order.refunded_amount + held.pending_amount,
    refunded_tax_amount: order.refunded_tax_amount + held.pending_tax_amount,
    card_refunded: held.processor_amount,
    balance_refunded: held.balance_amount,
  };
}

interface Reservation {
  id: string;
  amount: number;
  reason: RefundReason;
  comment: string | null;
  revoke_benefits: boolean;
  metadata: Metadata;
  idempotency_key: string;
}

/**
 * Commits a refund `pending` for an order locked by the caller: its tax portion, and amount + tax split
 * between the card (up to what its payment took and has not had back) and the credit balance.
 */
async function insertReservedRefund(
  ctx: Context,
  order: OrderRow,
  state: Awaited<ReturnType<typeof refundState>>,
  reservation: Reservation,
): Promise<RefundCall> {
  const tax = refundTaxPortion(state, reservation.amount);
  const payment = await findRefundablePayment(ctx.db, order.id);
  const cardRefundable = payment ? payment.amount - state.card_refunded : 0;
  const split = splitRefund(reservation.amount + tax, cardRefundable);
  // The balance gets back only what it paid: more would be money that never came in.
  if (split.balance > order.applied_balance_amount - state.balance_refunded) throw new RefundUnknownPayment(order.id);
  const processor = ctx.payments;
  if (split.processor > 0 && (!processor || processor instanceof UnavailablePaymentProcessor)) {
    throw new BadRequest(new PaymentProcessorUnavailable().message);
  }
  const now = ctx.clock.now();
  const refund = await insertRefund(ctx.db, {
    id: reservation.id,
    created_at: now,
    modified_at: now,
    organization_id: order.organization_id,
    order_id: order.id,
    subscription_id: order.subscription_id,
    customer_id: order.customer_id,
    payment_id: split.processor > 0 ? payment!.id : null,
    status: 'pending',
    reason: reservation.reason,
    amount: reservation.amount,
    tax_amount: tax,
    currency: order.currency,
    comment: reservation.comment,
    revoke_benefits: reservation.revoke_benefits,
    metadata: JSON.stringify(reservation.metadata),
    processor: payment?.processor ?? processor?.name ?? 'simulated',
    processor_amount: split.processor,
    balance_amount: split.balance,
    idempotency_key: reservation.idempotency_key,
  });
  return { refund, processorPaymentId: split.processor > 0 ? payment!.processor_payment_id : null };
}

/**
 * A refund Tessera makes on its own, of all that is left of a paid order (a renewal charged after its
 * subscription ended), in the caller's transaction: reserved once under `idempotencyKey`. Answers the
 * pending refund to send (again, after a crash), or null when there is nothing to do: the order is not
 * paid or nothing is left, or the refund under this key has settled.
 */
export async function reserveFullRefund(
  ctx: Context,
  orderId: string,
  input: { idempotencyKey: string; reason: RefundReason; comment: string },
): Promise<RefundCall | null> {
  const order = await lockOrderById(ctx.db, orderId);
  if (!order) return null;
  const existing = await findRefundByIdempotencyKey(ctx.db, input.idempotencyKey);
  if (existing) {
    if (existing.status !== 'pending') return null;
    const processorPaymentId = existing.payment_id ? await findProcessorPaymentId(ctx.db, existing.payment_id) : null;
    return { refund: existing, processorPaymentId };
  }
  if (order.status !== 'paid' && order.status !== 'partially_refunded') return null;
  const state = await refundState(ctx, order);
  const amount = refundableAmount(state);
  if (amount <= 0) return null;
  return insertReservedRefund(ctx, order, state, {
    id: randomUUID(),
    amount,
    reason: input.reason,
    comment: input.comment,
    revoke_benefits: false,
    metadata: {},
    idempotency_key: input.idempotencyKey,
  });
}

/**
 * `POST /v1/refunds/` (a route without a request-wide transaction): reserve, ask the processor with no
 * transaction open, settle. Answers the refund as it stands: `succeeded`, `failed` when the processor
 * refused it, or `pending` when the processor settles it later.
 */
export async function createRefund(base: Context, input: RefundCreateInput): Promise<RefundWire> {
  const run = base.transactions ?? runIn(base);
  const call = await run.transaction((tx) => reserveRefund({ ...tx, log: base.log, request: base.request }, input));
  const outcome = await askProcessor(base, call);
  const settled = await settleRefund(base, run, call.refund.id, outcome);
  return serializeRefund(settled);
}
