import { addMonths } from '../billing/billing.money.js';

/**
 * Billing periods keep the anchor day: the next period starts `interval` later on the day of month of
 * the first period start, or on the last day of a shorter month (Jan 31 → Feb 28 → Mar 31 → Apr 30;
 * Feb 29 yearly → Feb 28 → … → Feb 29 in the next leap year). Time of day is kept; all in UTC.
 */
export type RecurringInterval = 'month' | 'year';

/** The anchor of a subscription: the UTC day of month of its first period start. */
export function anchorDayOf(start: Date): number {
  return start.getUTCDate();
}

/** The end of the period starting at `start` (= the start of the next one). */
export function nextPeriodEnd(start: Date, interval: RecurringInterval, anchorDay: number = anchorDayOf(start)): Date {
  return addMonths(start, interval === 'year' ? 12 : 1, anchorDay);
}
