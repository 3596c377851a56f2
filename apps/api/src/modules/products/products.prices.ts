/**
 * Pure money and price rules of products: amount bounds, custom (pay-what-you-want) amounts, the
 * cross-price rules of a product, the order prices are shown in, the list sort keys, and metered unit
 * amounts. Unit amounts are decimals kept as strings end to end (request → numeric(17,12) → response)
 * and never pass through floating-point arithmetic.
 */
import type { Loc } from '../../platform/http/errors.js';

/** A fixed price, and the minimum of a custom price, lie in [50, 99 999 999] cents (reference bounds). */
export const MINIMUM_PRICE_AMOUNT = 50;
export const MAXIMUM_PRICE_AMOUNT = 99_999_999;
/** The maximum and the preset of a custom price are capped at $10 000 (reference bound). */
export const MAXIMUM_CUSTOM_PRICE_AMOUNT = 1_000_000;

/** numeric(17, 12): at most 17 significant digits, 12 of them after the point, so 5 before it. */
export const UNIT_AMOUNT_MAX_DIGITS = 17;
export const UNIT_AMOUNT_MAX_DECIMAL_PLACES = 12;
export const UNIT_AMOUNT_MAX_WHOLE_DIGITS = UNIT_AMOUNT_MAX_DIGITS - UNIT_AMOUNT_MAX_DECIMAL_PLACES;

export const DEFAULT_CURRENCY = 'usd';

export type AmountType = 'fixed' | 'custom' | 'free' | 'metered_unit';
export const STATIC_AMOUNT_TYPES: readonly AmountType[] = ['fixed', 'custom', 'free'];

export function isStaticAmountType(type: AmountType): boolean {
  return type !== 'metered_unit';
}

/** A relative 422 issue: `loc` is appended to wherever the caller found the value. */
export interface PriceIssue {
  loc: Loc;
  msg: string;
  type: string;
}

const ISO_4217 = new Set(Intl.supportedValuesOf('currency').map((code) => code.toLowerCase()));

/** Lower-case ISO 4217 codes only (`usd`, `eur`): the wire and the database keep them lower-case. */
export function currencyIssue(value: string): PriceIssue | undefined {
  if (!/^[a-z]{3}$/.test(value)) {
    return {
      loc: [],
      msg: 'Currency must be a lower-case ISO 4217 code, such as "usd".',
      type: 'string_pattern_mismatch',
    };
  }
  if (!ISO_4217.has(value)) return { loc: [], msg: 'Unknown ISO 4217 currency code.', type: 'value_error' };
  return undefined;
}

export interface CustomAmounts {
  minimum_amount?: number | null;
  maximum_amount?: number | null;
  preset_amount?: number | null;
}

/**
 * A custom price's minimum is 0 (free or pay what you want) or at least 50 cents; the bounds of each
 * field are checked by the schema. Here: the three must be ordered, minimum ≤ preset ≤ maximum.
 */
export function customAmountIssues(amounts: CustomAmounts): PriceIssue[] {
  const issues: PriceIssue[] = [];
  const { minimum_amount: min, maximum_amount: max, preset_amount: preset } = amounts;
  if (min != null && min > 0 && min < MINIMUM_PRICE_AMOUNT) {
    issues.push({
      loc: ['minimum_amount'],
      msg: `Input should be 0 or greater than or equal to ${MINIMUM_PRICE_AMOUNT}`,
      type: 'greater_than_equal',
    });
  }
  if (min != null && max != null && min > max) {
    issues.push({
      loc: ['maximum_amount'],
      msg: 'The maximum amount must be greater than or equal to the minimum amount.',
      type: 'value_error',
    });
  }
  if (preset != null && min != null && preset < min) {
    issues.push({
      loc: ['preset_amount'],
      msg: 'The preset amount must be greater than or equal to the minimum amount.',
      type: 'value_error',
    });
  }
  if (preset != null && max != null && preset > max) {
    issues.push({
      loc: ['preset_amount'],
      msg: 'The preset amount must be less than or equal to the maximum amount.',
      type: 'value_error',
    });
  }
  return issues;
}

/** What the cross-price rules need to know of each price of the product's new price list. */
export interface PriceSpec {
  amount_type: AmountType;
  /** Null for free prices, which carry no currency. */
  price_currency: string | null;
  meter_id: string | null;
  /** Position in the request's `prices` list, for the issue's loc. */
  index: number;
}

/**
 * The rules over a product's complete (non-archived) price list: at least one price, at most one static
 * price (fixed, custom or free), metered prices only on recurring products, each meter once, and one
 * currency per product (a subscription or an order is charged in one currency).
 */
export function priceSetIssues(prices: readonly PriceSpec[], recurring: boolean): PriceIssue[] {
  if (prices.length === 0) return [{ loc: [], msg: 'At least one price is required.', type: 'too_short' }];
  const issues: PriceIssue[] = [];
  let staticSeen = false;
  const meters = new Set<string>();
  const currency = prices.find((price) => price.price_currency !== null)?.price_currency ?? null;
  for (const price of prices) {
    if (isStaticAmountType(price.amount_type)) {
      if (staticSeen)
        issues.push({ loc: [price.index], msg: 'Only one static price is allowed.', type: 'value_error' });
      staticSeen = true;
    } else {
      if (!recurring) {
        issues.push({
          loc: [price.index],
          msg: 'Metered pricing is not supported on one-time products.',
          type: 'value_error',
        });
      }
      if (price.meter_id !== null) {
        if (meters.has(price.meter_id)) {
          issues.push({
            loc: [price.index, 'meter_id'],
            msg: 'Meter is already used for another price.',
            type: 'value_error',
          });
        }
        meters.add(price.meter_id);
      }
    }
    if (price.price_currency !== null && price.price_currency !== currency) {
      issues.push({
        loc: [price.index, 'price_currency'],
        msg: 'All prices of a product must use the same currency.',
        type: 'value_error',
      });
    }
  }
  return issues;
}

/** What ordering and sorting need of a stored price. */
export interface OrderablePrice {
  amount_type: AmountType;
  is_archived: boolean;
  created_at: Date;
  /** Creation order within the product; breaks ties between prices created in one request. */
  position: number;
  price_amount: number | null;
  minimum_amount: number | null;
}

function byCreation(a: OrderablePrice, b: OrderablePrice): number {
  return a.created_at.getTime() - b.created_at.getTime() || a.position - b.position;
}

/** `product.prices` on the wire: the non-archived prices, static first, then metered, each by creation. */
export function visiblePrices<T extends OrderablePrice>(prices: readonly T[]): T[] {
  const rank = (price: OrderablePrice) => (isStaticAmountType(price.amount_type) ? 0 : 1);
  return prices.filter((price) => !price.is_archived).sort((a, b) => rank(a) - rank(b) || byCreation(a, b));
}

/** `price_amount_type` sorting ranks free < custom < fixed < metered (the reference ranks the first three). */
export const AMOUNT_TYPE_SORT_RANK: Record<AmountType, number> = { free: 1, custom: 2, fixed: 3, metered_unit: 4 };

export interface PriceSortKeys {
  price_sort_type: number | null;
  /** Null sorts after every amount ascending, and before every amount descending (PostgreSQL's default). */
  price_sort_amount: number | null;
}

/**
 * The list sort keys of a product come from its first non-archived price by creation (as the
 * reference does): free −2, custom its minimum (−1 when unset), fixed its amount, metered none.
 */
export function priceSortKeys(prices: readonly OrderablePrice[]): PriceSortKeys {
  const first = prices.filter((price) => !price.is_archived).sort(byCreation)[0];
  if (!first) return { price_sort_type: null, price_sort_amount: null };
  const amount = (() => {
    switch (first.amount_type) {
      case 'free':
        return -2;
      case 'custom':
        return first.minimum_amount ?? -1;
      case 'fixed':
        return first.price_amount;
      case 'metered_unit':
        return null;
    }
  })();
  return { price_sort_type: AMOUNT_TYPE_SORT_RANK[first.amount_type], price_sort_amount: amount };
}

// ---------------------------------------------------------------------------------------------------
// Decimals

/** A decimal as an integer of significant digits and a count of digits after the point. */
interface Decimal {
  negative: boolean;
  digits: bigint;
  scale: number;
}

const DECIMAL_PATTERN = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Parses `12`, `0.5`, `.5`, `5.`, `1e-7`, `1.5E+3` (what JSON numbers print as) into a Decimal. */
function parseDecimal(text: string): Decimal | undefined {
  const match = DECIMAL_PATTERN.exec(text.trim());
  if (!match) return undefined;
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  if (whole.length + fraction.length === 0) return undefined;
  const exp = Number(exponent);
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 1000) return undefined;
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  let scale = fraction.length - exp;
  if (scale < 0) {
    digits = digits === '' ? '' : digits + '0'.repeat(-scale);
    scale = 0;
  }
  // Trailing zeros after the point carry no value: 1.500 is 1.5.
  while (scale > 0 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    scale -= 1;
  }
  if (digits === '') return { negative: false, digits: 0n, scale: 0 };
  return { negative: sign === '-', digits: BigInt(digits), scale };
}

function formatDecimal(value: Decimal): string {
  const text = value.digits.toString().padStart(value.scale + 1, '0');
  const whole = text.slice(0, text.length - value.scale);
  const fraction = text.slice(text.length - value.scale);
  return `${value.negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

export type UnitAmountResult = { ok: true; value: string } | { ok: false; issue: PriceIssue };

/**
 * A metered price's `unit_amount` (cents per unit): a number or a decimal string on input, > 0, at most
 * 12 decimal places and 5 digits before the point. The result is its canonical string (`"0.5"`, `"12"`),
 * which is also how it is stored and sent back. A JSON number is read through its shortest printed form,
 * so 0.1 stays `"0.1"`.
 */
export function normalizeUnitAmount(input: number | string): UnitAmountResult {
  const fail = (msg: string, type: string): UnitAmountResult => ({ ok: false, issue: { loc: [], msg, type } });
  if (typeof input === 'number' && !Number.isFinite(input))
    return fail('Input should be a finite number', 'finite_number');
  const decimal = parseDecimal(typeof input === 'number' ? String(input) : input);
  if (!decimal) return fail('Input should be a valid decimal', 'decimal_parsing');
  if (decimal.negative || decimal.digits === 0n) return fail('Input should be greater than 0', 'greater_than');
  if (decimal.scale > UNIT_AMOUNT_MAX_DECIMAL_PLACES) {
    return fail(
      `Decimal input should have no more than ${UNIT_AMOUNT_MAX_DECIMAL_PLACES} decimal places`,
      'decimal_max_places',
    );
  }
  const wholeDigits = Math.max(0, decimal.digits.toString().length - decimal.scale);
  if (wholeDigits > UNIT_AMOUNT_MAX_WHOLE_DIGITS) {
    return fail(
      `Decimal input should have no more than ${UNIT_AMOUNT_MAX_WHOLE_DIGITS} digits before the decimal point`,
      'decimal_whole_digits',
    );
  }
  return { ok: true, value: formatDecimal(decimal) };
}

/**
 * The charge of a metered price for a period, in cents: `unit_amount × max(0, consumed − credited)`,
 * rounded half up, then capped at `cap_amount` when set (reference `get_amount_and_label`). Units may be
 * fractional (meters aggregate with averages); they are given as decimal strings or finite numbers.
 */
export function meteredChargeAmount(
  unitAmount: string,
  consumedUnits: number | string,
  creditedUnits: number | string,
  capAmount: number | null,
): number {
  const unit = parseDecimal(unitAmount);
  const consumed = parseDecimal(String(consumedUnits));
  const credited = parseDecimal(String(creditedUnits));
  if (!unit || !consumed || !credited) throw new Error('invalid decimal in metered charge');
  const signed = (d: Decimal, scale: number) => (d.negative ? -1n : 1n) * d.digits * 10n ** BigInt(scale - d.scale);
  const unitsScale = Math.max(consumed.scale, credited.scale);
  let units = signed(consumed, unitsScale) - signed(credited, unitsScale);
  if (units < 0n) units = 0n;
  const product = signed(unit, unit.scale) * units;
  const scale = unit.scale + unitsScale;
  const divisor = 10n ** BigInt(scale);
  // Half up on a non-negative value: add half the divisor, then truncate.
  const rounded = scale === 0 ? product : (product + divisor / 2n) / divisor;
  const amount = capAmount !== null && rounded > BigInt(capAmount) ? BigInt(capAmount) : rounded;
  if (amount > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('metered charge exceeds the safe integer range');
  return Number(amount);
}
