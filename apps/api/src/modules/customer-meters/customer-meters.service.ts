import { createHash } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { iso } from '../../platform/http/schemas.js';
import type { EventRow } from '../benefit-grants/benefit-grants.repository.js';
import type { MeterRow } from '../benefits/benefits.repository.js';
import type { CustomerStateWire } from '../customers/customers.serializer.js';
import {
  findActiveMeters,
  findMeter,
  findMeterCustomer,
  findMeterWindowEvents,
  type MeterCustomer,
} from './customer-meters.repository.js';
import {
  countsFor,
  creditsOf,
  isMeterSystemEvent,
  meterBalance,
  rolloverUnits,
  windowOf,
  type MeterAggregation,
  type MeterDefinition,
  type MeterFilter,
} from './customer-meters.window.js';

/**
 * Customer meters: a customer's consumption, credits and balance on each of the organization's
 * meters, over the current window (since the meter's latest reset). Nothing is stored: every read
 * computes them from the events, so they are always current.
 */

export type CustomerMeterWire = CustomerStateWire['active_meters'][number];

/** The meters module validates filters and aggregations on write; rows carry their stored form. */
function definitionOf(meter: MeterRow): MeterDefinition {
  return { id: meter.id, filter: meter.filter as MeterFilter, aggregation: meter.aggregation as MeterAggregation };
}

/**
 * A customer meter has no row of its own, so its id is derived from what identifies it: the first 16
 * bytes of SHA-256 over (customer, meter), written as a version 8 (custom) UUID. It stays the same
 * across reads and resets.
 */
export function customerMeterId(customerId: string, meterId: string): string {
  const bytes = createHash('sha256').update(`${customerId}:${meterId}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The meter's current window for the customer: the user events it counts and its own credits and resets. */
async function currentWindow(
  ctx: Pick<Context, 'db'>,
  customer: MeterCustomer,
  meter: MeterDefinition,
): Promise<EventRow[]> {
  const events = await findMeterWindowEvents(ctx.db, customer, meter.id);
  const belonging = events.filter((event) => countsFor(meter, event) || isMeterSystemEvent(event, meter.id));
  return windowOf(belonging, meter.id);
}

/**
 * The customer's meters for the customer state: one per active meter with at least one event in its
 * current window. Created and modified are the ingestion times of the window's first and last events.
 */
export async function customerMeters(ctx: Pick<Context, 'db'>, customer: MeterCustomer): Promise<CustomerMeterWire[]> {
  const entries: CustomerMeterWire[] = [];
  for (const row of await findActiveMeters(ctx.db, customer.organization_id)) {
    const meter = definitionOf(row);
    const window = await currentWindow(ctx, customer, meter);
    if (window.length === 0) continue;
    entries.push({
      id: customerMeterId(customer.id, meter.id),
      created_at: iso(window[0]!.ingested_at),
      modified_at: iso(window[window.length - 1]!.ingested_at),
      meter_id: meter.id,
      ...meterBalance(meter, window),
    });
  }
  return entries;
}

/**
 * The unused rollover credits of the meter's current window, to carry into the next period when the
 * window closes (computed before the `meter.reset` that closes it).
 */
export async function rolloverUnitsOfWindow(ctx: Context, customerId: string, meterId: string): Promise<number> {
  const customer = await findMeterCustomer(ctx.db, customerId);
  const row = customer && (await findMeter(ctx.db, customer.organization_id, meterId));
  if (!customer || !row) return 0;
  const meter = definitionOf(row);
  const window = await currentWindow(ctx, customer, meter);
  return rolloverUnits(creditsOf(window, meter.id), meterBalance(meter, window).consumed_units);
}
