import { z } from 'zod/v4';
import type { Context } from '../../platform/context.js';
import { recordWebhookEvent } from '../../platform/events.js';
import type { PeriodicTask } from '../../platform/jobs/periodic.js';
import { defineJob, runIn, type JobRun } from '../../platform/jobs/queue.js';
import { onOrganizationClock } from '../../platform/test-clock.js';
import { recordBalanceMovement, lockBillingCustomer } from '../billing/billing.repository.js';
import { enqueueRevocationsForOrder } from '../benefit-grants/benefit-grants.service.js';
import { lockOrderById } from '../orders/orders.repository.js';
import { recordOrderRefund } from '../orders/orders.service.js';
import {
  findProcessorPaymentId,
  findRefundById,
  findRefundByProcessorId,
  findStalePendingRefunds,
  lockRefund,
  updateRefundRow,
  type RefundRow,
} from './refunds.repository.js';
import { serializeRefund } from './refunds.serializer.js';
import type { RefundCall } from './refunds.service.js';

/**
 * Steps 2 and 3 of a refund (step 1, `reserveRefund`, commits it pending). Create, the reconciliation
 * job and the processor's webhook all settle through `settleRefund`, exactly once per refund.
 */

/** What the processor said; `interrupted`: no answer (timeout, network), the money may have moved. */
export type RefundOutcome =
  | { status: 'succeeded' | 'pending'; processorRefundId: string | null }
  | { status: 'failed'; processorRefundId: string | null; failureReason: string }
  | { status: 'interrupted' };

/**
 * Step 2, with no transaction open. A refund with nothing for the card (the credit balance paid that
 * part) succeeds without a call. The idempotency key is the refund's: a repeated call (a retried job,
 * the reconciliation) gets the processor's first answer and moves no money twice.
 */
export async function askProcessor(ctx: Context, call: RefundCall): Promise<RefundOutcome> {
  const { refund } = call;
  if (refund.processor_amount === 0) return { status: 'succeeded', processorRefundId: null };
  if (!ctx.payments || !call.processorPaymentId) return { status: 'interrupted' };
  try {
    return await ctx.payments.refund({
      processorPaymentId: call.processorPaymentId,
      amount: refund.processor_amount,
      idempotencyKey: refund.idempotency_key,
      reason: refund.reason,
    });
  } catch (error) {
    ctx.log.warn(
      { refundId: refund.id, error: error instanceof Error ? error.name : 'unknown' },
      'refund: no answer from the processor',
    );
    return { status: 'interrupted' };
  }
}

/**
 * Step 3, in a transaction of its own, under the order's row lock (taken before the refund's, as step
 * 1 does). A refund no longer pending is answered as it is. `succeeded`: the order's refunded amounts
 * and status move (`order.updated`, `order.refunded`), the credit balance gets back its part, the
 * order's benefit grants are revoked when asked; `failed`: the reserved amount is released. The
 * processor's first answer records `refund.created` (pending, succeeded or failed), later ones
 * `refund.updated`.
 */
export async function settleRefund(base: Context, run: JobRun, refundId: string, outcome: RefundOutcome) {
  return run.transaction(async (tx): Promise<RefundRow> => {
    const known = (await findRefundById(tx.db, refundId))!;
    const ctx = await onOrganizationClock({ ...tx, log: base.log }, known.organization_id);
    await lockOrderById(ctx.db, known.order_id);
    const refund = (await lockRefund(ctx.db, refundId))!;
    if (refund.status !== 'pending' || outcome.status === 'interrupted') return refund;
    const now = ctx.clock.now();
    // The processor's first answer announces the refund; a refund it first reported pending (and so
    // holds its id) was announced then, and what follows is an update.
    const event = refund.processor_refund_id === null ? 'refund.created' : 'refund.updated';
    if (outcome.status === 'pending') {
      if (!outcome.processorRefundId || outcome.processorRefundId === refund.processor_refund_id) return refund;
      const waiting = await updateRefundRow(ctx.db, refund.id, {
        processor_refund_id: outcome.processorRefundId,
        modified_at: now,
      });
      await recordWebhookEvent(ctx, refund.organization_id, event, serializeRefund(waiting));
      return waiting;
    }
    if (outcome.status === 'failed') {
      ctx.log.warn({ refundId: refund.id, reason: outcome.failureReason }, 'refund refused by the processor');
      const failed = await updateRefundRow(ctx.db, refund.id, {
        status: 'failed',
        processor_refund_id: outcome.processorRefundId ?? refund.processor_refund_id,
        failure_reason: outcome.failureReason,
        modified_at: now,
      });
      await recordWebhookEvent(ctx, refund.organization_id, event, serializeRefund(failed));
      return failed;
    }
    const succeeded = await updateRefundRow(ctx.db, refund.id, {
      status: 'succeeded',
      processor_refund_id: outcome.processorRefundId ?? refund.processor_refund_id,
      modified_at: now,
    });
    if (refund.balance_amount > 0) {
      await lockBillingCustomer(ctx.db, refund.customer_id);
      await recordBalanceMovement(ctx.db, {
        organization_id: refund.organization_id,
        customer_id: refund.customer_id,
        currency: refund.currency,
        amount: refund.balance_amount,
        kind: 'refunded',
        order_id: refund.order_id,
        refund_id: refund.id,
        at: now,
      });
    }
    await recordWebhookEvent(ctx, refund.organization_id, event, serializeRefund(succeeded));
    await recordOrderRefund(ctx, refund.order_id, { amount: refund.amount, tax_amount: refund.tax_amount });
    if (refund.revoke_benefits) await enqueueRevocationsForOrder(ctx, refund.order_id);
    return succeeded;
  });
}

/** A refund pending for longer than this lost its request (a crash between the steps) or waits on the processor. */
export const STALE_REFUND_MS = 60_000;
const BATCH = 50;

/**
 * Finishes refunds left `pending`: each is taken in a short transaction (touched, so a concurrent run
 * skips it), the processor is asked again with the refund's idempotency key outside any transaction (a
 * refund it already made answers the same, one it never received is made now, once), and the outcome
 * is settled. Refunds the processor still reports pending wait for the next run or its webhook.
 */
export async function reconcileRefunds(
  ctx: Context,
  run: JobRun = ctx.transactions ?? runIn(ctx),
): Promise<{ settled: number; waiting: number }> {
  const summary = { settled: 0, waiting: 0 };
  const stale = await findStalePendingRefunds(ctx.db, new Date(ctx.clock.now().getTime() - STALE_REFUND_MS), BATCH);
  for (const candidate of stale) {
    const call = await run.transaction(async (tx) => {
      const refund = await lockRefund(tx.db, candidate.id);
      if (!refund || refund.status !== 'pending' || +refund.modified_at! !== +candidate.modified_at!) return null;
      const taken = await updateRefundRow(tx.db, refund.id, { modified_at: tx.clock.now() });
      const processorPaymentId = taken.payment_id ? await findProcessorPaymentId(tx.db, taken.payment_id) : null;
      return { refund: taken, processorPaymentId };
    });
    if (!call) continue;
    const outcome = await askProcessor(ctx, call);
    const settled = await settleRefund(ctx, run, call.refund.id, outcome);
    if (settled.status === 'pending') summary.waiting++;
    else summary.settled++;
  }
  if (summary.settled > 0 || summary.waiting > 0) ctx.log.info(summary, 'refunds reconciled');
  return summary;
}

export const reconcileRefundsJob = defineJob<Record<string, never>>({
  name: 'refund.reconcile',
  schema: z.object({}),
  // Processor calls: no transaction may be open across them.
  transaction: false,
  retryLimit: 1,
  async handle(ctx, _data, run) {
    await reconcileRefunds(ctx, run ?? runIn(ctx));
  },
});

/** Every minute: a refund a crash left pending is finished one to two minutes later. */
export const reconcileRefundsSchedule: PeriodicTask = { job: reconcileRefundsJob, everySeconds: 60 };

/**
 * A processor's own report of a refund it made for Tessera (Stripe's `refund.updated`): settled
 * through step 3 like any other answer. Answers false for a refund Tessera did not make.
 */
export async function settleFromProcessor(
  ctx: Context,
  run: JobRun,
  processorRefundId: string,
  outcome: Exclude<RefundOutcome, { status: 'interrupted' }>,
): Promise<boolean> {
  const refund = await findRefundByProcessorId(ctx.db, processorRefundId);
  if (!refund) return false;
  await settleRefund(ctx, run, refund.id, outcome);
  return true;
}
