/**
 * The dunning rules of the subscription engine, as pure functions (table-tested next to this file). The
 * money rules (proration, discounts over cycles, order pricing) live in `billing/billing.money.ts`.
 */

const DAY_MS = 24 * 3600 * 1000;

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
