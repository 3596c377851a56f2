import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { iso } from '../../platform/http/schemas.js';
import { insertSystemEvent } from '../benefit-grants/benefit-grants.repository.js';
import {
  customerMeterId,
  customerMeterWindow,
  type MeterWindowUsage,
} from '../customer-meters/customer-meters.service.js';
import { METER_CREDITED, METER_RESET } from '../customer-meters/customer-meters.window.js';
import { serializeMeter } from '../meters/meters.serializer.js';
import type { SubscriptionWire } from '../subscriptions/subscriptions.serializer.js';
import {
  carriedCredits,
  meteredLineAmount,
  meteredLineLabel,
  type CarriedCredits,
  type CycleLine,
} from './billing.money.js';
import { lockUsageWindows, usageInstant } from './billing.usage.repository.js';
import { findMeteredPricesOfSubscriptions, type SubscriptionMeteredPrice } from './billing.usage.repository.js';

/**
 * Usage-based billing: the metered prices of a subscription billed from its customer's meters.
 *
 * A meter's window for a customer is everything ingested since the meter's latest `meter.reset` for
 * them (`customer-meters`). Billing closes windows: under the organization's usage lock it reads each
 * metered price's window, prices it (`meteredLineAmount`), and writes the `meter.reset` that closes it,
 * in the transaction of the order the lines go on. So a retried renewal finds its period claimed and
 * bills nothing twice, and an event is in exactly one window: the one open when it was ingested,
 * whatever its timestamp says (an event of a closed period that arrives late is billed on the next
 * order). See docs/usage.md, "Billing".
 */

type SubscriptionRef = { id: string; organization_id: string; customer_id: string };

export interface MeteredLine extends CycleLine {
  meter_id: string;
  consumed_units: number;
  credited_units: number;
}

/** A metered price's line over a window: the reference's formula and label. */
export function meteredLineOf(price: SubscriptionMeteredPrice, usage: MeterWindowUsage): MeteredLine {
  const line = meteredLineAmount({
    units: usage.consumed_units,
    credited: usage.credited_units,
    unitAmount: price.unit_amount,
    capAmount: price.cap_amount,
  });
  return {
    label: meteredLineLabel(price.meter.name, line, { unitAmount: price.unit_amount, capAmount: price.cap_amount }),
    amount: line.amount,
    product_price_id: price.product_price_id,
    meter_id: price.meter.id,
    consumed_units: usage.consumed_units,
    credited_units: usage.credited_units,
  };
}

/**
 * A window gets a line when anything happened in it: an event the meter counts or a credit (as the
 * reference, whose billing entries come from those events): a line of 0 says the usage was covered.
 */
function billsSomething(usage: MeterWindowUsage): boolean {
  return usage.events > 0 || usage.credits > 0;
}

/**
 * Closes the windows of the subscription's metered prices, in the caller's transaction: reads each
 * one's usage, writes its `meter.reset`, carries what `carry` says of the credits into the new window
 * (a `meter.credited` at the reset's instant), and answers the lines to bill — one per price whose
 * window saw an event or a credit. Nothing is written for a subscription without metered prices.
 */
export async function closeMeteredUsage(
  ctx: Context,
  subscription: SubscriptionRef,
  carry: CarriedCredits,
): Promise<MeteredLine[]> {
  const prices = (await findMeteredPricesOfSubscriptions(ctx.db, [subscription.id])).get(subscription.id) ?? [];
  if (prices.length === 0) return [];
  // Ingests of the organization wait while the windows close (and those in flight are waited for).
  await lockUsageWindows(ctx.db, subscription.organization_id);
  const usages: MeterWindowUsage[] = [];
  for (const price of prices) usages.push(await customerMeterWindow(ctx, subscription.customer_id, price.meter.id));
  // The instant the windows close at, from the database's clock (as ingests stamp theirs) and after
  // every event and credit read: ingests in flight committed before the exclusive lock was granted, and
  // later ones are stamped after this reset (usageInstant), whatever the nodes' clocks say.
  const latest = Math.max(...usages.map((u) => u.last_ingested_at?.getTime() ?? -Infinity));
  const at = await usageInstant(ctx.db, subscription.organization_id, {
    testClocks: ctx.config.devMode,
    after: Number.isFinite(latest) ? new Date(latest) : null,
  });
  const lines: MeteredLine[] = [];
  for (const [index, price] of prices.entries()) {
    const usage = usages[index]!;
    if (billsSomething(usage)) lines.push(meteredLineOf(price, usage));
    const event = (name: string, metadata: Record<string, unknown>) =>
      insertSystemEvent(ctx.db, {
        id: randomUUID(),
        at,
        organization_id: subscription.organization_id,
        customer_id: subscription.customer_id,
        name,
        metadata,
      });
    await event(METER_RESET, { meter_id: price.meter.id });
    const { rollover, other } = carriedCredits(
      { rolloverUnits: usage.rollover_units, unusedUnits: usage.unused_units },
      carry,
    );
    if (rollover > 0) await event(METER_CREDITED, { meter_id: price.meter.id, units: rollover, rollover: true });
    if (other > 0) await event(METER_CREDITED, { meter_id: price.meter.id, units: other, rollover: false });
  }
  return lines;
}

type SubscriptionMeterWire = SubscriptionWire['meters'][number];

/**
 * The `meters` of subscriptions: for each metered price, the usage of its meter's current window and
 * what it would cost if the period closed now (the line the next order will carry).
 */
export async function subscriptionMeters(
  ctx: Pick<Context, 'db'>,
  subscriptions: readonly (SubscriptionRef & { created_at: Date; modified_at: Date | null })[],
): Promise<Map<string, SubscriptionMeterWire[]>> {
  const prices = await findMeteredPricesOfSubscriptions(
    ctx.db,
    subscriptions.map((s) => s.id),
  );
  const bySubscription = new Map<string, SubscriptionMeterWire[]>();
  for (const subscription of subscriptions) {
    const meters: SubscriptionMeterWire[] = [];
    for (const price of prices.get(subscription.id) ?? []) {
      const usage = await customerMeterWindow(ctx, subscription.customer_id, price.meter.id);
      const line = meteredLineOf(price, usage);
      meters.push({
        id: customerMeterId(subscription.id, price.meter.id),
        created_at: iso(subscription.created_at)!,
        modified_at: iso(usage.last_ingested_at ?? subscription.modified_at),
        consumed_units: line.consumed_units,
        credited_units: line.credited_units,
        amount: line.amount,
        meter_id: price.meter.id,
        meter: serializeMeter(price.meter),
      });
    }
    bySubscription.set(subscription.id, meters);
  }
  return bySubscription;
}
