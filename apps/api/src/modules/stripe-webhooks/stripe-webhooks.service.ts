import type Stripe from 'stripe';
import type { Context } from '../../platform/context.js';
import { recordWebhookEvent } from '../../platform/events.js';
import type { JobRun } from '../../platform/jobs/queue.js';
import type { CheckoutChargeResult } from '../../platform/payments/processor.js';
import { checkoutChargeResult } from '../../platform/payments/stripe-intents.js';
import { settleAttempt } from '../checkouts/checkouts.payment.js';
import { findAttemptByIdempotencyKey, findAttemptByProcessorPaymentId } from '../checkouts/checkouts.repository.js';
import { loadOrder, markOrderRefunded, recordOrderRefund } from '../orders/orders.service.js';
import { findOrderById, lockOrderById } from '../orders/orders.repository.js';
import { hasRefunds } from '../refunds/refunds.repository.js';
import { settleFromProcessor } from '../refunds/refunds.settle.js';
import { organizationRecipients } from '../webhooks/webhooks.repository.js';
import { queueEmail } from '../../platform/mail/outbox.js';
import { IDEMPOTENCY_METADATA_KEY } from '../../platform/payments/stripe-intents.js';
import { fromStripeStatus, recordProcessorDispute } from '../disputes/index.js';
import {
  findPaymentByProcessorId,
  isStripeEventHandled,
  markStripeEventHandled,
} from './stripe-webhooks.repository.js';

/**
 * Stripe's events, received once each (by event id):
 * - `payment_intent.succeeded` / `payment_failed` / `processing` / `canceled`: a checkout payment that
 *   waited (3-D Secure, a bank's `processing`, a lost answer) is settled as the PaymentIntent says,
 *   through the same step 3 as confirm (exactly once, whoever comes first);
 * - `charge.refunded`: a refund made in the Stripe dashboard: the order is marked refunded (in full or
 *   in part) with `order.updated` and `order.refunded` (orders refunded through Tessera are left to
 *   their refunds);
 * - `refund.updated` / `refund.failed` / `charge.refund.updated`: a refund Tessera asked for settles as
 *   Stripe reports it (modules/refunds);
 * - `charge.dispute.created` / `updated` / `closed`: the dispute is recorded (modules/disputes), and its
 *   opening is told to the seller (`order.updated` webhook, an email to the organization).
 * Events about anything Tessera did not create are acknowledged and ignored.
 */
export type StripeEventOutcome = 'handled' | 'duplicate' | 'ignored';

const PAYMENT_INTENT_EVENTS = new Set([
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.processing',
  'payment_intent.canceled',
]);

/** A refund Tessera asked for, reported by Stripe as it settles (a card refund may stay pending for days). */
const REFUND_EVENTS = new Set(['refund.updated', 'refund.failed', 'charge.refund.updated']);

export async function handleStripeEvent(ctx: Context, run: JobRun, event: Stripe.Event): Promise<StripeEventOutcome> {
  if (await isStripeEventHandled(ctx.db, event.id)) return 'duplicate';
  if (REFUND_EVENTS.has(event.type)) {
    const handled = await settleFromStripeRefund(ctx, run, event.data.object as Stripe.Refund);
    await run.transaction((tx) => markStripeEventHandled(tx.db, event.id, event.type, tx.clock.now()));
    return handled ? 'handled' : 'ignored';
  }
  if (PAYMENT_INTENT_EVENTS.has(event.type)) {
    const handled = await settleFromPaymentIntent(ctx, run, event.data.object as Stripe.PaymentIntent);
    await run.transaction((tx) => markStripeEventHandled(tx.db, event.id, event.type, tx.clock.now()));
    return handled ? 'handled' : 'ignored';
  }
  return run.transaction(async (tx) => {
    if (!(await markStripeEventHandled(tx.db, event.id, event.type, tx.clock.now()))) return 'duplicate';
    switch (event.type) {
      case 'charge.refunded':
        return (await recordRefund(tx, event.data.object)) ? 'handled' : 'ignored';
      case 'charge.dispute.created':
      case 'charge.dispute.updated':
      case 'charge.dispute.closed':
      case 'charge.dispute.funds_withdrawn':
      case 'charge.dispute.funds_reinstated':
        return (await recordDispute(tx, event.data.object)) ? 'handled' : 'ignored';
      default:
        return 'ignored';
    }
  });
}

/** The outcome a PaymentIntent event reports (a canceled or failed one is a decline). */
function outcomeOfIntent(intent: Stripe.PaymentIntent, saved: boolean): CheckoutChargeResult {
  if (intent.status === 'canceled') {
    return {
      status: 'failed',
      processorPaymentId: intent.id,
      declineReason: 'payment_intent_canceled',
      declineMessage: 'The payment was canceled.',
      card: null,
    };
  }
  if (intent.status === 'requires_payment_method') {
    const error = intent.last_payment_error;
    return {
      status: 'failed',
      processorPaymentId: intent.id,
      declineReason: error?.decline_code ?? error?.code ?? 'payment_intent_requires_payment_method',
      declineMessage: error?.message ?? 'The payment could not be completed.',
      card: null,
    };
  }
  return checkoutChargeResult(intent, saved);
}

async function settleFromPaymentIntent(ctx: Context, run: JobRun, intent: Stripe.PaymentIntent): Promise<boolean> {
  const key = intent.metadata?.[IDEMPOTENCY_METADATA_KEY];
  const attempt =
    (await findAttemptByProcessorPaymentId(ctx.db, intent.id)) ??
    (key ? await findAttemptByIdempotencyKey(ctx.db, key) : undefined);
  if (!attempt) return false;
  const outcome = outcomeOfIntent(intent, attempt.save_payment_method);
  if (outcome.status === 'requires_action') return true;
  await settleAttempt(ctx, run, attempt.id, outcome);
  return true;
}

const intentIdOf = (value: string | Stripe.PaymentIntent | null): string | null =>
  value === null ? null : typeof value === 'string' ? value : value.id;

/**
 * `charge.refunded`: a refund made outside Tessera (in the Stripe dashboard): the order of the charge's
 * payment records what Stripe says was refunded in all, the tax in proportion of the total. An order
 * refunded through Tessera's refunds is left to them (each refund settles its own amounts).
 */
async function recordRefund(ctx: Context, charge: Stripe.Charge): Promise<boolean> {
  const intentId = intentIdOf(charge.payment_intent);
  const payment = intentId ? await findPaymentByProcessorId(ctx.db, intentId) : undefined;
  if (!payment?.order_id) return false;
  const order = await lockOrderById(ctx.db, payment.order_id);
  if (!order) return false;
  if (await hasRefunds(ctx.db, order.id)) return true;
  if (charge.amount_refunded >= charge.amount) {
    await markOrderRefunded(ctx, order.id);
    return true;
  }
  const refunded = Math.min(charge.amount_refunded, order.total_amount);
  const tax = order.total_amount > 0 ? Math.floor((refunded * order.tax_amount) / order.total_amount) : 0;
  const amount = Math.min(refunded - tax, order.net_amount) - order.refunded_amount;
  const taxAmount = Math.min(tax, order.tax_amount) - order.refunded_tax_amount;
  if (amount <= 0 && taxAmount <= 0) return true;
  await recordOrderRefund(ctx, order.id, { amount: Math.max(amount, 0), tax_amount: Math.max(taxAmount, 0) });
  return true;
}

/** `refund.updated` and the like: a refund Tessera made is settled as Stripe now reports it. */
async function settleFromStripeRefund(ctx: Context, run: JobRun, refund: Stripe.Refund): Promise<boolean> {
  const status = refund.status ?? 'pending';
  const outcome =
    status === 'succeeded'
      ? ({ status: 'succeeded', processorRefundId: refund.id } as const)
      : status === 'failed' || status === 'canceled'
        ? ({ status: 'failed', processorRefundId: refund.id, failureReason: refund.failure_reason ?? status } as const)
        : ({ status: 'pending', processorRefundId: refund.id } as const);
  return settleFromProcessor(ctx, run, refund.id, outcome);
}

/**
 * `charge.dispute.*`: the dispute recorded by the disputes module (its status as the reference's, a
 * closed one keeping its outcome); the seller is told when it opens.
 */
async function recordDispute(ctx: Context, dispute: Stripe.Dispute): Promise<boolean> {
  const intentId = intentIdOf(dispute.payment_intent);
  if (!intentId) return false;
  const dueBy = dispute.evidence_details?.due_by;
  const recorded = await recordProcessorDispute(ctx, {
    processorDisputeId: dispute.id,
    processorPaymentId: intentId,
    amount: dispute.amount,
    reason: dispute.reason ?? null,
    status: fromStripeStatus(dispute.status),
    evidenceDueBy: dueBy ? new Date(dueBy * 1000) : null,
    pastDue: dispute.evidence_details?.past_due ?? false,
  });
  if (!recorded) return false;
  if (!recorded.opened) return true;
  const order = (await findOrderById(ctx.db, recorded.dispute.order_id))!;
  await recordWebhookEvent(ctx, order.organization_id, 'order.updated', await loadOrder(ctx, order.id));
  const recipients = await organizationRecipients(ctx.db, order.organization_id);
  await queueEmail(ctx, {
    organizationId: order.organization_id,
    to: recipients,
    template: 'order_dispute_created',
    data: {
      orderId: order.id,
      invoiceNumber: order.invoice_number,
      amount: dispute.amount,
      currency: dispute.currency,
      reason: dispute.reason,
    },
  });
  return true;
}
