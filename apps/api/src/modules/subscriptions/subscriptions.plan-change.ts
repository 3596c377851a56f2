import {
  discountCovers,
  netOfDiscount,
  prorate,
  subscriptionAmount,
  type CycleLine,
} from '../billing/billing.money.js';
import type { DiscountRow } from '../discounts/discounts.repository.js';
import { anchorDayOf, nextPeriodEnd, type RecurringInterval } from './subscriptions.periods.js';

/**
 * A product change as money (research §3.8), pure: what the update writes and bills, and what its
 * preview answers, both come from `planProductChange` (no second formula).
 */
export interface PriceSnapshot {
  product_price_id: string;
  amount: number;
}

export interface PlanChangeInput {
  now: Date;
  subscription: {
    recurring_interval: RecurringInterval;
    current_period_start: Date;
    current_period_end: Date | null;
    anchor_day: number;
  };
  oldProductName: string;
  oldSnapshot: readonly PriceSnapshot[];
  newProduct: { id: string; name: string; recurring_interval: RecurringInterval };
  newSnapshot: readonly PriceSnapshot[];
  /** The subscription's discount now, and the one it keeps (when it applies to the new product). */
  discount: DiscountRow | null;
  keepDiscount: DiscountRow | null;
  /** When the subscription's discount started (or starts) paying. */
  appliedAt: Date;
  proration: 'invoice' | 'prorate';
}

/** The subscription's columns the change sets. */
export interface PlanChanges {
  product_id: string;
  recurring_interval: RecurringInterval;
  discount_id: string | null;
  discount_applied_at: Date | null;
  amount: number;
  modified_at: Date;
  current_period_start?: Date;
  current_period_end?: Date;
  anchor_day?: number;
}

/** An order billed at once: the period's lines at `discount`, with every pending entry. */
export interface PlanBill {
  cycle: CycleLine[];
  discount: DiscountRow | null;
  periodStart: Date;
}

export interface PlanChange {
  /** Proration entries (credits < 0, debits > 0, the discount already in them). */
  entries: CycleLine[];
  changes: PlanChanges;
  /** null: the entries wait for the next renewal. */
  bill: PlanBill | null;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export function shortDate(date: Date): string {
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

/** The label of a period's line on an order: "Pro — From Jan 1, 2026 to Feb 1, 2026". */
export function periodLabel(productName: string, start: Date, end: Date): string {
  return `${productName} — From ${shortDate(start)} to ${shortDate(end)}`;
}

/** The period's lines of a renewal: each static price with an amount. */
export function cycleLines(snapshot: readonly PriceSnapshot[], label: string): CycleLine[] {
  return snapshot
    .filter((price) => price.amount > 0)
    .map((price) => ({ label, amount: price.amount, product_price_id: price.product_price_id }));
}

/**
 * Same interval: a credit per old price for the unused time and a debit per new price for the time
 * left, at the discount when it paid for the current period; they join the next renewal (`prorate`) or
 * are billed at once (`invoice`). Another interval: the unused time is credited and a new period starts
 * now, billed at once in full.
 */
export function planProductChange(input: PlanChangeInput): PlanChange {
  const { now, subscription: sub, discount, keepDiscount, appliedAt, newProduct } = input;
  const periodStart = sub.current_period_start;
  const periodEnd = sub.current_period_end ?? nextPeriodEnd(periodStart, sub.recurring_interval, sub.anchor_day);
  const range = (start: Date, end: Date) => `From ${shortDate(start)} to ${shortDate(end)}`;
  // The discount is in a proration only when it paid for the current period.
  const paidOld = discount && discountCovers(discount, appliedAt, periodStart) ? discount : null;
  const paidNew = keepDiscount && discountCovers(keepDiscount, appliedAt, periodStart) ? keepDiscount : null;

  const entries: CycleLine[] = [];
  for (const price of input.oldSnapshot) {
    const credit = prorate(netOfDiscount(paidOld, price.amount), periodStart, periodEnd, now);
    if (credit > 0)
      entries.push({
        label: `Remaining time on ${input.oldProductName} — ${range(now, periodEnd)}`,
        amount: -credit,
        product_price_id: null,
      });
  }
  const changes: PlanChanges = {
    product_id: newProduct.id,
    recurring_interval: newProduct.recurring_interval,
    discount_id: keepDiscount?.id ?? null,
    discount_applied_at: keepDiscount ? appliedAt : null,
    amount: subscriptionAmount(input.newSnapshot, keepDiscount),
    modified_at: now,
  };
  if (newProduct.recurring_interval === sub.recurring_interval) {
    for (const price of input.newSnapshot) {
      const debit = prorate(netOfDiscount(paidNew, price.amount), periodStart, periodEnd, now);
      if (debit > 0)
        entries.push({
          label: `${newProduct.name} — ${range(now, periodEnd)}`,
          amount: debit,
          product_price_id: price.product_price_id,
        });
    }
    const bill = input.proration === 'invoice' ? { cycle: [], discount: null, periodStart: now } : null;
    return { entries, changes, bill };
  }
  // A new interval starts a new period now, billed in full at once (with the unused time credited). A
  // discount set for the next period starts with it.
  const end = nextPeriodEnd(now, newProduct.recurring_interval);
  const startsAt = keepDiscount && appliedAt > now ? now : appliedAt;
  const paysNew = keepDiscount && discountCovers(keepDiscount, startsAt, now) ? keepDiscount : null;
  Object.assign(changes, {
    current_period_start: now,
    current_period_end: end,
    anchor_day: anchorDayOf(now),
    discount_applied_at: keepDiscount ? startsAt : null,
  });
  return {
    entries,
    changes,
    bill: {
      cycle: input.newSnapshot
        .filter((price) => price.amount > 0)
        .map((price) => ({
          label: `${newProduct.name} — ${range(now, end)}`,
          amount: price.amount,
          product_price_id: price.product_price_id,
        })),
      discount: paysNew,
      periodStart: now,
    },
  };
}

/**
 * The renewal that follows a subscription's current period, as `cycleSubscription` bills it: the
 * period's lines at the discount that pays for it (none once its duration is over).
 */
export function plannedRenewal(input: {
  productName: string;
  snapshot: readonly PriceSnapshot[];
  recurring_interval: RecurringInterval;
  anchor_day: number;
  periodEnd: Date;
  discount: DiscountRow | null;
  appliedAt: Date;
}): { start: Date; end: Date; cycle: CycleLine[]; pays: DiscountRow | null } {
  const start = input.periodEnd;
  const end = nextPeriodEnd(start, input.recurring_interval, input.anchor_day);
  const pays = input.discount && discountCovers(input.discount, input.appliedAt, start) ? input.discount : null;
  return { start, end, cycle: cycleLines(input.snapshot, periodLabel(input.productName, start, end)), pays };
}
