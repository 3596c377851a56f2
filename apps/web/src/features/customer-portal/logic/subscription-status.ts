import type { CustomerCancellationReason, CustomerProduct, CustomerSubscription, Organization } from '@tessera/sdk';
import { formatDate, formatMoneyPerInterval } from '../../../lib/format';

type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

type StatusFields = Pick<CustomerSubscription, 'status' | 'cancel_at_period_end' | 'ends_at' | 'ended_at'>;

/** The status as the customer reads it: one set to cancel says when it ends. */
export function describeStatus(subscription: StatusFields): { label: string; tone: Tone } {
  if (subscription.ended_at || subscription.status === 'canceled') return { label: 'Canceled', tone: 'neutral' };
  if (subscription.cancel_at_period_end) return { label: `Ends ${formatDate(subscription.ends_at)}`, tone: 'warning' };
  switch (subscription.status) {
    case 'active':
      return { label: 'Active', tone: 'success' };
    case 'trialing':
      return { label: 'Trial', tone: 'info' };
    case 'past_due':
      return { label: 'Payment overdue', tone: 'danger' };
    case 'unpaid':
      return { label: 'Unpaid', tone: 'danger' };
    case 'incomplete':
      return { label: 'Awaiting payment', tone: 'warning' };
    case 'incomplete_expired':
      return { label: 'Expired', tone: 'neutral' };
  }
}

/** One sentence on what happens next: renewal, end, or that it ended. */
export function describeRenewal(
  subscription: Pick<
    CustomerSubscription,
    'status' | 'cancel_at_period_end' | 'ends_at' | 'ended_at' | 'current_period_end'
  >,
): string {
  if (subscription.ended_at) return `Ended on ${formatDate(subscription.ended_at)}.`;
  if (subscription.cancel_at_period_end || subscription.ends_at)
    return `Canceled: you keep access until ${formatDate(subscription.ends_at ?? subscription.current_period_end)}, and it will not renew.`;
  if (subscription.status === 'incomplete' || subscription.status === 'incomplete_expired')
    return 'The first payment has not gone through.';
  return subscription.current_period_end
    ? `Renews on ${formatDate(subscription.current_period_end)}.`
    : 'Renews automatically.';
}

/** Billed statuses, in which the subscription can still be canceled or changed. */
const BILLABLE = new Set<CustomerSubscription['status']>(['trialing', 'active', 'past_due']);

/** What the customer may do with the subscription as it is now (the API's rules). */
export function availableActions(subscription: StatusFields) {
  const isLive = BILLABLE.has(subscription.status) && !subscription.ended_at;
  return {
    cancel: isLive && !subscription.cancel_at_period_end && !subscription.ends_at,
    uncancel: subscription.status === 'active' && subscription.cancel_at_period_end && !subscription.ended_at,
    changePlan: isLive && !subscription.cancel_at_period_end,
  };
}

/**
 * The plans a subscription can move to: the organization lets customers change plans, and the product
 * is another live recurring one with a set price (the API refuses pay-what-you-want products).
 */
export function planOptions(
  organization: Pick<Organization, 'subscription_settings'>,
  products: readonly CustomerProduct[],
  currentProductId: string,
): CustomerProduct[] {
  if (!organization.subscription_settings.allow_customer_updates) return [];
  return products.filter(
    (product) =>
      product.id !== currentProductId &&
      product.is_recurring &&
      !product.is_archived &&
      !product.prices.some((price) => price.amount_type === 'custom'),
  );
}

export const CANCELLATION_REASONS: { value: CustomerCancellationReason; label: string }[] = [
  { value: 'too_expensive', label: 'Too expensive' },
  { value: 'missing_features', label: 'Missing features' },
  { value: 'switched_service', label: 'Switched to another service' },
  { value: 'unused', label: 'I don’t use it enough' },
  { value: 'customer_service', label: 'Customer service' },
  { value: 'low_quality', label: 'Quality was not good enough' },
  { value: 'too_complex', label: 'Too complicated' },
  { value: 'other', label: 'Other' },
];

export function cancellationReasonLabel(reason: CustomerCancellationReason): string {
  return CANCELLATION_REASONS.find((option) => option.value === reason)?.label ?? reason;
}

/** "$49.00 / month", "Free", with "+ usage" when metered prices add to it. */
export function planPriceWords(product: Pick<CustomerProduct, 'prices' | 'recurring_interval'>): string {
  const interval = product.recurring_interval ?? 'month';
  const parts: string[] = [];
  for (const price of product.prices) {
    if (price.amount_type === 'fixed')
      parts.push(formatMoneyPerInterval(price.price_amount, price.price_currency, interval));
    else if (price.amount_type === 'free') parts.push('Free');
  }
  const metered = product.prices.some((price) => price.amount_type === 'metered_unit');
  if (parts.length === 0) return metered ? 'Billed by usage' : '—';
  return metered ? `${parts.join(', ')} + usage` : parts.join(', ');
}
