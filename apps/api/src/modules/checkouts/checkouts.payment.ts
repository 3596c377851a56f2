import type { FastifyBaseLogger } from 'fastify';
import type { Context } from '../../platform/context.js';
import type { JobRun } from '../../platform/jobs/queue.js';
import type {
  CheckoutChargeResult,
  PaymentProcessor,
  RetrievedCharge,
  RetrievedSetup,
  SetupResult,
} from '../../platform/payments/processor.js';
import { releaseTrialRedemption } from '../subscriptions/subscriptions.trials.repository.js';
import { onOrganizationClock } from '../../platform/test-clock.js';
import { recordPayment } from '../payments/payments.service.js';
import { recordSavedPaymentMethod } from '../customer-portal/payment-methods/payment-methods.defaults.js';
import { openCustomerSession } from './checkouts.customer.js';
import {
  deleteCheckoutRedemptions,
  findCustomerById,
  lockAttemptAfterCheckout,
  updatePaymentAttempt,
  type CheckoutRow,
  type PaymentAttemptRow,
} from './checkouts.repository.js';
import { draftOf, saveDraft } from './checkouts.service.js';
import type { CheckoutState } from './checkouts.state.js';
import { loadCheckoutState } from './checkouts.state.js';
import { fulfilCheckout } from './checkouts.success.js';

/**
 * Steps 2 and 3 of a checkout payment (step 1, in checkouts.confirm.ts, commits the attempt):
 * - `askProcessor` calls the processor OUTSIDE any transaction, with the attempt's idempotency key
 *   (`checkout:{id}:attempt:{n}`): asking again, after a lost answer or a crash, never charges twice;
 * - `settleAttempt` records the outcome in a transaction of its own, once: success fulfils the checkout
 *   (payment, subscription, order, grants) and marks it succeeded; a decline records the failed payment,
 *   releases the redemption and reopens the checkout (the next attempt gets the next number); waiting
 *   outcomes (`requires_action`, `processing`) keep the checkout confirmed.
 * Confirm, the reconciliation job and the Stripe webhook all settle through here.
 */

/** What the processor said; `interrupted`: no answer (timeout, network), the money may have moved. */
export type AttemptOutcome = CheckoutChargeResult | SetupResult | { status: 'interrupted' };

/** The idempotency keys of a checkout's attempts: this, then the attempt's number (`…:attempt:1`). */
export function idempotencyKeyPrefix(checkoutId: string): string {
  return `checkout:${checkoutId}:attempt:`;
}

function processorCustomer(attempt: PaymentAttemptRow, customer: { email: string; name: string | null }) {
  return { customerId: attempt.customer_id, email: customer.email, name: customer.name };
}

/** The processor's input for an attempt, read in a short transaction before the call. */
export interface AttemptCall {
  attempt: PaymentAttemptRow;
  customer: { email: string; name: string | null };
}

/**
 * Step 2. `resume`: the attempt was made before (its answer was lost, or the buyer authenticated
 * since): the processor is asked for the outcome first, and the call is made again (same key) only when
 * it never received it.
 */
export async function askProcessor(
  processor: PaymentProcessor,
  call: AttemptCall,
  resume: boolean,
  log?: Pick<FastifyBaseLogger, 'warn'>,
): Promise<AttemptOutcome> {
  const { attempt } = call;
  const customer = processorCustomer(attempt, call.customer);
  const metadata = { checkout_id: attempt.checkout_id, organization_id: attempt.organization_id };
  try {
    if (resume) {
      const found: RetrievedCharge | RetrievedSetup =
        attempt.kind === 'charge'
          ? await processor.retrieveCharge({
              idempotencyKey: attempt.idempotency_key,
              processorPaymentId: attempt.processor_payment_id,
              customer,
              savePaymentMethod: attempt.save_payment_method,
            })
          : await processor.retrieveSetup({ idempotencyKey: attempt.idempotency_key, customer });
      if (found.status !== 'not_found') return found;
    }
    if (attempt.kind === 'setup') {
      return await processor.setupWithConfirmationToken({
        confirmationTokenId: attempt.confirmation_token_id,
        customer,
        idempotencyKey: attempt.idempotency_key,
        metadata,
      });
    }
    return await processor.chargeWithConfirmationToken({
      amount: attempt.amount,
      currency: attempt.currency,
      confirmationTokenId: attempt.confirmation_token_id,
      customer,
      savePaymentMethod: attempt.save_payment_method,
      idempotencyKey: attempt.idempotency_key,
      metadata,
    });
  } catch (error) {
    // The attempt stays unsettled: the next confirm or the reconciliation job asks again.
    log?.warn(
      { attemptId: attempt.id, error: error instanceof Error ? error.name : 'unknown' },
      'checkout payment: no answer from the processor',
    );
    return { status: 'interrupted' };
  }
}

/** How an attempt ended, for the caller's answer. */
export type Settlement =
  | { status: 'succeeded'; state: CheckoutState; customerSessionToken: string | null }
  | { status: 'failed'; declineMessage: string | null }
  | { status: 'requires_action'; state: CheckoutState; clientSecret: string }
  | { status: 'processing' | 'pending'; state: CheckoutState }
  | { status: 'interrupted' };

const WAITING = new Set(['pending', 'interrupted', 'requires_action', 'processing']);

/**
 * Step 3, in its own transaction. An attempt already settled (by a concurrent request, the
 * reconciliation job or a webhook) is left as it is and its outcome answered.
 */
export async function settleAttempt(
  base: Context,
  run: JobRun,
  attemptId: string,
  outcome: AttemptOutcome,
  options: { answer: boolean } = { answer: false },
): Promise<Settlement> {
  return run.transaction(async (tx) => {
    const { attempt, checkout } = (await lockAttemptAfterCheckout(tx.db, attemptId))!;
    const ctx = await onOrganizationClock({ ...tx, log: base.log }, attempt.organization_id);
    const now = ctx.clock.now();
    if (!WAITING.has(attempt.status)) return settledOutcome(ctx, attempt, checkout, options);

    if (outcome.status === 'interrupted' || outcome.status === 'requires_action' || outcome.status === 'processing') {
      const processorPaymentId = 'processorPaymentId' in outcome ? outcome.processorPaymentId : null;
      await updatePaymentAttempt(ctx.db, attempt.id, {
        status: outcome.status,
        modified_at: now,
        ...(processorPaymentId ? { processor_payment_id: processorPaymentId } : {}),
      });
      const state = await loadCheckoutState(ctx.db, checkout);
      if (outcome.status === 'requires_action')
        return { status: 'requires_action', state, clientSecret: outcome.clientSecret };
      if (outcome.status === 'processing') return { status: 'processing', state };
      return { status: 'interrupted' };
    }

    const customer = (await findCustomerById(ctx.db, attempt.customer_id))!;
    const processorPaymentId = 'processorPaymentId' in outcome ? outcome.processorPaymentId : null;
    const payment =
      attempt.kind === 'charge'
        ? await recordPayment(ctx, {
            organization_id: attempt.organization_id,
            checkout_id: attempt.checkout_id,
            order_id: null,
            processor: attempt.processor,
            processor_payment_id: processorPaymentId,
            status: outcome.status,
            amount: attempt.amount,
            currency: attempt.currency,
            card: 'card' in outcome ? outcome.card : null,
            decline_reason: outcome.status === 'failed' ? outcome.declineReason : null,
            decline_message: outcome.status === 'failed' ? outcome.declineMessage : null,
            customer_email: customer.email,
          })
        : null;
    await updatePaymentAttempt(ctx.db, attempt.id, {
      status: outcome.status,
      modified_at: now,
      processor_payment_id: processorPaymentId,
      payment_id: payment?.id ?? null,
    });

    const draft = draftOf(await loadCheckoutState(ctx.db, checkout));
    if (outcome.status === 'failed') {
      await deleteCheckoutRedemptions(ctx.db, checkout.id);
      await releaseTrialRedemption(ctx.db, checkout.id);
      // A customer found by email stays unlinked: the next attempt finds it again, without a session.
      draft.row.status = 'open';
      if (!attempt.issue_customer_session) draft.row.customer_id = null;
      await saveDraft(ctx, draft);
      return { status: 'failed', declineMessage: outcome.declineMessage };
    }

    await fulfilCheckout(ctx, draft, customer, {
      paymentId: payment?.id ?? null,
      paymentMethodId: outcome.paymentMethodId ?? null,
    });
    if (outcome.paymentMethodId) {
      // The customer's saved methods (portal) show it, and it becomes the default the renewals charge.
      await recordSavedPaymentMethod(ctx, {
        organizationId: attempt.organization_id,
        customerId: customer.id,
        processor: attempt.processor,
        paymentMethodId: outcome.paymentMethodId,
        card: outcome.card,
      });
    }
    const succeeded = await saveDraft(ctx, { ...draft, row: { ...draft.row, status: 'succeeded' } });
    const token = options.answer && attempt.issue_customer_session ? await openCustomerSession(ctx, customer.id) : null;
    return { status: 'succeeded', state: succeeded, customerSessionToken: token };
  });
}

/** The answer for an attempt someone else settled first. */
async function settledOutcome(
  ctx: Context,
  attempt: PaymentAttemptRow,
  checkout: CheckoutRow,
  options: { answer: boolean },
): Promise<Settlement> {
  if (attempt.status === 'failed') return { status: 'failed', declineMessage: null };
  const state = await loadCheckoutState(ctx.db, checkout);
  const token =
    options.answer && attempt.issue_customer_session ? await openCustomerSession(ctx, attempt.customer_id) : null;
  return { status: 'succeeded', state, customerSessionToken: token };
}

/** Reads what step 2 needs for an attempt (a short transaction). */
export async function attemptCall(ctx: Context, attempt: PaymentAttemptRow): Promise<AttemptCall> {
  const customer = (await findCustomerById(ctx.db, attempt.customer_id))!;
  return { attempt, customer: { email: customer.email, name: customer.name } };
}
