import { randomUUID } from 'node:crypto';
import type { Executor } from '../../platform/db/database.js';

interface AmountState {
  id: string;
  organization_id: string;
  amount: number;
  recurring_interval: 'month' | 'year';
}

/** A subscription's contribution to MRR: its amount per month (a yearly one in twelfths, rounded). */
export function monthlyAmount(amount: number, interval: 'month' | 'year'): number {
  return interval === 'year' ? Math.round(amount / 12) : amount;
}

/**
 * Records a change of a subscription's amount or interval (nothing when neither changed), in the
 * transaction of the change: the MRR expansion and contraction metrics read these.
 */
export async function recordAmountChange(db: Executor, before: AmountState, after: AmountState, at: Date) {
  if (before.amount === after.amount && before.recurring_interval === after.recurring_interval) return;
  await db
    .insertInto('subscription_amount_changes')
    .values({
      id: randomUUID(),
      subscription_id: before.id,
      organization_id: before.organization_id,
      changed_at: at,
      previous_amount: before.amount,
      previous_interval: before.recurring_interval,
      amount: after.amount,
      recurring_interval: after.recurring_interval,
    })
    .execute();
}
