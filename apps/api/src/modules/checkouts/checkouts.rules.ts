import type { Context } from '../../platform/context.js';
import type { AddressValue } from '../../platform/http/countries.js';
import { IssueCollector, type Loc } from '../../platform/http/errors.js';
import { detectTaxId, type TaxId } from '../../platform/http/tax-ids.js';
import { taxCalculator, type TaxDetails, type TaxInput } from '../../platform/tax.js';
import { stripeTaxAvailable } from '../../platform/stripe-tax.js';
import { findTaxRules } from '../tax-settings/tax-settings.repository.js';
import { findDiscountByCode, findDiscountsByIds, type DiscountRow } from '../discounts/discounts.repository.js';
import type { PriceWithMeter } from '../products/products.repository.js';
import { isStaticAmountType, MINIMUM_PRICE_AMOUNT } from '../products/products.prices.js';
import type { ProductBundle } from '../products/products.serializer.js';
import { hasBillableSubscription } from '../subscriptions/subscriptions.repository.js';
import { checkoutAmounts, checkoutFlags, priceCurrency } from './checkouts.amounts.js';
import { findDiscountProductIds } from './checkouts.repository.js';
import { AlreadyActiveSubscriptionError } from './checkouts.errors.js';

export const TAX_ID_NEEDS_COUNTRY = 'Country is required to validate tax ID.';
export const TAX_ID_INVALID = 'Invalid tax ID.';
export const DISCOUNT_NOT_FOUND = 'Discount does not exist.';
export const DISCOUNT_NOT_APPLICABLE = 'Discounts are not applicable to this product.';
export const DISCOUNT_NOT_APPLICABLE_TO_PRODUCT = 'Discount is not applicable to this product.';

/** The price a new checkout selects: the product's static price (fixed, custom, free), else its first. */
export function defaultPrice(bundle: ProductBundle): PriceWithMeter | undefined {
  return bundle.prices.find((price) => isStaticAmountType(price.amount_type)) ?? bundle.prices[0];
}

/**
 * Whether a checkout may select `price` of `bundle`: a static one (fixed, custom, free); a metered price
 * only when the product has nothing else. The subscription carries the product's metered prices anyway,
 * so selecting one would only drop the fixed fee.
 */
export function isSelectablePrice(bundle: ProductBundle, price: PriceWithMeter): boolean {
  return isStaticAmountType(price.amount_type) || !bundle.prices.some((p) => isStaticAmountType(p.amount_type));
}

/** A pay-what-you-want amount must be within the price's bounds (0 only when the minimum is 0). */
export function checkCustomAmount(issues: IssueCollector, price: PriceWithMeter, amount: number, loc: Loc): void {
  if (price.amount_type !== 'custom') return;
  const minimum = price.minimum_amount ?? MINIMUM_PRICE_AMOUNT;
  const belowFloor = amount > 0 && amount < MINIMUM_PRICE_AMOUNT;
  if (amount < minimum || belowFloor) {
    issues.add(
      loc,
      `Amount is below minimum. Input should be greater than or equal to ${Math.max(minimum, belowFloor ? MINIMUM_PRICE_AMOUNT : 0)}`,
      'greater_than_equal',
    );
  } else if (price.maximum_amount !== null && amount > price.maximum_amount) {
    issues.add(
      loc,
      `Amount is above maximum. Input should be less than or equal to ${price.maximum_amount}`,
      'less_than_equal',
    );
  }
}

/** Whether the discount can be redeemed now: in its window and below its redemption cap. */
export function isRedeemable(discount: DiscountRow, now: Date): boolean {
  if (discount.deleted_at) return false;
  if (discount.starts_at && discount.starts_at > now) return false;
  if (discount.ends_at && discount.ends_at < now) return false;
  return discount.max_redemptions === null || discount.redemptions_count < discount.max_redemptions;
}

/**
 * Whether a discount applies to a product and currency: the product is in its restriction list (empty
 * = any), a repeating discount needs a recurring product, and a fixed discount must be in the
 * checkout's currency (a fixed amount in another currency would be meaningless).
 */
export async function isApplicable(
  ctx: Context,
  discount: DiscountRow,
  product: ProductBundle,
  currency: string,
): Promise<boolean> {
  if (discount.duration === 'repeating' && product.product.recurring_interval === null) return false;
  if (discount.type === 'fixed' && discount.currency !== currency) return false;
  const restricted = await findDiscountProductIds(ctx.db, discount.id);
  return restricted.length === 0 || restricted.includes(product.product.id);
}

/**
 * The reference's `_get_validated_discount`: by id or by code (case-insensitive) among the
 * organization's live discounts, redeemable now, applicable to the product. Every failure says
 * "Discount does not exist." (expired, exhausted and unknown are not told apart).
 */
export async function validatedDiscount(
  ctx: Context,
  issues: IssueCollector,
  organizationId: string,
  product: ProductBundle,
  price: PriceWithMeter,
  key: { id: string } | { code: string },
  loc: Loc,
): Promise<DiscountRow | null> {
  if (!product.prices.some((p) => p.amount_type !== 'free')) {
    issues.add(loc, DISCOUNT_NOT_APPLICABLE);
    return null;
  }
  const id = 'id' in key ? key.id : await findDiscountByCode(ctx.db, organizationId, key.code).then((row) => row?.id);
  const [discount] = id ? await findDiscountsByIds(ctx.db, [id]) : [];
  if (!discount || discount.organization_id !== organizationId || !isRedeemable(discount, ctx.clock.now())) {
    issues.add(loc, DISCOUNT_NOT_FOUND);
    return null;
  }
  if (!(await isApplicable(ctx, discount, product, priceCurrency(price)))) {
    issues.add(loc, DISCOUNT_NOT_APPLICABLE_TO_PRODUCT);
    return null;
  }
  return discount;
}

/** A bare tax id, validated against the billing country (`[value, format]` as stored). */
export function checkTaxId(
  issues: IssueCollector,
  value: string,
  address: AddressValue | null,
  loc: { taxId: Loc; address: Loc },
): TaxId | null {
  if (!address) {
    issues.add(loc.address, TAX_ID_NEEDS_COUNTRY, 'missing');
    return null;
  }
  const taxId = detectTaxId(value, address.country);
  if (!taxId) issues.add(loc.taxId, TAX_ID_INVALID);
  return taxId;
}

export interface TaxSubject {
  amount: number;
  currency: string;
  discount: DiscountRow | null;
  product: ProductBundle;
  price: PriceWithMeter;
  address: AddressValue | null;
  taxId: TaxId | null;
  /** The checkout's tax so far: a remote (Stripe Tax) answer is kept while its question is the same. */
  previous?: { amount: number | null; details: unknown };
}

export interface CheckoutTax {
  amount: number | null;
  /** The calculation behind the amount (null while unknown), kept on the checkout and its order. */
  details: TaxDetails | null;
  failure?: string;
}

export const TAX_PENDING = 'Tax could not be calculated for this billing address yet; please try again.';

/** The calculator's question for a checkout (null when no payment is required), with its fingerprint. */
export async function taxQuestion(
  ctx: Context,
  subject: TaxSubject,
): Promise<{ input: TaxInput; fingerprint: string; stripeTax: boolean; inclusive: boolean } | null> {
  const { net_amount, total_amount } = checkoutAmounts(subject.amount, subject.discount, null);
  const { is_payment_required } = checkoutFlags({
    productPrices: subject.product.prices,
    price: subject.price,
    isRecurring: subject.product.product.recurring_interval !== null,
    amount: subject.amount,
    totalAmount: total_amount,
    discount: subject.discount,
  });
  if (!is_payment_required) return null;
  const rules = await findTaxRules(ctx.db, subject.product.product.organization_id);
  const input: TaxInput = {
    amount: net_amount,
    currency: subject.currency,
    country: subject.address?.country ?? null,
    state: subject.address?.state ?? null,
    postalCode: subject.address?.postal_code ?? null,
    taxId: subject.taxId,
    productId: subject.product.product.id,
    taxable: subject.product.product.is_tax_applicable,
    rules,
  };
  const { rules: _rules, ...asked } = input;
  return {
    input,
    fingerprint: JSON.stringify({ ...asked, inclusive: rules.pricesIncludeTax }),
    stripeTax: rules.stripeTaxEnabled && stripeTaxAvailable(ctx.config),
    inclusive: rules.pricesIncludeTax,
  };
}

/**
 * The tax of a checkout: 0 when no payment is required, null while it cannot be computed (no billing
 * country), else the calculator's on the organization's rules as they are now (docs/tax.md). A failure
 * is reported (`{failed}`) so confirm can refuse it. This runs inside the request's transaction, so an
 * organization on Stripe Tax keeps the answer Stripe gave for the same question (asked with no
 * transaction open, `checkouts.external-tax.ts`) and is otherwise pending: null, and a failure for
 * confirm.
 */
export async function computeTax(ctx: Context, subject: TaxSubject): Promise<CheckoutTax> {
  const question = await taxQuestion(ctx, subject);
  if (!question) return { amount: 0, details: null };
  if (question.stripeTax && question.input.country) {
    const previous = subject.previous?.details as TaxDetails | null | undefined;
    if (previous?.fingerprint === question.fingerprint && subject.previous?.amount != null) {
      return { amount: subject.previous.amount, details: previous };
    }
    return { amount: null, details: null, failure: TAX_PENDING };
  }
  const result = await taxCalculator().calculate(question.input);
  if (result.status === 'calculated') return { amount: result.amount, details: result.details ?? null };
  if (result.status === 'failed') return { amount: null, details: null, failure: result.message };
  return { amount: null, details: null };
}

/**
 * The reference's subscription-uniqueness rule: unless the organization allows several, a customer
 * (by id or email) with a billable subscription in the organization cannot start another one.
 */
export async function checkSubscriptionUniqueness(
  ctx: Context,
  input: {
    organization: { id: string; subscription_settings: unknown };
    product: ProductBundle;
    isUpgrade: boolean;
    customerId: string | null;
    email: string | null;
  },
): Promise<void> {
  const settings = (input.organization.subscription_settings ?? {}) as { allow_multiple_subscriptions?: boolean };
  if (settings.allow_multiple_subscriptions) return;
  if (input.product.product.recurring_interval === null || input.isUpgrade) return;
  if (await hasBillableSubscription(ctx.db, input.organization.id, input.customerId, input.email)) {
    throw new AlreadyActiveSubscriptionError();
  }
}
