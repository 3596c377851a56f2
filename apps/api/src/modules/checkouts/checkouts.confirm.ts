import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { IssueCollector } from '../../platform/http/errors.js';
import { CommitThenFail } from '../../platform/http/route.js';
import { validateCustomFieldData } from '../custom-fields/custom-fields.data.js';
import { insertRedemption } from '../discounts/discounts.repository.js';
import { recordPayment } from '../payments/payments.service.js';
import { hasStreetAddress } from './checkouts.amounts.js';
import { addressOf, applyChanges, customFieldsOf, finalizeDraft, type Draft } from './checkouts.changes.js';
import { openCustomerSession, resolveCustomer } from './checkouts.customer.js';
import { PaymentError } from './checkouts.errors.js';
import { deleteCheckoutRedemptions, lockDiscountForRedemption, updateCheckoutRow } from './checkouts.repository.js';
import { isRedeemable } from './checkouts.rules.js';
import type { CheckoutConfirmInput, CheckoutPublicConfirmed } from './checkouts.schemas.js';
import { serializeCheckoutPublic } from './checkouts.serializer.js';
import { assertOpen, draftOf, findPublicCheckout, saveDraft } from './checkouts.service.js';
import { computeCheckout, loadCheckoutState } from './checkouts.state.js';
import { fulfilCheckout } from './checkouts.success.js';
import type { z } from 'zod/v4';
import type { CustomerRow } from '../customers/customers.repository.js';

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

interface Collected {
  paymentId: string | null;
  paymentMethodId: string | null;
}

/**
 * Takes the money (or saves the payment method when nothing is due now but renewals will be). A
 * decline records the failed payment, releases the redemption, leaves the checkout open, and answers
 * 400 PaymentError once those writes are committed.
 */
async function collectPayment(
  ctx: Context,
  draft: Draft,
  customer: CustomerRow,
  confirmationTokenId: string | null | undefined,
): Promise<Collected> {
  const { amounts, flags } = computeCheckout(draft);
  if (!flags.is_payment_form_required) return { paymentId: null, paymentMethodId: null };
  const processor = ctx.payments;
  if (!processor) throw new Error('no payment processor is configured');
  const processorCustomer = { customerId: customer.id, email: customer.email, name: customer.name };
  const metadata = { checkout_id: draft.row.id, organization_id: draft.row.organization_id };
  const idempotencyKey = `checkout:${draft.row.id}:${confirmationTokenId}`;
  const decline = async (reason: string | null) => {
    await deleteCheckoutRedemptions(ctx.db, draft.row.id);
    await saveDraft(ctx, draft);
    throw new CommitThenFail(new PaymentError(reason));
  };

  if (!flags.is_payment_required) {
    const setup = await processor.setupWithConfirmationToken({
      confirmationTokenId: confirmationTokenId!,
      customer: processorCustomer,
      idempotencyKey,
      metadata,
    });
    if (setup.status === 'failed') return decline(setup.declineMessage);
    return { paymentId: null, paymentMethodId: setup.paymentMethodId };
  }

  const charge = await processor.chargeWithConfirmationToken({
    amount: amounts.total_amount,
    currency: draft.row.currency,
    confirmationTokenId: confirmationTokenId!,
    customer: processorCustomer,
    savePaymentMethod: draft.product.product.recurring_interval !== null,
    idempotencyKey,
    metadata,
  });
  const payment = await recordPayment(ctx, {
    organization_id: draft.row.organization_id,
    checkout_id: draft.row.id,
    order_id: null,
    processor: processor.name,
    processor_payment_id: charge.processorPaymentId,
    status: charge.status,
    amount: amounts.total_amount,
    currency: draft.row.currency,
    card: charge.card,
    decline_reason: charge.status === 'failed' ? charge.declineReason : null,
    decline_message: charge.status === 'failed' ? charge.declineMessage : null,
    customer_email: customer.email,
  });
  if (charge.status === 'failed') return decline(charge.declineMessage);
  return { paymentId: payment.id, paymentMethodId: charge.paymentMethodId };
}

/**
 * `POST /v1/checkouts/client/{client_secret}/confirm`. Applies the body as a public update, checks
 * everything (one 422), redeems the discount under its lock, finds or creates the customer, charges,
 * and fulfils at once: subscription, paid order, payment linked, checkout succeeded. The answer's
 * `status` is the wire's literal `confirmed`; the checkout itself is `succeeded` from then on.
 */
export async function confirmCheckout(
  base: Context,
  clientSecret: string,
  input: CheckoutConfirmInput,
): Promise<CheckoutPublicConfirmedWire> {
  const { row, ctx } = await findPublicCheckout(base, clientSecret, true);
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

  const customer = await resolveCustomer(ctx, draft);
  draft.row.customer_id = customer.id;
  const collected = await collectPayment(ctx, draft, customer, input.confirmation_token_id);

  // confirmed, then succeeded: sellers see the reference's sequence of checkout.updated events.
  await updateCheckoutRow(ctx.db, draft.row.id, { status: 'confirmed' });
  const confirmed = await saveDraft(ctx, draft);
  await fulfilCheckout(ctx, { ...confirmed, row: { ...confirmed.row } }, customer, collected);
  await updateCheckoutRow(ctx.db, draft.row.id, { status: 'succeeded' });
  const succeeded = await saveDraft(ctx, { ...confirmed, row: { ...confirmed.row, status: 'succeeded' } });
  const token = await openCustomerSession(ctx, customer.id);
  return {
    ...serializeCheckoutPublic(ctx.config, succeeded),
    status: 'confirmed',
    customer_session_token: token,
  };
}
