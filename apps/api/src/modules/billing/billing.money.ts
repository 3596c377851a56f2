/**
 * The money rules of billing, as pure functions (table-tested next to this file). Every path that
 * prices something — the checkout, the renewal cycle, a plan change billed at once, the final order of
 * an ending subscription — asks these, so a rule is written once. Amounts are integers in minor units.
 */

/** `numerator / denominator` rounded half to even (Python's `round`), in exact integer arithmetic. */
export function divideRoundHalfEven(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new Error('denominator must be positive');
  const negative = numerator < 0n;
  const n = negative ? -numerator : numerator;
  let quotient = n / denominator;
  const twice = 2n * (n % denominator);
  if (twice > denominator || (twice === denominator && quotient % 2n === 1n)) quotient += 1n;
  return negative ? -quotient : quotient;
}

/** `numerator / denominator` rounded half away from zero, in integers (12.5 → 13, −12.5 → −13). */
export function divideRoundHalfAwayFromZero(numerator: number, denominator: number): number {
  const sign = Math.sign(numerator) * Math.sign(denominator);
  const n = BigInt(Math.abs(numerator));
  const d = BigInt(Math.abs(denominator));
  return sign * Number((2n * n + d) / (2n * d));
}

export interface DiscountForAmount {
  type: 'fixed' | 'percentage';
  amount: number | null;
  basis_points: number | null;
}

/**
 * What a discount takes off `amount` (research §4.4): a percentage is amount × basis points / 10 000,
 * half away from zero; a fixed amount is capped at the amount, so a net amount is never negative.
 */
export function discountAmount(discount: DiscountForAmount | null, amount: number): number {
  if (!discount || amount <= 0) return 0;
  if (discount.type === 'percentage') return divideRoundHalfAwayFromZero(amount * (discount.basis_points ?? 0), 10_000);
  return Math.min(discount.amount ?? 0, amount);
}

/** `amount` less its discount. */
export function netOfDiscount(discount: DiscountForAmount | null, amount: number): number {
  return amount - discountAmount(discount, amount);
}

/** A subscription's amount: the sum of its snapshot prices less the discount. */
export function subscriptionAmount(prices: readonly { amount: number }[], discount: DiscountForAmount | null): number {
  return netOfDiscount(
    discount,
    prices.reduce((sum, price) => sum + price.amount, 0),
  );
}

/** What the payment method is asked for: the order's total less what the credit balance paid. */
export function dueAmount(order: { total_amount: number; applied_balance_amount: number }): number {
  return order.total_amount - order.applied_balance_amount;
}

/**
 * The share of `amount` for the time left in `[start, end)` at `now`:
 * round(amount × (end − now) / (end − start)), half to even; 0 when the period is over, the whole
 * amount when it has not started.
 */
export function prorate(amount: number, start: Date, end: Date, now: Date): number {
  const total = end.getTime() - start.getTime();
  if (total <= 0) return 0;
  const left = Math.min(Math.max(end.getTime() - now.getTime(), 0), total);
  return Number(divideRoundHalfEven(BigInt(amount) * BigInt(left), BigInt(total)));
}

function daysInMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/**
 * `date` plus `months`, on `anchorDay` (by default the date's own day of month) or the last day of a
 * shorter month; time of day kept, all in UTC. Jan 31 + 1 → Feb 28; with anchor 31, Feb 28 + 1 → Mar 31.
 */
export function addMonths(date: Date, months: number, anchorDay: number = date.getUTCDate()): Date {
  const total = date.getUTCFullYear() * 12 + date.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const result = new Date(date);
  result.setUTCFullYear(year, month, Math.min(anchorDay, daysInMonth(year, month)));
  return result;
}

export interface DiscountDuration {
  duration: 'once' | 'forever' | 'repeating';
  duration_in_months: number | null;
}

/**
 * Whether a discount pays for the period starting at `periodStart` (research §4.3, counted as the
 * reference now does from `appliedAt`, the start of the first period it paid for): `once` pays for
 * that period only, `forever` for every period from it, `repeating` N months for the periods starting
 * up to `appliedAt + (N − 1) months`. A discount set on a running subscription applies from the next
 * period, so it does not pay for the current one.
 */
export function discountCovers(discount: DiscountDuration, appliedAt: Date, periodStart: Date): boolean {
  if (periodStart < appliedAt) return false;
  if (discount.duration === 'forever') return true;
  if (discount.duration === 'once') return periodStart.getTime() === appliedAt.getTime();
  return periodStart <= addMonths(appliedAt, Math.max((discount.duration_in_months ?? 1) - 1, 0));
}

/** A line the order bills at the discount: a static price of the period. */
export interface CycleLine {
  label: string;
  amount: number;
  product_price_id: string | null;
}

/** A pending proration entry: a credit (< 0) or a debit (> 0), its discount already included. */
export interface EntryLine extends CycleLine {
  id: string;
}

export interface OrderLine extends CycleLine {
  proration: boolean;
}

export interface PricedOrder {
  /** The period's lines, then every pending entry. */
  items: OrderLine[];
  subtotal: number;
  discount: number;
  /** subtotal − discount; below 0 when the credits exceed the rest (`carryCreditToBalance`). */
  net: number;
  /** The proration entries the order carries: all of them, always. */
  entryIds: string[];
}

/** The label of the line that moves excess credit to the customer's balance. */
export const CREDIT_TO_BALANCE_LABEL = 'Unused credit added to your balance';

/**
 * Prices a subscription order (research §2.3): the period's lines, at the discount, then every pending
 * proration entry in full (the discount is already in them, research §3.8). The net is taxed as it is,
 * a credit too (`billing.tax.ts`), and what the credits exceed the rest by, tax included, goes to the
 * balance (`carryCreditToBalance`).
 */
export function priceSubscriptionOrder(
  cycle: readonly CycleLine[],
  entries: readonly EntryLine[],
  discount: DiscountForAmount | null,
): PricedOrder {
  const discountable = cycle.reduce((sum, line) => sum + line.amount, 0);
  const discounted = discountAmount(discount, discountable);
  const items: OrderLine[] = [
    ...cycle.map((line) => ({ ...line, proration: false })),
    ...entries.map(({ label, amount, product_price_id }) => ({ label, amount, product_price_id, proration: true })),
  ];
  const subtotal = items.reduce((sum, item) => sum + item.amount, 0);
  return { items, subtotal, discount: discounted, net: subtotal - discounted, entryIds: entries.map((e) => e.id) };
}

/** A line of an order with its share of the order's tax. */
export interface TaxedOrderLine extends OrderLine {
  tax_amount: number;
}

export interface SettledOrder {
  items: TaxedOrderLine[];
  /** Never below 0, and net (subtotal − discount), tax and total neither. */
  subtotal: number;
  tax: number;
  total: number;
  /** Credit beyond what the order costs, its tax included, moved to the customer's credit balance (≥ 0). */
  credited: number;
}

/**
 * The order's totals from its taxed lines (the tax of a net credit is negative, carried by the credit
 * lines). When the credits exceed the rest, a last line moves the excess to the customer's balance with
 * the tax on it (as Stripe carries a credit note's tax), so the order's net, tax and total are 0 and no
 * credit, nor the tax paid on it, is ever dropped: credits created = credits applied + balance.
 */
export function carryCreditToBalance(items: readonly TaxedOrderLine[], discount: number): SettledOrder {
  const subtotal = items.reduce((sum, item) => sum + item.amount, 0);
  const tax = items.reduce((sum, item) => sum + item.tax_amount, 0);
  const total = subtotal - discount + tax;
  if (total >= 0) return { items: [...items], subtotal, tax, total, credited: 0 };
  const line: TaxedOrderLine = {
    label: CREDIT_TO_BALANCE_LABEL,
    amount: discount - subtotal,
    tax_amount: tax === 0 ? 0 : -tax,
    product_price_id: null,
    proration: true,
  };
  return { items: [...items, line], subtotal: discount, tax: 0, total: 0, credited: -total };
}

export interface Settlement {
  /** What the credit balance pays of the total. */
  applied: number;
  /** What is left to charge: 0 means the order is paid without a charge. */
  due: number;
}

/** The credit balance pays first (after tax, like a payment), up to the total; the rest is charged. */
export function settleWithBalance(total: number, balance: number): Settlement {
  if (total <= 0) return { applied: 0, due: 0 };
  const applied = Math.min(Math.max(balance, 0), total);
  return { applied, due: total - applied };
}

export interface ProrationInput {
  periodStart: Date;
  periodEnd: Date;
  now: Date;
  /** Net (after discount) amounts of the old plan's static prices. */
  oldAmounts: number[];
  /** Net (after discount) amounts of the new plan's static prices. */
  newAmounts: number[];
}

/**
 * A plan change within the same interval (research §3.8): a credit (negative) per old price for the
 * unused time, a debit (positive) per new price for the time left.
 */
export function prorationEntries(input: ProrationInput): { credits: number[]; debits: number[] } {
  const { periodStart, periodEnd, now } = input;
  return {
    credits: input.oldAmounts.map((amount) => -prorate(amount, periodStart, periodEnd, now)),
    debits: input.newAmounts.map((amount) => prorate(amount, periodStart, periodEnd, now)),
  };
}

const DECIMALS = 12;
const SCALE = 10n ** BigInt(DECIMALS);

/** A non-negative decimal (number or string, up to 12 decimals) as an integer scaled by 10¹². */
function toScaled(value: number | string): bigint {
  const text = typeof value === 'number' ? value.toFixed(DECIMALS) : value.trim();
  const match = /^(\d+)(?:\.(\d{0,12}))?$/.exec(text);
  if (!match) throw new Error(`not a non-negative decimal with up to ${DECIMALS} decimals: ${value}`);
  return BigInt(match[1]!) * SCALE + BigInt((match[2] ?? '').padEnd(DECIMALS, '0'));
}

export interface MeteredLineInput {
  /** Units the meter aggregated over the period (may be fractional: sum, avg). */
  units: number;
  /** Units credited over the period (meter_credit benefits, rollover). */
  credited: number;
  /** Price per unit in cents, a decimal with up to 12 decimals ("0.5" = half a cent). */
  unitAmount: string;
  /** The most the line may cost, in cents (null: no cap). */
  capAmount: number | null;
}

/**
 * The amount of a metered price's line (research §5.6): units beyond the credits (never below 0) at the
 * unit price, rounded half up to the cent, capped at `cap_amount`. Exact: decimals are scaled integers.
 */
export function meteredLineAmount(input: MeteredLineInput): { amount: number; billableUnits: number; capped: boolean } {
  const billableUnits = Math.max(input.units - input.credited, 0);
  const product = toScaled(input.unitAmount) * toScaled(billableUnits);
  const denominator = SCALE * SCALE;
  const amount = Number((2n * product + denominator) / (2n * denominator));
  if (input.capAmount !== null && input.capAmount < amount)
    return { amount: input.capAmount, billableUnits, capped: true };
  return { amount, billableUnits, capped: false };
}

/**
 * Cents as dollars, exactly: at least two decimals, and every further decimal of the amount
 * (50 → "0.50", 0.5 → "0.005", 123456 → "1234.56"). Takes a decimal string or an integer.
 */
export function centsAsDollars(cents: string | number): string {
  const scaled = toScaled(cents);
  const whole = scaled / (100n * SCALE);
  const fraction = (scaled % (100n * SCALE))
    .toString()
    .padStart(DECIMALS + 2, '0')
    .replace(/0+$/, '');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}

/** Units as the reference writes them on a line: thousands separated, at most three decimals. */
export function formatUnits(units: number): string {
  return UNITS.format(units);
}

const UNITS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });

/**
 * The label of a metered price's line (research §5.6): `{meter} — ({units} consumed units) × ${unit
 * price}`, with ` — Capped at ${cap}` when the cap set the amount. The units are those the price is
 * computed on (consumed less credited, never below 0); prices are in dollars, exactly.
 */
export function meteredLineLabel(
  meterName: string,
  line: { billableUnits: number; capped: boolean },
  price: { unitAmount: string; capAmount: number | null },
): string {
  const label = `${meterName} — (${formatUnits(line.billableUnits)} consumed units) × $${centsAsDollars(price.unitAmount)}`;
  return line.capped && price.capAmount !== null ? `${label} — Capped at $${centsAsDollars(price.capAmount)}` : label;
}

/** What a closed meter window keeps of its credits in the next one. */
export type CarriedCredits =
  /** A renewal: the unused credits granted with `rollover` (the reference's rollover). */
  | 'rollover'
  /** A plan change: every unused credit (rollover ones still flagged so); the period goes on. */
  | 'unused'
  /** The subscription ended: nothing. */
  | 'nothing';

/**
 * The credits a closed window carries into the next, as two `meter.credited` amounts: `rollover`
 * (credited again with `rollover: true`) and `other` (without). `rolloverUnits` is what is left of the
 * rollover credits (never more than them, `customer-meters.window.ts`); `unusedUnits` what is left of all
 * credits. Whole units, never negative.
 */
export function carriedCredits(
  window: { rolloverUnits: number; unusedUnits: number },
  carry: CarriedCredits,
): { rollover: number; other: number } {
  if (carry === 'nothing') return { rollover: 0, other: 0 };
  const rollover = Math.max(0, Math.floor(window.rolloverUnits));
  if (carry === 'rollover') return { rollover, other: 0 };
  return { rollover, other: Math.max(0, Math.floor(window.unusedUnits) - rollover) };
}
