import type { CustomerProduct, CustomerSubscription, Organization } from '@tessera/sdk';
import { formatDate, formatMoneyPerInterval } from '../../../lib/format';

/** One sentence on what happens next: renewal, end, or that it ended. */
export function describeRenewal(
  subscription: Pick<
    CustomerSubscription,
    | 'status'
    | 'cancel_at_period_end'
    | 'ends_at'
    | 'ended_at'
    | 'current_period_end'
    | 'trial_end'
    | 'amount'
    | 'currency'
    | 'recurring_interval'
  >,
): string {
  if (subscription.ended_at) return `Ended on ${formatDate(subscription.ended_at)}.`;
  const trial = subscription.status === 'trialing' && subscription.trial_end;
  if (subscription.cancel_at_period_end || subscription.ends_at)
    return trial
      ? `Canceled: your free trial ends on ${formatDate(subscription.trial_end)}, and nothing will be charged.`
      : `Canceled: you keep access until ${formatDate(subscription.ends_at ?? subscription.current_period_end)}, and it will not renew.`;
  if (trial)
    return `Free trial until ${formatDate(subscription.trial_end)}, then ${formatMoneyPerInterval(subscription.amount, subscription.currency, subscription.recurring_interval)}.`;
  if (subscription.status === 'incomplete' || subscription.status === 'incomplete_expired')
    return 'The first payment has not gone through.';
  return subscription.current_period_end
    ? `Renews on ${formatDate(subscription.current_period_end)}.`
    : 'Renews automatically.';
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
