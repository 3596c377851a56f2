import type { Subscription } from '@tessera/sdk';
import { formatMoney, formatMoneyPerInterval } from '../../lib/format';

export type PricedSubscription = Pick<Subscription, 'amount' | 'currency' | 'recurring_interval'> & {
  /** The discount (the seller's view; the customer portal's subscription does not carry it). */
  discount?: { duration: string; duration_in_months?: number | null } | null;
  /** The price snapshot (absent from the customer state's subscriptions: then the amount is shown alone). */
  prices?: readonly { amount_type: string; price_amount?: number | null }[];
};

/**
 * The subscription's price as it will be charged. `amount` is the price at the discount; a discount
 * that ends (once, repeating) is told with the price after it: "first payment $9.00, then $12.00 /
 * month". Without a discount, a forever one, or prices whose full amount is unknown (pay what you
 * want): "$9.00 / month". Metered prices are billed on top and are not part of `amount`.
 */
export function describeSubscriptionPrice(subscription: PricedSubscription): string {
  const { amount, currency, recurring_interval: interval, discount = null, prices = [] } = subscription;
  const perInterval = formatMoneyPerInterval(amount, currency, interval);
  if (!discount || discount.duration === 'forever' || prices.length === 0) return perInterval;
  if (prices.some((price) => price.amount_type === 'custom')) return perInterval;
  const full = prices.reduce((sum, price) => sum + (price.amount_type === 'fixed' ? (price.price_amount ?? 0) : 0), 0);
  if (full <= amount) return perInterval;
  const after = formatMoneyPerInterval(full, currency, interval);
  if (discount.duration === 'once') return `first payment ${formatMoney(amount, currency)}, then ${after}`;
  const months = discount.duration_in_months ?? 1;
  return `${perInterval} for the first ${months === 1 ? 'month' : `${months} months`}, then ${after}`;
}

/** What the next period costs before tax, from a preview's renewal order: its period lines at the discount. */
export function nextPeriodAmount(renewal: {
  items: readonly { amount: number; proration: boolean }[];
  discount_amount: number;
}): number {
  return (
    renewal.items.filter((item) => !item.proration).reduce((sum, item) => sum + item.amount, 0) -
    renewal.discount_amount
  );
}

/**
 * The price where the subscription itself does not say what comes next (the portal's carries no
 * discount): "first payment $9.00, then $12.00 / month" when the next period costs another amount than
 * this one (a discount that ends), else the price per interval.
 */
export function describePriceWithNext(
  subscription: Pick<PricedSubscription, 'amount' | 'currency' | 'recurring_interval'>,
  nextAmount: number | null,
  isFirstPeriod: boolean,
): string {
  const { amount, currency, recurring_interval: interval } = subscription;
  const perInterval = formatMoneyPerInterval(amount, currency, interval);
  if (nextAmount === null || nextAmount === amount) return perInterval;
  const then = formatMoneyPerInterval(nextAmount, currency, interval);
  return `${isFirstPeriod ? 'first payment' : 'this period'} ${formatMoney(amount, currency)}, then ${then}`;
}
