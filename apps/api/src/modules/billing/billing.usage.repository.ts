import type { Executor } from '../../platform/db/database.js';
import { memoizedPerId } from '../../platform/db/read-memo.js';
import { lockRollupsExclusive, lockRollupsShared } from '../meters/meter-rollups.repository.js';
import type { MeterRow } from '../benefits/benefits.repository.js';

export { usageInstant } from '../meters/meter-rollups.repository.js';

/** A metered price on a subscription's snapshot, with its meter. */
export interface SubscriptionMeteredPrice {
  subscription_id: string;
  product_price_id: string;
  unit_amount: string;
  cap_amount: number | null;
  meter: MeterRow;
}

/**
 * The metered prices (`metered_unit`) of the subscriptions' price snapshots, in snapshot order, each
 * with its meter (archived or not: usage already counted on it is still billed).
 */
export const findMeteredPricesOfSubscriptions = memoizedPerId(
  'findMeteredPricesOfSubscriptions',
  async (db: Executor, subscriptionIds: readonly string[]): Promise<Map<string, SubscriptionMeteredPrice[]>> => {
    const bySubscription = new Map<string, SubscriptionMeteredPrice[]>(subscriptionIds.map((id) => [id, []]));
    if (subscriptionIds.length === 0) return bySubscription;
    const rows = await db
      .selectFrom('subscription_prices')
      .innerJoin('product_prices', 'product_prices.id', 'subscription_prices.product_price_id')
      .select([
        'subscription_prices.subscription_id',
        'subscription_prices.product_price_id',
        'product_prices.unit_amount',
        'product_prices.cap_amount',
        'product_prices.meter_id',
      ])
      .where('subscription_prices.subscription_id', 'in', [...subscriptionIds])
      .where('product_prices.amount_type', '=', 'metered_unit')
      .where('product_prices.meter_id', 'is not', null)
      .orderBy('subscription_prices.subscription_id')
      .orderBy('subscription_prices.position')
      .execute();
    if (rows.length === 0) return bySubscription;
    const meters = await db
      .selectFrom('meters')
      .selectAll()
      .where('id', 'in', [...new Set(rows.map((row) => row.meter_id!))])
      .execute();
    const meterById = new Map(meters.map((meter) => [meter.id, meter]));
    for (const row of rows) {
      const meter = meterById.get(row.meter_id!);
      if (!meter || row.unit_amount === null) continue;
      bySubscription.get(row.subscription_id)?.push({
        subscription_id: row.subscription_id,
        product_price_id: row.product_price_id,
        unit_amount: row.unit_amount,
        cap_amount: row.cap_amount,
        meter,
      });
    }
    return bySubscription;
  },
);

/**
 * The organization's usage lock, exclusively, until the transaction ends: ingests take it shared and
 * stamp their events after they hold it, so while billing holds it no ingest is in flight and every
 * event it did not see is stamped after its reset.
 */
export async function lockUsageWindows(db: Executor, organizationId: string): Promise<void> {
  await lockRollupsExclusive(db, organizationId);
}

/** The organization's usage lock, shared (as an ingest), for a credit or reset written outside billing. */
export async function shareUsageWindows(db: Executor, organizationId: string): Promise<void> {
  await lockRollupsShared(db, [organizationId]);
}
