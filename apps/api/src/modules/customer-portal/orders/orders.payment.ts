import type { Context } from '../../../platform/context.js';
import { ResourceNotFound, validationError } from '../../../platform/http/errors.js';
import { runIn } from '../../../platform/jobs/queue.js';
import { onOrganizationClock } from '../../../platform/test-clock.js';
import { findLatestPaymentOfOrder } from '../../payments/payments.repository.js';
import { attemptCharge, readyChargeForCustomer } from '../../subscriptions/subscriptions.renewal.js';
import { makeDefault } from '../payment-methods/payment-methods.defaults.js';
import { PaymentMethodNotConfirmed, PaymentMethodRefused } from '../payment-methods/payment-methods.errors.js';
import { findOwnedMethod } from '../payment-methods/payment-methods.repository.js';
import { addPaymentMethod } from '../payment-methods/payment-methods.service.js';
import { OrderNotEligibleForRetry, PaymentAlreadyInProgress } from './orders.errors.js';
import { findOwnedOrder } from './orders.repository.js';
import type { CustomerOrderConfirmPaymentInput, CustomerOrderPaymentConfirmationWire } from './orders.schemas.js';

/**
 * The customer pays an order awaiting payment (a renewal or a plan change's charge in dunning) from the
 * portal, as the reference's `confirm-payment`. The charge is the dunning retry's own: the order's
 * pending charge is made due now and `attemptCharge` makes the attempt (read in a short transaction,
 * the processor called with none open under `subscription-charge:{order}:{attempt}`, the outcome
 * recorded once). The method chosen becomes the customer's default, which bills every subscription
 * (docs/payment-methods.md): a new card is saved first with the portal's own three steps.
 */

/** `GET /v1/customer-portal/orders/{id}/payment-status`: the latest payment's status and decline message. */
export async function getCustomerOrderPaymentStatus(
  ctx: Context,
  id: string,
): Promise<{ status: string; error: string | null }> {
  const order = await findOwnedOrder(ctx.db, ctx.subject, id);
  if (!order) throw new ResourceNotFound();
  const payment = await findLatestPaymentOfOrder(ctx.db, order.id);
  if (!payment) return { status: 'no_payment', error: null };
  return { status: payment.status, error: payment.status === 'failed' ? payment.decline_message : null };
}

/** `POST /v1/customer-portal/orders/{id}/confirm-payment` (no request transaction: it calls the processor). */
export async function confirmCustomerOrderPayment(
  base: Context,
  id: string,
  input: CustomerOrderConfirmPaymentInput,
): Promise<CustomerOrderPaymentConfirmationWire> {
  const run = base.transactions ?? runIn(base);
  // Checked before anything is saved: a new card is not kept for an order that cannot be paid.
  const order = await run.transaction(async (tx) => {
    const row = await findOwnedOrder(tx.db, tx.subject, id);
    if (!row) throw new ResourceNotFound();
    // Checked once the order is found, so that another customer's order is 404 whatever the body.
    if ((input.confirmation_token_id == null) === (input.payment_method_id == null)) {
      throw validationError(['body'], 'Either confirmation_token_id or payment_method_id must be provided, not both.');
    }
    const attempts = await checkReadiness(tx, row.id, row.status, { makeDue: false });
    if (input.payment_method_id) {
      const method = await findOwnedMethod(tx.db, tx.subject, input.payment_method_id);
      if (!method || method.status !== 'active') {
        throw validationError(['body', 'payment_method_id'], 'Payment method does not belong to customer.');
      }
    }
    return { ...row, attempts };
  });
  const startedAt = (await onOrganizationClock(base, order.organization_id)).clock.now();

  let methodId = input.payment_method_id ?? null;
  if (input.confirmation_token_id) {
    try {
      const added = await addPaymentMethod(base, {
        confirmation_token_id: input.confirmation_token_id,
        set_default: true,
        return_url: new URL('/portal', base.config.baseUrl).toString(),
      });
      // The page completes the authentication and confirms the card (POST …/payment-methods/{id}/confirm):
      // the default then changes and the past-due charge is retried by the job that change enqueues.
      if (added.status === 'requires_action') {
        return { status: 'requires_action', client_secret: added.client_secret ?? null, error: null };
      }
      methodId = added.id;
    } catch (error) {
      if (error instanceof PaymentMethodRefused || error instanceof PaymentMethodNotConfirmed) {
        return { status: 'failed', client_secret: null, error: error.message };
      }
      throw error;
    }
  }

  const own = await onOrganizationClock(base, order.organization_id);
  await run.transaction(async (tx) => {
    const octx = await onOrganizationClock(tx, order.organization_id);
    const method = await findOwnedMethod(octx.db, octx.subject, methodId!);
    if (!method || method.status !== 'active') {
      throw validationError(['body', 'payment_method_id'], 'Payment method does not belong to customer.');
    }
    // A new card is the default already (saved with set_default); a saved one becomes it.
    if (!method.is_default) await makeDefault(octx, method);
    await checkReadiness(octx, order.id, order.status, { makeDue: true, sinceAttempts: order.attempts ?? undefined });
  });
  await attemptCharge(own, run, order.id);

  // This attempt's payment (or the retry job's that the default's change enqueued, the same attempt).
  const latest = await run.transaction((tx) => findLatestPaymentOfOrder(tx.db, order.id));
  const payment = latest && latest.created_at >= startedAt ? latest : undefined;
  if (payment?.status === 'succeeded') return { status: 'succeeded', client_secret: null, error: null };
  if (payment?.status === 'failed') {
    return { status: 'failed', client_secret: null, error: payment.decline_message ?? 'Payment failed.' };
  }
  // The processor could not be reached: the charge stays due and the next billing run attempts it.
  return { status: 'pending', client_secret: null, error: null };
}

async function checkReadiness(
  tx: Context,
  orderId: string,
  status: string,
  options: { makeDue: boolean; sinceAttempts?: number },
): Promise<number | null> {
  if (status !== 'pending') throw new OrderNotEligibleForRetry(orderId);
  const readiness = await readyChargeForCustomer(tx, orderId, options);
  switch (readiness.state) {
    case 'not_eligible':
      throw new OrderNotEligibleForRetry(orderId);
    case 'in_progress':
      throw new PaymentAlreadyInProgress(orderId);
    case 'attempted':
      return null;
    case 'ready':
      return readiness.attempts;
  }
}
