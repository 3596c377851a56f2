/**
 * The money rules of the subscription engine, as pure functions (table-tested next to this file):
 * proration of a plan change, discounts over cycles, and the dunning schedule.
 */

const DAY_MS = 24 * 3600 * 1000;

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

function daysInMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/** `date` plus `months`, on the same day of month or the last day of a shorter month; time kept. */
export function addMonths(date: Date, months: number): Date {
  const total = date.getUTCFullYear() * 12 + date.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(date.getUTCDate(), daysInMonth(year, month));
  const result = new Date(date);
  result.setUTCFullYear(year, month, day);
  return result;
}

export interface DiscountDuration {
  duration: 'once' | 'forever' | 'repeating';
  duration_in_months: number | null;
}

/**
 * Whether the discount no longer applies to the period starting at `periodStart` (research §4.3, [N]):
 * `once` only covered the first payment; `forever` never ends; `repeating` N months covers the periods
 * starting up to `startedAt + (N − 1) months`.
 */
export function isDiscountExpired(discount: DiscountDuration, startedAt: Date, periodStart: Date): boolean {
  if (discount.duration === 'forever') return false;
  if (discount.duration === 'once') return periodStart > startedAt;
  const endAt = addMonths(startedAt, Math.max((discount.duration_in_months ?? 1) - 1, 0));
  return periodStart > endAt;
}

/** Days between failed attempts: after the 1st failure +2, then +5, +7, +7 (cumulative 2/7/14/21). */
export const DUNNING_RETRY_DAYS = [2, 5, 7, 7] as const;

/** Decline reasons no retry can fix: dunning stops at once. */
export const HARD_DECLINES = new Set([
  'lost_card',
  'stolen_card',
  'pickup_card',
  'fraudulent',
  'expired_card',
  'incorrect_number',
  'invalid_account',
  'payment_method_not_found',
  'restricted_card',
]);

/**
 * After the `failures`-th failed attempt at `now`: the time of the next attempt, or null when the
 * subscription must end (a hard decline, or the last retry failed).
 */
export function nextRetryAt(failures: number, declineReason: string, now: Date): Date | null {
  if (HARD_DECLINES.has(declineReason)) return null;
  const days = DUNNING_RETRY_DAYS[failures - 1];
  if (days === undefined) return null;
  return new Date(now.getTime() + days * DAY_MS);
}

/** The reference's status rank for sorting (active-but-canceling sorts after active). */
export function statusRank(status: string, cancelAtPeriodEnd: boolean): number {
  const ranks: Record<string, number> = {
    incomplete: 1,
    incomplete_expired: 2,
    trialing: 3,
    active: 4,
    past_due: 6,
    canceled: 7,
    unpaid: 8,
  };
  if (status === 'active' && cancelAtPeriodEnd) return 5;
  return ranks[status] ?? 9;
}
