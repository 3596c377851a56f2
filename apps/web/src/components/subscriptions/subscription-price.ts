import type { Subscription } from '@tessera/sdk';
import { formatMoney, formatMoneyPerInterval } from '../../lib/format';

export type PricedSubscription = Pick<Subscription, 'amount' | 'currency' | 'recurring_interval'> & {
  discount: Pick<NonNullable<Subscription['discount']>, 'duration' | 'duration_in_months'> | null;
  prices: readonly { amount_type: string; price_amount?: number | null }[];
};

/**
 * The subscription's price as it will be charged. `amount` is the price at the discount; a discount
 * that ends (once, repeating) is told with the price after it: "first payment $9.00, then $12.00 /
 * month". Without a discount, a forever one, or prices whose full amount is unknown (pay what you
 * want): "$9.00 / month". Metered prices are billed on top and are not part of `amount`.
 */
export function describeSubscriptionPrice(subscription: PricedSubscription): string {
  const { amount, currency, recurring_interval: interval, discount } = subscription;
  const perInterval = formatMoneyPerInterval(amount, currency, interval);
  if (!discount || discount.duration === 'forever') return perInterval;
  if (subscription.prices.some((price) => price.amount_type === 'custom')) return perInterval;
  const full = subscription.prices.reduce(
    (sum, price) => sum + (price.amount_type === 'fixed' ? (price.price_amount ?? 0) : 0),
    0,
  );
  if (full <= amount) return perInterval;
  const after = formatMoneyPerInterval(full, currency, interval);
  if (discount.duration === 'once') return `first payment ${formatMoney(amount, currency)}, then ${after}`;
  const months = discount.duration_in_months ?? 1;
  return `${perInterval} for the first ${months === 1 ? 'month' : `${months} months`}, then ${after}`;
}
