import { addMonths } from '../billing/billing.money.js';

/**
 * Free trials as pure rules (docs/trials.md): how long a trial is, when it ends, which trial a checkout
 * gives, and when its reminder is due. Table-tested next to this file.
 */
export type TrialInterval = 'day' | 'week' | 'month' | 'year';
export const TRIAL_INTERVALS: readonly TrialInterval[] = ['day', 'week', 'month', 'year'];

/**
 * The longest trial, per unit: two years, as 730 days, 104 weeks, 24 months or 2 years. Longer is
 * refused (a 10-year "trial" is a free product); so is a count below 1 (a trial of 0 is no trial: send
 * null for none).
 */
export const MAX_TRIAL_COUNT: Record<TrialInterval, number> = { day: 730, week: 104, month: 24, year: 2 };

export interface Trial {
  interval: TrialInterval;
  count: number;
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * The end of a trial starting at `start`. Days and weeks are exact multiples of 24 hours (UTC). Months
 * and years keep the day of month of the start, or the last day of a shorter month (Jan 31 + 1 month →
 * Feb 28, or Feb 29 in a leap year; Feb 29 + 1 year → Feb 28), time of day kept, as billing periods.
 */
export function trialEnd(start: Date, trial: Trial): Date {
  switch (trial.interval) {
    case 'day':
      return new Date(start.getTime() + trial.count * DAY_MS);
    case 'week':
      return new Date(start.getTime() + trial.count * 7 * DAY_MS);
    case 'month':
      return addMonths(start, trial.count);
    case 'year':
      return addMonths(start, trial.count * 12);
  }
}

/**
 * What is wrong with a trial setting (null: nothing). Both fields are set together, or both null;
 * the count is a whole number from 1 to the unit's maximum; only recurring products have trials.
 */
export function trialIssue(
  interval: TrialInterval | null | undefined,
  count: number | null | undefined,
  recurring: boolean,
): { field: 'trial_interval' | 'trial_interval_count'; message: string } | null {
  const hasInterval = interval !== null && interval !== undefined;
  const hasCount = count !== null && count !== undefined;
  if (!hasInterval && !hasCount) return null;
  if (!recurring) return { field: 'trial_interval', message: 'Only a recurring product can have a trial.' };
  if (!hasInterval) return { field: 'trial_interval', message: 'Set trial_interval with trial_interval_count.' };
  if (!hasCount) return { field: 'trial_interval_count', message: 'Set trial_interval_count with trial_interval.' };
  if (!Number.isInteger(count) || count < 1)
    return { field: 'trial_interval_count', message: 'A trial lasts at least 1 day, week, month or year.' };
  if (count > MAX_TRIAL_COUNT[interval])
    return {
      field: 'trial_interval_count',
      message: `A trial lasts at most 2 years (${MAX_TRIAL_COUNT[interval]} ${interval}s).`,
    };
  return null;
}

/** Why a checkout that would offer a trial gives none. */
export type TrialUnavailableReason = 'already_redeemed';

/**
 * The trial a checkout gives: its own setting when it has one, else the product's; none for a
 * one-time product, and none when the buyer already had a trial of the product and the product gives
 * one per customer (`redeemed`).
 */
export function checkoutTrial(input: {
  recurring: boolean;
  product: { interval: TrialInterval | null; count: number | null };
  checkout: { interval: TrialInterval | null; count: number | null };
  redeemed: boolean;
}): { trial: Trial | null; unavailable: TrialUnavailableReason | null } {
  if (!input.recurring) return { trial: null, unavailable: null };
  const own = input.checkout.interval && input.checkout.count ? input.checkout : null;
  const source = own ?? (input.product.interval && input.product.count ? input.product : null);
  if (!source) return { trial: null, unavailable: null };
  if (input.redeemed) return { trial: null, unavailable: 'already_redeemed' };
  return { trial: { interval: source.interval!, count: source.count! }, unavailable: null };
}

/** How long before the trial ends its reminder goes out. */
export const TRIAL_REMINDER_DAYS = 3;

/**
 * When the trial-ending reminder is due: 3 days before the end; a trial of 3 days or less is reminded
 * 1 day before its end (a reminder the moment it starts would say nothing new). Trials of 1 day or less
 * get none (null).
 */
export function trialReminderAt(trialStart: Date, trialEndAt: Date): Date | null {
  const length = trialEndAt.getTime() - trialStart.getTime();
  if (length <= DAY_MS) return null;
  const before = length > TRIAL_REMINDER_DAYS * DAY_MS ? TRIAL_REMINDER_DAYS * DAY_MS : DAY_MS;
  return new Date(trialEndAt.getTime() - before);
}

/** A trialing subscription's trial end (its current period's end, which the trial is). */
export function trialEndOf(row: { trial_end: Date | null; current_period_end: Date | null }): Date {
  return (row.trial_end ?? row.current_period_end)!;
}

/**
 * A product change during a trial (ending at `trialEnd`): the trial continues on the new plan until its
 * end, when the new plan's first period is charged. Nothing is prorated or billed now, the period (the
 * trial) stays, and a discount kept still starts paying with the first paid period, at the trial end
 * (a change to another interval would otherwise start it now, and a `once` discount would pay nothing).
 */
export function duringTrial<
  P extends {
    entries: readonly unknown[];
    bill: unknown;
    changes: {
      current_period_start?: Date;
      current_period_end?: Date;
      anchor_day?: number;
      discount_applied_at?: Date | null;
    };
  },
>(plan: P, trialEnd: Date): P {
  const { current_period_start: _start, current_period_end: _end, anchor_day: _anchor, ...changes } = plan.changes;
  if (changes.discount_applied_at) changes.discount_applied_at = trialEnd;
  return { ...plan, entries: [], bill: null, changes } as P;
}
