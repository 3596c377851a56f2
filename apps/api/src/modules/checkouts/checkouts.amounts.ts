import { discountAmount } from '../billing/billing.money.js';
import type { AmountType } from '../products/products.prices.js';

/**
 * A checkout's amounts and flags, as pure functions of the selected price, the discount and the tax
 * (the reference's `Checkout` model properties). Amounts are integers in minor units.
 */

/** The amount of a pay-what-you-want price with neither a requested nor a preset amount ($10). */
export const CUSTOM_PRICE_PRESET_FALLBACK = 1000;
/** The currency of a free price (it has none of its own). */
export const FREE_PRICE_CURRENCY = 'usd';

export interface PriceForAmount {
  amount_type: AmountType;
  price_amount: number | null;
  price_currency: string | null;
  preset_amount: number | null;
}

export interface DiscountForAmount {
  type: 'fixed' | 'percentage';
  duration: 'once' | 'forever' | 'repeating';
  amount: number | null;
  currency: string | null;
  basis_points: number | null;
}

/** fixed → its amount; custom → the requested amount, else the preset, else $10; free, metered → 0. */
export function priceAmount(price: PriceForAmount, requested?: number | null): number {
  switch (price.amount_type) {
    case 'fixed':
      return price.price_amount ?? 0;
    case 'custom':
      return requested ?? price.preset_amount ?? CUSTOM_PRICE_PRESET_FALLBACK;
    default:
      return 0;
  }
}

export function priceCurrency(price: PriceForAmount): string {
  return price.price_currency ?? FREE_PRICE_CURRENCY;
}

/** The one discount rule of billing (percentage half away from zero, fixed capped at the amount). */
export { discountAmount } from '../billing/billing.money.js';

export interface CheckoutAmounts {
  amount: number;
  discount_amount: number;
  net_amount: number;
  tax_amount: number | null;
  total_amount: number;
}

/**
 * `net = amount − discount` and `total = net + tax`; with prices that include tax (docs/tax.md) the tax
 * is inside the discounted amount, so `net = amount − discount − tax` and the total is what was shown.
 */
export function checkoutAmounts(
  amount: number,
  discount: DiscountForAmount | null,
  taxAmount: number | null,
  taxInclusive = false,
) {
  const discounted = discountAmount(discount, amount);
  const net = amount - discounted - (taxInclusive ? (taxAmount ?? 0) : 0);
  return {
    amount,
    discount_amount: discounted,
    net_amount: net,
    tax_amount: taxAmount,
    total_amount: net + (taxAmount ?? 0),
  } satisfies CheckoutAmounts;
}

export interface CheckoutFlagsInput {
  /** The non-archived prices of the selected product. */
  productPrices: readonly { amount_type: AmountType }[];
  /** The selected price. */
  price: { amount_type: AmountType };
  isRecurring: boolean;
  amount: number;
  totalAmount: number;
  discount: DiscountForAmount | null;
  /** The trial the checkout gives (docs/trials.md), and whether it needs a card. */
  trial?: { requiresPaymentMethod: boolean } | null;
}

export interface CheckoutFlags {
  is_discount_applicable: boolean;
  is_free_product_price: boolean;
  is_payment_required: boolean;
  is_payment_setup_required: boolean;
  is_payment_form_required: boolean;
}

const DISCOUNTABLE: readonly AmountType[] = ['fixed', 'custom', 'metered_unit'];

/**
 * - discount applicable: some price of the product is fixed, custom or metered (free is not);
 * - free product price: every price of the product is free;
 * - payment required: the total is positive;
 * - payment setup required: a recurring product that is not free, except a pay-what-you-want amount of 0
 *   with no metered price, or a 100 % forever discount (nothing will ever be charged);
 * - payment form: either of the two.
 * With a trial nothing is charged now (the total is what the first period will cost): no payment, and a
 * setup to save the card unless the trial is card-less.
 */
export function checkoutFlags(input: CheckoutFlagsInput): CheckoutFlags {
  const isFree = input.productPrices.length > 0 && input.productPrices.every((p) => p.amount_type === 'free');
  const hasMetered = input.productPrices.some((p) => p.amount_type === 'metered_unit');
  const trial = input.isRecurring ? (input.trial ?? null) : null;
  const paymentRequired = input.totalAmount > 0 && trial === null;
  const neverCharged =
    (input.price.amount_type === 'custom' && input.amount === 0 && !hasMetered) ||
    (input.discount?.type === 'percentage' &&
      input.discount.duration === 'forever' &&
      input.discount.basis_points === 10_000);
  const setupRequired = input.isRecurring && !isFree && !neverCharged && (trial?.requiresPaymentMethod ?? true);
  return {
    is_discount_applicable: input.productPrices.some((p) => DISCOUNTABLE.includes(p.amount_type)),
    is_free_product_price: isFree,
    is_payment_required: paymentRequired,
    is_payment_setup_required: setupRequired,
    is_payment_form_required: paymentRequired || setupRequired,
  };
}

export interface BillingAddressFields {
  country: boolean;
  state: boolean;
  city: boolean;
  postal_code: boolean;
  line1: boolean;
  line2: boolean;
}

/** Which address fields the form asks for: all with a full address (required, business, or US). */
export function billingAddressFields(input: {
  requireBillingAddress: boolean;
  isBusinessCustomer: boolean;
  country: string | null;
}): BillingAddressFields {
  const full = input.requireBillingAddress || input.isBusinessCustomer || input.country === 'US';
  return {
    country: true,
    state: full || input.country === 'US' || input.country === 'CA',
    city: full,
    postal_code: full,
    line1: full,
    line2: full,
  };
}

/** A preset address with street-level parts (or a state outside US/CA) makes the full address required. */
export function presetForcesFullAddress(
  address: {
    line1: string | null;
    line2: string | null;
    city: string | null;
    postal_code: string | null;
    state: string | null;
    country: string;
  } | null,
): boolean {
  if (!address) return false;
  if (address.line1 || address.line2 || address.city || address.postal_code) return true;
  return address.state !== null && address.country !== 'US' && address.country !== 'CA';
}

/** "Full billing address" means at least one of line1, line2, city, postal code (the reference's check). */
export function hasStreetAddress(
  address: { line1: string | null; line2: string | null; city: string | null; postal_code: string | null } | null,
): boolean {
  return Boolean(address && (address.line1 || address.line2 || address.city || address.postal_code));
}
