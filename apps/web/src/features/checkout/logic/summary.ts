import type { CheckoutProduct, CheckoutPublic, ProductPrice } from '@tessera/sdk';
import { formatBasisPoints, formatMoney } from '../../../lib/format';

/**
 * What the order summary and the pay button say. Every amount comes from the API (`amount`,
 * `discount_amount`, `net_amount`, `tax_amount`, `total_amount`); this module only words and formats
 * them.
 */

type Interval = CheckoutProduct['recurring_interval'];
type Discount = NonNullable<CheckoutPublic['discount']>;

/** " / month", " / year", or nothing for a one-time purchase. */
export function perInterval(interval: Interval): string {
  return interval ? ` / ${interval}` : '';
}

export function billingWords(interval: Interval): string {
  if (interval === 'month') return 'Billed monthly';
  if (interval === 'year') return 'Billed yearly';
  return 'One-time purchase';
}

/** A price as a buyer reads it when choosing: "$25.00 / month", "Pay what you want", "Free". */
export function priceLabel(price: ProductPrice, interval: Interval): string {
  switch (price.amount_type) {
    case 'fixed':
      return `${formatMoney(price.price_amount, price.price_currency)}${perInterval(interval)}`;
    case 'custom':
      return 'Pay what you want';
    case 'free':
      return 'Free';
    case 'metered_unit':
      return 'Billed by usage';
  }
}

/** The prices a buyer can choose: archived ones are gone from sale. */
export function availablePrices(product: CheckoutProduct): ProductPrice[] {
  return product.prices.filter((price) => !price.is_archived);
}

export function availableProducts(checkout: Pick<CheckoutPublic, 'products'>): CheckoutProduct[] {
  return checkout.products.filter((product) => !product.is_archived && availablePrices(product).length > 0);
}

export function discountLabel(discount: Discount): string {
  const off =
    discount.type === 'percentage'
      ? formatBasisPoints(discount.basis_points)
      : formatMoney(discount.amount, discount.currency);
  return `${off} off`;
}

/** How long a discount lasts on a subscription; nothing to say on a one-time purchase. */
export function discountDurationWords(discount: Discount, interval: Interval): string | null {
  if (!interval) return null;
  if (discount.duration === 'repeating') {
    const months = discount.duration_in_months;
    return `Applies for ${months} ${months === 1 ? 'month' : 'months'}.`;
  }
  return discount.duration === 'once' ? 'Applies to the first payment only.' : 'Applies to every payment.';
}

export interface SummaryLine {
  label: string;
  value: string;
  /** A reduction (shown with a minus sign). */
  credit?: boolean;
}

export interface Summary {
  lines: SummaryLine[];
  total: SummaryLine;
  /** For a subscription whose discount ends: what later payments are, before taxes. */
  renewal: string | null;
  /** A free trial: "Free for 14 days, then $12.00 / month". */
  trial: string | null;
}

type TrialInterval = NonNullable<CheckoutPublic['active_trial_interval']>;

/** A trial's length: "14 days", "1 month". */
export function trialLength(interval: TrialInterval, count: number): string {
  return `${count} ${interval}${count === 1 ? '' : 's'}`;
}

type TrialFields = 'active_trial_interval' | 'active_trial_interval_count';

/** The trial the checkout gives, worded: "Free for 14 days, then $12.00 / month"; null without one. */
export function trialWords(
  checkout: Pick<CheckoutPublic, TrialFields | 'total_amount' | 'currency' | 'product'>,
): string | null {
  const { active_trial_interval: interval, active_trial_interval_count: count } = checkout;
  if (!interval || !count) return null;
  const then = formatMoney(checkout.total_amount, checkout.currency);
  return `Free for ${trialLength(interval, count)}, then ${then}${perInterval(checkout.product.recurring_interval)}`;
}

/** Why the checkout gives no trial although its product has one, in the buyer's words; null otherwise. */
export function trialUnavailableWords(checkout: Pick<CheckoutPublic, 'trial_unavailable_reason'>): string | null {
  return checkout.trial_unavailable_reason === 'already_redeemed'
    ? 'You already had a free trial of this product, so this subscription starts paid today.'
    : null;
}

export function orderSummary(
  checkout: Pick<
    CheckoutPublic,
    | 'amount'
    | 'discount_amount'
    | 'net_amount'
    | 'tax_amount'
    | 'total_amount'
    | 'currency'
    | 'discount'
    | 'product'
    | TrialFields
  >,
): Summary {
  const money = (amount: number) => formatMoney(amount, checkout.currency);
  const lines: SummaryLine[] = [{ label: 'Subtotal', value: money(checkout.amount) }];
  if (checkout.discount) {
    const code = checkout.discount.code ? ` (${checkout.discount.code})` : '';
    lines.push({ label: `Discount${code}`, value: `−${money(checkout.discount_amount)}`, credit: true });
    lines.push({ label: 'Net', value: money(checkout.net_amount) });
  }
  // Prices that include tax (docs/tax.md): the API splits the tax out of the net, the total is the price.
  const included =
    checkout.tax_amount !== null &&
    checkout.tax_amount > 0 &&
    checkout.net_amount === checkout.amount - checkout.discount_amount - checkout.tax_amount;
  lines.push({
    label: included ? 'Taxes (included)' : 'Taxes',
    value: checkout.tax_amount === null ? 'Calculated from your billing address' : money(checkout.tax_amount),
  });
  const interval = checkout.product.recurring_interval;
  // Every payment of the subscription is today's total unless a discount will run out.
  const discountEnds = interval !== null && checkout.discount !== null && checkout.discount.duration !== 'forever';
  const trial = trialWords(checkout);
  if (trial) {
    // The amounts are the first period's, charged when the trial ends: nothing is due today.
    return {
      lines,
      total: { label: 'Total due today', value: money(0) },
      renewal: discountEnds
        ? `After the discount, ${money(checkout.amount)}${perInterval(interval)} before taxes.`
        : null,
      trial,
    };
  }
  return {
    trial: null,
    lines,
    total: {
      label: discountEnds ? 'Total due today' : 'Total',
      value: `${money(checkout.total_amount)}${discountEnds ? '' : perInterval(interval)}`,
    },
    renewal: discountEnds ? `Then ${money(checkout.amount)}${perInterval(interval)} before taxes.` : null,
  };
}

/** The pay button: "Pay $25.00", "Subscribe", "Start trial", "Get it for free". */
export function confirmLabel(
  checkout: Pick<CheckoutPublic, 'total_amount' | 'currency' | 'is_payment_required' | 'product' | TrialFields>,
): string {
  if (checkout.active_trial_interval) return 'Start trial';
  if (checkout.product.recurring_interval) return 'Subscribe';
  return checkout.is_payment_required
    ? `Pay ${formatMoney(checkout.total_amount, checkout.currency)}`
    : 'Get it for free';
}
