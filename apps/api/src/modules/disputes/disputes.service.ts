import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { ResourceNotFound, validationError } from '../../platform/http/errors.js';
import { pageOf } from '../../platform/http/query.js';
import { runIn } from '../../platform/jobs/queue.js';
import { onOrganizationClock } from '../../platform/test-clock.js';
import { enqueueRevocationsForOrder } from '../benefit-grants/benefit-grants.service.js';
import { findCustomersByIds, findOrderById } from '../orders/orders.repository.js';
import { lockSubscriptionById } from '../subscriptions/subscriptions.repository.js';
import { endSubscription } from '../subscriptions/subscriptions.service.js';
import { DisputeNotOpenError } from './disputes.errors.js';
import {
  findDisputedPayment,
  findVisibleDispute,
  findVisibleOrderPayment,
  insertDispute,
  listVisibleDisputes,
  lockDispute,
  lockDisputeByProcessorId,
  updateDispute,
  type DisputeRow,
} from './disputes.repository.js';
import { acceptDecision, afterProcessorReport, isResolved, splitDisputedTotal } from './disputes.rules.js';
import type { DisputeListParams, DisputeSimulateInput } from './disputes.schemas.js';
import { serializeDispute, type DisputeWire } from './disputes.serializer.js';

/**
 * Disputes (chargebacks): recorded as the payment processor reports them (Stripe's `charge.dispute.*`
 * events; the simulated processor's through `POST /v1/disputes/simulate` in development), read by the
 * seller, and accepted — conceded — by the seller. As the reference, a lost dispute changes neither the
 * order's amounts nor its status: the money went back through the card network, not as a refund; the
 * dispute carries what was lost (`amount`, `tax_amount`).
 */

async function serializeDisputes(ctx: Context, rows: DisputeRow[]): Promise<DisputeWire[]> {
  const customers = await findCustomersByIds(
    ctx.db,
    rows.map((row) => row.customer_id),
  );
  return rows.map((row) => serializeDispute(row, customers.get(row.customer_id)!));
}

export async function listDisputes(ctx: Context, params: DisputeListParams) {
  const { rows, total } = await listVisibleDisputes(ctx.db, ctx.subject, params);
  return pageOf(await serializeDisputes(ctx, rows), total, params);
}

export async function getDispute(ctx: Context, id: string): Promise<DisputeWire> {
  const row = await findVisibleDispute(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return (await serializeDisputes(ctx, [row]))[0]!;
}

/** What a processor reports about a dispute: its id, the disputed payment, the total and the status. */
export interface ProcessorDisputeReport {
  processorDisputeId: string;
  processorPaymentId: string;
  /** The disputed total, tax included, in the payment's currency. */
  amount: number;
  reason: string | null;
  status: DisputeWire['status'];
  evidenceDueBy: Date | null;
  pastDue: boolean;
}

/**
 * Records a processor's report, in the caller's transaction, once per report: a new dispute is inserted
 * (its total split into amount and tax as the order's), a known one takes the status the rules allow (a
 * closed one keeps its outcome). Answers the dispute and whether it was opened by this report; null for a
 * payment Tessera did not record.
 */
export async function recordProcessorDispute(
  ctx: Context,
  report: ProcessorDisputeReport,
): Promise<{ dispute: DisputeRow; opened: boolean } | null> {
  const now = ctx.clock.now();
  const known = await lockDisputeByProcessorId(ctx.db, report.processorDisputeId);
  if (known) {
    const status = afterProcessorReport(known.status, report.status);
    const dispute = await updateDispute(ctx.db, known.id, {
      status,
      reason: report.reason ?? known.reason,
      evidence_due_by: report.evidenceDueBy,
      past_due: report.pastDue,
      modified_at: now,
    });
    if (!isResolved(known.status) && isResolved(status)) await revokeWhatWasDisputed(ctx, dispute);
    return { dispute, opened: false };
  }
  const payment = await findDisputedPayment(ctx.db, report.processorPaymentId);
  if (!payment) return null;
  const split = splitDisputedTotal(report.amount, payment);
  const inserted = await insertDispute(ctx.db, {
    id: randomUUID(),
    created_at: now,
    modified_at: null,
    organization_id: payment.organization_id,
    order_id: payment.order_id,
    payment_id: payment.payment_id,
    customer_id: payment.customer_id,
    processor: payment.processor,
    processor_dispute_id: report.processorDisputeId,
    amount: split.amount,
    tax_amount: split.tax_amount,
    currency: payment.currency,
    reason: report.reason,
    status: report.status,
    evidence_due_by: report.evidenceDueBy,
    past_due: report.pastDue,
  });
  if (!inserted) return recordProcessorDispute(ctx, report);
  return { dispute: inserted, opened: true };
}

/**
 * `POST /v1/disputes/{id}/accept`, in three steps as every processor call (no request transaction): the
 * dispute checked under its lock, then closed at the processor with no transaction open (key
 * `dispute-accept:{id}`: a retry closes it once), then recorded `lost` with the acceptance in a
 * transaction of its own. Accepting again answers the dispute as it is.
 */
export async function acceptDispute(base: Context, id: string): Promise<DisputeWire> {
  const run = base.transactions ?? runIn(base);
  const found = await run.transaction(async (tx) => {
    const visible = await findVisibleDispute(tx.db, tx.subject, id);
    if (!visible) throw new ResourceNotFound();
    const row = (await lockDispute(tx.db, visible.id))!;
    const decision = acceptDecision(row);
    if (decision === 'not_open') throw new DisputeNotOpenError(row.id);
    return { row, decision };
  });
  if (found.decision === 'close_with_processor') {
    if (!base.payments) throw new Error('no payment processor to close the dispute with');
    await base.payments.closeDispute({
      processor: found.row.processor,
      processorDisputeId: found.row.processor_dispute_id,
      idempotencyKey: `dispute-accept:${found.row.id}`,
    });
    await run.transaction(async (tx) => {
      const ctx = await onOrganizationClock(tx, found.row.organization_id);
      const row = (await lockDispute(ctx.db, found.row.id))!;
      if (row.accepted_at !== null) return;
      const now = ctx.clock.now();
      // The processor settles a closed dispute as lost; its own event may have said so already.
      const status = afterProcessorReport(row.status, 'lost');
      const accepted = await updateDispute(ctx.db, row.id, { status, accepted_at: now, modified_at: now });
      if (!isResolved(row.status) && isResolved(status)) await revokeWhatWasDisputed(ctx, accepted);
    });
  }
  return run.transaction((tx) => getDispute(tx, id));
}

/**
 * `POST /v1/disputes/simulate` (development only): the simulated processor reports a dispute on the
 * order's payment, through the same recording as Stripe's events.
 */
export async function simulateDispute(ctx: Context, input: DisputeSimulateInput): Promise<DisputeWire> {
  const payment = await findVisibleOrderPayment(ctx.db, ctx.subject, input.order_id);
  if (!payment?.processor_payment_id) throw new ResourceNotFound();
  const disputed = await findDisputedPayment(ctx.db, payment.processor_payment_id);
  if (!disputed) throw new ResourceNotFound();
  if (disputed.processor !== 'simulated') {
    throw validationError(['body', 'order_id'], 'Only a payment of the simulated processor can be disputed here.');
  }
  const now = ctx.clock.now();
  const recorded = await recordProcessorDispute(ctx, {
    processorDisputeId: `dp_sim_${randomUUID().replace(/-/g, '')}`,
    processorPaymentId: payment.processor_payment_id,
    amount: input.amount ?? disputed.total_amount,
    reason: input.reason,
    status: input.status,
    // Card networks give the seller about a week to answer.
    evidenceDueBy: input.status === 'needs_response' ? new Date(now.getTime() + 7 * 24 * 3600_000) : null,
    pastDue: false,
  });
  return getDispute(ctx, recorded!.dispute.id);
}

/**
 * What a resolved dispute takes away, as the reference: the order's subscription ends now (its benefits
 * revoked with it), or the one-time order's benefits are revoked (grant jobs, in this transaction). Once:
 * callers call it on the transition into a resolved status only.
 */
async function revokeWhatWasDisputed(ctx: Context, dispute: DisputeRow): Promise<void> {
  const order = await findOrderById(ctx.db, dispute.order_id);
  if (!order) return;
  if (order.subscription_id) {
    const subscription = await lockSubscriptionById(ctx.db, order.subscription_id);
    if (subscription && !subscription.ended_at) await endSubscription(ctx, subscription);
    return;
  }
  await enqueueRevocationsForOrder(ctx, order.id);
}
