import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { IssueCollector } from '../../platform/http/errors.js';
import { runIn } from '../../platform/jobs/queue.js';
import { PaymentProcessorUnavailable, UnavailablePaymentProcessor } from '../../platform/payments/index.js';
import { validateCustomFieldData } from '../custom-fields/custom-fields.data.js';
import { insertRedemption } from '../discounts/discounts.repository.js';
import { hasStreetAddress } from './checkouts.amounts.js';
import { addressOf, applyChanges, customFieldsOf, finalizeDraft, type Draft } from './checkouts.changes.js';
import { openCustomerSession, resolveCustomer } from './checkouts.customer.js';
import { NotOpenCheckout, PaymentError, PaymentNotConfirmed } from './checkouts.errors.js';
import {
  attemptCall,
  askProcessor,
  idempotencyKeyPrefix,
  settleAttempt,
  type AttemptCall,
  type Settlement,
} from './checkouts.payment.js';
import {
  insertNextPaymentAttempt,
  lockDiscountForRedemption,
  lockUnsettledAttempt,
  updatePaymentAttempt,
} from './checkouts.repository.js';
import { isRedeemable } from './checkouts.rules.js';
import type { CheckoutConfirmInput, CheckoutPublicConfirmed } from './checkouts.schemas.js';
import { serializeCheckoutPublic } from './checkouts.serializer.js';
import { assertOpen, draftOf, findPublicCheckout, saveDraft } from './checkouts.service.js';
import { computeCheckout, isTrialRedeemed, loadCheckoutState } from './checkouts.state.js';
import { lockTrialRedemption, reserveTrialRedemption } from '../subscriptions/subscriptions.trials.repository.js';
import type { CustomerRow } from '../customers/customers.repository.js';
import { fulfilCheckout } from './checkouts.success.js';
import type { z } from 'zod/v4';
import type { CheckoutState } from './checkouts.state.js';

export type CheckoutPublicConfirmedWire = z.input<typeof CheckoutPublicConfirmed>;

const REQUIRED = 'Field is required.';

/** Everything confirm demands besides what an update checks, added to `issues` (one 422 for all). */
function checkReadyToConfirm(draft: Draft, input: CheckoutConfirmInput, issues: IssueCollector): void {
  const row = draft.row;
  const { flags } = computeCheckout(draft);
  const address = addressOf(draft);
  if (draft.price.is_archived) issues.add(['body', 'product_price_id'], 'Price is archived.');
  if (!row.customer_email) issues.add(['body', 'customer_email'], REQUIRED, 'missing');
  const needsName = flags.is_payment_form_required && !row.customer_name;
  if (needsName) issues.add(['body', 'customer_name'], REQUIRED, 'missing');
  if (row.is_business_customer && !row.customer_billing_name)
    issues.add(['body', 'customer_billing_name'], REQUIRED, 'missing');
  if (!address && (flags.is_payment_form_required || row.is_business_customer))
    issues.add(['body', 'customer_billing_address'], REQUIRED, 'missing');
  if (address && (row.require_billing_address || row.is_business_customer) && !hasStreetAddress(address))
    issues.add(['body', 'customer_billing_address'], 'Full billing address is required.');
  const fields = validateCustomFieldData(
    customFieldsOf(draft.product),
    row.custom_field_data as Record<string, unknown>,
    {
      validateRequired: true,
    },
  );
  for (const issue of fields.issues) issues.add(issue.loc, issue.msg, issue.type);
  if (flags.is_payment_form_required && !input.confirmation_token_id)
    issues.add(['body', 'confirmation_token_id'], 'Confirmation token is required.', 'missing');
}

/**
 * Redeems the checkout's discount under the discount's row lock: redeemability (window and
 * `max_redemptions`) is re-checked once the lock is held, so concurrent confirms never exceed the cap.
 */
async function redeemDiscount(ctx: Context, draft: Draft, issues: IssueCollector): Promise<void> {
  if (!draft.discount) return;
  const locked = await lockDiscountForRedemption(ctx.db, draft.discount.id);
  if (!locked || !isRedeemable(locked, ctx.clock.now())) {
    issues.add(['body', 'discount_id'], 'Discount is no longer redeemable.');
    return;
  }
  await insertRedemption(ctx.db, {
    id: randomUUID(),
    created_at: ctx.clock.now(),
    discount_id: draft.discount.id,
    checkout_id: draft.row.id,
  });
}

/**
 * One trial per customer and product, under concurrent confirms: the trial is judged again under the
 * customer's lock, with the customer now known, and reserved at once, before anything reaches the
 * processor. A checkout that lost its trial this way is paid at once like any other (it needs what a
 * paid checkout needs: one 422 otherwise, nothing committed).
 */
async function reserveTrial(ctx: Context, draft: Draft, customer: CustomerRow, input: CheckoutConfirmInput) {
  if (!computeCheckout(draft).trial.trial) return;
  const product = draft.product.product;
  await lockTrialRedemption(ctx.db, product.id, customer.id);
  draft.trialRedeemed = await isTrialRedeemed(ctx.db, draft);
  if (draft.trialRedeemed) {
    const issues = new IssueCollector();
    checkReadyToConfirm(draft, input, issues);
    issues.throwIfAny();
    return;
  }
  await reserveTrialRedemption(ctx.db, {
    id: randomUUID(),
    created_at: ctx.clock.now(),
    organization_id: draft.row.organization_id,
    product_id: product.id,
    customer_id: customer.id,
    email: customer.email,
    checkout_id: draft.row.id,
  });
}

/** Step 1's result: the checkout was fulfilled at once (nothing to collect), or an attempt awaits the processor. */
type Begun =
  { kind: 'done'; answer: CheckoutPublicConfirmedWire } | { kind: 'attempt'; call: AttemptCall; resume: boolean };

/**
 * Step 1, in one short transaction under the checkout's row lock. A checkout already confirmed has an
 * attempt: one in flight (or waiting on the bank) refuses this confirm (403 NotOpenCheckout, nothing is
 * charged twice); one whose answer was lost or that waited for the buyer's authentication is taken over
 * and asked again. An open checkout: the body is applied and checked (one 422), the discount redeemed
 * under its lock, the customer resolved; then either it is fulfilled at once (no payment form), or a
 * `pending` attempt is committed with the checkout `confirmed`, before any processor call.
 */
async function begin(base: Context, clientSecret: string, input: CheckoutConfirmInput): Promise<Begun> {
  const { row, ctx } = await findPublicCheckout(base, clientSecret, true);
  if (row.status === 'confirmed') {
    const attempt = await lockUnsettledAttempt(ctx.db, row.id);
    if (!attempt || attempt.status === 'pending' || attempt.status === 'processing') {
      throw new NotOpenCheckout(row.id, 'confirmed (a payment is in progress)');
    }
    const taken = await updatePaymentAttempt(ctx.db, attempt.id, { status: 'pending', modified_at: ctx.clock.now() });
    return { kind: 'attempt', call: await attemptCall(ctx, taken), resume: true };
  }
  assertOpen(ctx, row);
  const draft = draftOf(await loadCheckoutState(ctx.db, row));
  const issues = new IssueCollector();
  await applyChanges(ctx, draft, input, 'public', issues);
  const { taxFailure } = await finalizeDraft(ctx, draft);
  if (taxFailure) issues.add(['body', 'customer_billing_address'], taxFailure);
  checkReadyToConfirm(draft, input, issues);
  if (issues.issues.length === 0) await redeemDiscount(ctx, draft, issues);
  else if (draft.discount && !isRedeemable(draft.discount, ctx.clock.now()))
    issues.add(['body', 'discount_id'], 'Discount is no longer redeemable.');
  issues.throwIfAny();

  const { customer, issueCustomerSession } = await resolveCustomer(ctx, draft);
  draft.row.customer_id = customer.id;
  await reserveTrial(ctx, draft, customer, input);
  const { amounts, flags } = computeCheckout(draft);

  // confirmed, then succeeded: sellers see the reference's sequence of checkout.updated events.
  draft.row.status = 'confirmed';
  const confirmed = await saveDraft(ctx, draft);
  if (!flags.is_payment_form_required) {
    await fulfilCheckout(ctx, { ...confirmed, row: { ...confirmed.row } }, customer, {
      paymentId: null,
      paymentMethodId: null,
    });
    const succeeded = await saveDraft(ctx, { ...confirmed, row: { ...confirmed.row, status: 'succeeded' } });
    const token = issueCustomerSession ? await openCustomerSession(ctx, customer.id) : null;
    return { kind: 'done', answer: answerOf(ctx, succeeded, token) };
  }
  // A deployment without a processor refuses before anything is committed (as every payment call does).
  if (!ctx.payments || ctx.payments instanceof UnavailablePaymentProcessor) throw new PaymentProcessorUnavailable();
  const now = ctx.clock.now();
  const attempt = await insertNextPaymentAttempt(
    ctx.db,
    {
      id: randomUUID(),
      created_at: now,
      modified_at: now,
      organization_id: draft.row.organization_id,
      checkout_id: draft.row.id,
      kind: flags.is_payment_required ? 'charge' : 'setup',
      status: 'pending',
      processor: ctx.payments.name,
      confirmation_token_id: input.confirmation_token_id!,
      customer_id: customer.id,
      issue_customer_session: issueCustomerSession,
      amount: flags.is_payment_required ? amounts.total_amount : 0,
      currency: draft.row.currency,
      save_payment_method: draft.product.product.recurring_interval !== null,
      processor_payment_id: null,
      payment_id: null,
    },
    idempotencyKeyPrefix(draft.row.id),
  );
  return { kind: 'attempt', call: { attempt, customer }, resume: false };
}

function answerOf(ctx: Context, state: CheckoutState, token: string | null): CheckoutPublicConfirmedWire {
  return { ...serializeCheckoutPublic(ctx.config, state), status: 'confirmed', customer_session_token: token };
}

/** The confirm answer for a settled or waiting attempt; declines and lost answers are errors. */
function answerSettlement(ctx: Context, settlement: Settlement): CheckoutPublicConfirmedWire {
  switch (settlement.status) {
    case 'succeeded':
      return answerOf(ctx, settlement.state, settlement.customerSessionToken);
    case 'failed':
      throw new PaymentError(settlement.declineMessage);
    case 'interrupted':
      throw new PaymentNotConfirmed();
    case 'requires_action': {
      // The page completes the authentication with the processor's script, then confirms again.
      const answer = answerOf(ctx, settlement.state, null);
      return {
        ...answer,
        payment_processor_metadata: {
          ...answer.payment_processor_metadata,
          intent_status: 'requires_action',
          intent_client_secret: settlement.clientSecret,
        },
      };
    }
    default: {
      const answer = answerOf(ctx, settlement.state, null);
      return {
        ...answer,
        payment_processor_metadata: { ...answer.payment_processor_metadata, intent_status: 'processing' },
      };
    }
  }
}

/**
 * `POST /v1/checkouts/client/{client_secret}/confirm` (a route without a request-wide transaction). Step
 * 1 commits the attempt (or fulfils a checkout with nothing to collect), step 2 asks the processor with
 * no transaction open, step 3 records the outcome and fulfils: subscription, paid order, payment linked,
 * checkout succeeded. The answer's `status` is the wire's literal `confirmed`; `customer_session_token`
 * is given only to a buyer whose customer was created here or linked by the seller. Authentication
 * required: the answer carries `intent_status` and `intent_client_secret` in `payment_processor_metadata`;
 * `processing`: the checkout stays confirmed until the processor settles it.
 */
export async function confirmCheckout(
  base: Context,
  clientSecret: string,
  input: CheckoutConfirmInput,
): Promise<CheckoutPublicConfirmedWire> {
  const run = base.transactions ?? runIn(base);
  const begun = await run.transaction((tx) =>
    begin({ ...tx, log: base.log, request: base.request }, clientSecret, input),
  );
  if (begun.kind === 'done') return begun.answer;
  const outcome = await askProcessor(base.payments!, begun.call, begun.resume, base.log);
  const settlement = await settleAttempt(base, run, begun.call.attempt.id, outcome, { answer: true });
  return answerSettlement(base, settlement);
}
