import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { recordWebhookEvent } from '../../platform/events.js';
import type { AddressValue } from '../../platform/http/countries.js';
import type { Metadata } from '../../platform/http/metadata.js';
import type { TaxDetails } from '../../platform/tax.js';
import type { CustomerRow } from '../customers/customers.repository.js';
import { enqueueGrantsForPurchase } from '../benefit-grants/benefit-grants.service.js';
import { closeMeteredUsage } from '../billing/billing.usage.js';
import { createOrder } from '../orders/orders.service.js';
import { serializeOrderSubscription } from '../orders/orders.serializer.js';
import { linkPaymentToOrder } from '../payments/payments.service.js';
import {
  insertBillingEntries,
  insertSubscription,
  replaceSubscriptionPrices,
  updateSubscriptionRow,
  type SubscriptionRow,
} from '../subscriptions/subscriptions.repository.js';
import { recordSubscriptionEvents } from '../subscriptions/subscriptions.service.js';
import { anchorDayOf, nextPeriodEnd } from '../subscriptions/subscriptions.periods.js';
import { serializeSubscription } from '../subscriptions/subscriptions.serializer.js';
import { subscriptionAmount } from '../billing/billing.money.js';
import { priceAmount } from './checkouts.amounts.js';
import type { Draft } from './checkouts.changes.js';
import { linkRedemptionToSubscription } from './checkouts.repository.js';
import { findActiveMethodsOfCustomer } from '../customer-portal/payment-methods/payment-methods.repository.js';
import { linkTrialRedemption } from '../subscriptions/subscriptions.trials.repository.js';
import { trialEnd } from '../subscriptions/subscriptions.trials.js';
import { computeCheckout } from './checkouts.state.js';

/** The selected price at the checkout amount, and the product's metered prices at 0. */
function snapshotPrices(draft: Draft): { product_price_id: string; amount: number }[] {
  return [
    { product_price_id: draft.price.id, amount: priceAmount(draft.price, draft.row.amount) },
    ...draft.product.prices
      .filter((price) => price.id !== draft.price.id && !price.is_archived && price.amount_type === 'metered_unit')
      .map((price) => ({ product_price_id: price.id, amount: 0 })),
  ];
}

/**
 * What a checkout sets on the subscription it starts or upgrades: its product, customer, amount and
 * discount (paying from now), an active period from now on the new anchor day, no cancellation, and the
 * checkout's metadata and custom field data.
 */
function checkoutTerms(draft: Draft, customer: CustomerRow, prices: readonly { amount: number }[], now: Date) {
  const interval = draft.product.product.recurring_interval!;
  const { trial } = computeCheckout(draft).trial;
  if (trial) {
    // A trial is the first period, free; the first paid period starts at its end (the anchor day with
    // it), and so does the discount (its duration counts from the first paid period).
    const end = trialEnd(now, trial);
    return {
      ...paidTerms(),
      status: 'trialing' as const,
      current_period_end: end,
      anchor_day: anchorDayOf(end),
      discount_applied_at: draft.discount ? end : null,
      trial_start: now,
      trial_end: end,
    };
  }
  return { ...paidTerms(), trial_start: null, trial_end: null };
  function paidTerms() {
    return {
      product_id: draft.product.product.id,
      customer_id: customer.id,
      amount: subscriptionAmount(prices, draft.discount),
      currency: draft.row.currency,
      recurring_interval: interval,
      status: 'active' as 'active' | 'trialing',
      current_period_start: now,
      current_period_end: nextPeriodEnd(now, interval),
      anchor_day: anchorDayOf(now),
      cancel_at_period_end: false,
      canceled_at: null,
      ends_at: null,
      discount_id: draft.discount?.id ?? null,
      discount_applied_at: draft.discount ? now : null,
      checkout_id: draft.row.id,
      metadata: JSON.stringify(draft.row.metadata ?? {}),
      custom_field_data: JSON.stringify(draft.row.custom_field_data ?? {}),
    };
  }
}

/**
 * A recurring checkout starts an active subscription carrying every price of the product: the selected
 * static one at the checkout amount, the metered ones at 0 (billed from usage). The period keeps the
 * start's day of month, the discount, metadata and custom field data come from the checkout, and the
 * redemption is linked to it.
 */
async function startSubscription(
  ctx: Context,
  draft: Draft,
  customer: CustomerRow,
  paymentMethodId: string | null,
): Promise<SubscriptionRow> {
  const now = ctx.clock.now();
  const prices = snapshotPrices(draft);
  const id = randomUUID();
  // A card-less trial bills the card the customer already saved, if any (docs/trials.md).
  paymentMethodId ??=
    (await findActiveMethodsOfCustomer(ctx.db, customer.id)).find((method) => method.is_default)
      ?.processor_payment_method_id ?? null;
  const row = await insertSubscription(
    ctx.db,
    {
      id,
      created_at: now,
      modified_at: null,
      organization_id: draft.row.organization_id,
      ...checkoutTerms(draft, customer, prices, now),
      started_at: now,
      ended_at: null,
      customer_cancellation_reason: null,
      customer_cancellation_comment: null,
      payment_method_id: paymentMethodId,
    },
    prices,
  );
  if (draft.discount) await linkRedemptionToSubscription(ctx.db, draft.row.id, id);
  // Usage bills from the subscription's start: what its meters counted before is not its own.
  await closeMeteredUsage(ctx, row, 'unused');
  const wire = serializeSubscription({
    row,
    customer,
    product: draft.product,
    discount: draft.discount,
    prices: prices.map((p) => draft.product.prices.find((price) => price.id === p.product_price_id) ?? draft.price),
    meters: [],
  });
  await recordWebhookEvent(ctx, row.organization_id, 'subscription.created', wire);
  if (row.status === 'trialing') {
    // `subscription.active` is sent when the trial converts (its first period paid).
    // The trial was reserved at confirm (docs/trials.md, one trial per customer).
    await linkTrialRedemption(ctx.db, {
      id: randomUUID(),
      created_at: now,
      organization_id: row.organization_id,
      product_id: row.product_id,
      customer_id: customer.id,
      email: customer.email,
      checkout_id: draft.row.id,
      subscription_id: row.id,
    });
  } else await recordWebhookEvent(ctx, row.organization_id, 'subscription.active', wire);
  return row;
}

/**
 * An upgrade checkout (`subscription_id`, a free subscription) changes that subscription in place, as
 * the reference's `create_or_update_from_checkout`: the new product and its prices, a new period from
 * now, the checkout's discount, metadata and custom field data, and the saved payment method. The
 * original start stays. Events: subscription.updated and customer.state_changed.
 */
async function upgradeSubscription(
  ctx: Context,
  draft: Draft,
  customer: CustomerRow,
  paymentMethodId: string | null,
): Promise<SubscriptionRow> {
  const now = ctx.clock.now();
  const prices = snapshotPrices(draft);
  const id = draft.row.subscription_id!;
  // Usage under the old prices waits for the next order (as a plan change); the new ones count from now.
  const ref = { id, organization_id: draft.row.organization_id, customer_id: customer.id };
  const usage = await closeMeteredUsage(ctx, ref, 'unused');
  await insertBillingEntries(
    ctx.db,
    usage.map(({ label, amount }) => ({
      id: randomUUID(),
      created_at: now,
      subscription_id: id,
      label,
      amount,
      product_price_id: null,
    })),
  );
  await replaceSubscriptionPrices(ctx.db, id, prices);
  await closeMeteredUsage(ctx, ref, 'unused');
  const row = await updateSubscriptionRow(ctx.db, id, {
    ...checkoutTerms(draft, customer, prices, now),
    ...(paymentMethodId ? { payment_method_id: paymentMethodId } : {}),
    modified_at: now,
  });
  if (draft.discount) await linkRedemptionToSubscription(ctx.db, draft.row.id, id);
  await recordSubscriptionEvents(ctx, row);
  return row;
}

/**
 * What a successful checkout leaves behind: for a recurring product an active subscription, then a
 * paid order (`purchase` or `subscription_create`) with one item for the selected price, linked to the
 * payment when money was taken. Events: subscription.created/active, order.created, order.paid.
 */
export async function fulfilCheckout(
  ctx: Context,
  draft: Draft,
  customer: CustomerRow,
  payment: { paymentId: string | null; paymentMethodId: string | null },
): Promise<void> {
  const { amounts, trial } = computeCheckout(draft);
  const upgrade = draft.row.subscription_id !== null && draft.product.product.recurring_interval !== null;
  const subscription =
    draft.product.product.recurring_interval === null
      ? null
      : upgrade
        ? await upgradeSubscription(ctx, draft, customer, payment.paymentMethodId)
        : await startSubscription(ctx, draft, customer, payment.paymentMethodId);
  if (subscription && trial.trial) {
    // A trial sells nothing yet: no order (the first is the one charged at the trial's end); its
    // benefits are granted now.
    await enqueueGrantsForPurchase(ctx, {
      customerId: customer.id,
      productId: draft.product.product.id,
      subscriptionId: subscription.id,
      orderId: null,
    });
    return;
  }
  const order = await createOrder(ctx, {
    organization_id: draft.row.organization_id,
    customer_id: customer.id,
    product_id: draft.product.product.id,
    product_price_id: draft.price.id,
    discount_id: draft.discount?.id ?? null,
    checkout_id: draft.row.id,
    subscription_id: subscription?.id ?? null,
    billing_reason: upgrade ? 'subscription_update' : subscription ? 'subscription_create' : 'purchase',
    // What the buyer entered for this purchase (an existing customer's own details are not overwritten).
    billing_name: draft.row.customer_billing_name ?? draft.row.customer_name ?? customer.name,
    billing_address: (draft.row.customer_billing_address ?? customer.billing_address ?? null) as AddressValue | null,
    currency: draft.row.currency,
    // Prices that include tax: the line gives its tax up, so subtotal − discount + tax is what was paid.
    subtotal_amount: amounts.net_amount + amounts.discount_amount,
    discount_amount: amounts.discount_amount,
    tax_amount: amounts.tax_amount ?? 0,
    total_amount: amounts.total_amount,
    tax_details: (draft.row.tax_details ?? null) as TaxDetails | null,
    status: 'paid',
    metadata: (draft.row.metadata ?? {}) as Metadata,
    custom_field_data: (draft.row.custom_field_data ?? {}) as Record<string, unknown>,
    items: [
      {
        label: draft.product.product.name,
        amount: amounts.net_amount + amounts.discount_amount,
        // One line: it carries the order's tax (the invoice shows it per line).
        tax_amount: amounts.tax_amount ?? 0,
        proration: false,
        product_price_id: draft.price.id,
      },
    ],
    subscription: subscription ? serializeOrderSubscription(subscription) : null,
  });
  if (payment.paymentId) await linkPaymentToOrder(ctx, payment.paymentId, order.id);
  await enqueueGrantsForPurchase(ctx, {
    customerId: customer.id,
    productId: draft.product.product.id,
    subscriptionId: subscription?.id ?? null,
    orderId: order.id,
  });
}
