import { createHash } from 'node:crypto';
import type { Subject } from '../../platform/auth/subject.js';
import type { Context } from '../../platform/context.js';
import { ResourceNotFound } from '../../platform/http/errors.js';
import { mapPage, pageOf, type PageParams, type Sort } from '../../platform/http/query.js';
import { iso } from '../../platform/http/schemas.js';
import { findSessionCustomer } from '../customer-portal/customer-portal.repository.js';
import type {
  CustomerCustomerMeterListParams,
  CustomerMeterListParams,
  CustomerMeterSortKey,
} from './customer-meters.schemas.js';
import { serializeCustomerCustomerMeter, serializeCustomerMeter } from './customer-meters.serializer.js';
import type { EventRow } from '../benefit-grants/benefit-grants.repository.js';
import type { MeterRow } from '../benefits/benefits.repository.js';
import type { CustomerStateWire } from '../customers/customers.serializer.js';
import {
  findActiveMeters,
  findActiveMetersOf,
  findCustomerEventsBetween,
  findCustomerMeterPair,
  findCustomersWithEvents,
  findMeter,
  findMeterCustomer,
  findMeterSystemEventsOf,
  summarizeMeterWindows,
  type CustomerMeterCustomer,
  type CustomerMeterScope,
  type MeterCustomer,
} from './customer-meters.repository.js';
import {
  creditedUnits,
  creditsOf,
  isMeterSystemEvent,
  METER_CREDITED,
  METER_RESET,
  meterUsage,
  rolloverUnits,
  windowOf,
  type MeterUsage,
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

/** A meter's current window for a customer: what its user events add up to, and its own credits. */
interface MeterWindow {
  meter: MeterRow;
  consumed_units: number;
  /** The user events the meter counts in the window. */
  events: number;
  /** The meter's `meter.credited` events of the window, in ingestion order. */
  credits: EventRow[];
  first: Date;
  last: Date;
}

/**
 * The current window of each meter for each of the organization's `customers` (since the meter's
 * latest `meter.reset` for that customer), or none when nothing happened in it. Consumption is
 * aggregated in the database (the same rules as the pure functions), one grouped query per meter;
 * credits and resets, a few per period, are read once and ordered by the pure rules.
 */
async function meterWindows(
  db: Context['db'],
  organizationId: string,
  customers: MeterCustomer[],
  meters: MeterRow[],
): Promise<Map<string, MeterWindow[]>> {
  const windows = new Map<string, MeterWindow[]>(customers.map((c) => [c.id, []]));
  if (meters.length === 0 || customers.length === 0) return windows;
  const system = await findMeterSystemEventsOf(db, organizationId, customers);
  const systemOf = new Map(
    customers.map((c) => [
      c.id,
      system.filter(
        (e) => e.customer_id === c.id || (c.external_id !== null && e.external_customer_id === c.external_id),
      ),
    ]),
  );
  for (const row of meters) {
    const meter = definitionOf(row);
    const own = new Map(
      customers.map((c) => [
        c.id,
        windowOf(
          systemOf.get(c.id)!.filter((event) => isMeterSystemEvent(event, meter.id)),
          meter.id,
        ),
      ]),
    );
    const summaries = await summarizeMeterWindows(
      db,
      organizationId,
      meter,
      customers.map((customer) => ({
        customer,
        since: own.get(customer.id)!.find((event) => event.name === METER_RESET)?.ingested_at ?? null,
      })),
    );
    for (const customer of customers) {
      const events = own.get(customer.id)!;
      const summary = summaries.get(customer.id);
      const times = [...events.map((e) => e.ingested_at), summary?.first, summary?.last].filter((t): t is Date => !!t);
      if (times.length === 0) continue;
      windows.get(customer.id)!.push({
        meter: row,
        consumed_units: Number(summary?.quantity ?? 0),
        events: summary?.events ?? 0,
        credits: events.filter((event) => event.name === METER_CREDITED),
        first: new Date(Math.min(...times.map((t) => t.getTime()))),
        last: new Date(Math.max(...times.map((t) => t.getTime()))),
      });
    }
  }
  return windows;
}

/**
 * The one computation of customers' meters (the customer state, the seller's and the portal's customer
 * meters all read it): for each of the organization's `customers`, one per given meter with at least
 * one event in its current window. Created and modified are the ingestion times of the window's first
 * and last events.
 */
async function computeCustomerMeters(
  db: Context['db'],
  organizationId: string,
  customers: MeterCustomer[],
  meters: MeterRow[],
): Promise<Map<string, (CustomerMeterWire & { meter: MeterRow })[]>> {
  const windows = await meterWindows(db, organizationId, customers, meters);
  return new Map(
    customers.map((customer) => [
      customer.id,
      windows.get(customer.id)!.map((window) => {
        const credited = creditedUnits(window.credits);
        return {
          id: customerMeterId(customer.id, window.meter.id),
          created_at: iso(window.first),
          modified_at: iso(window.last),
          meter_id: window.meter.id,
          consumed_units: window.consumed_units,
          credited_units: credited,
          balance: credited - window.consumed_units,
          meter: window.meter,
        };
      }),
    ]),
  );
}

/** The customer's meters for the customer state: one per active meter with events in its window. */
export async function customerMeters(ctx: Pick<Context, 'db'>, customer: MeterCustomer): Promise<CustomerMeterWire[]> {
  const meters = await findActiveMeters(ctx.db, customer.organization_id);
  const computed = await computeCustomerMeters(ctx.db, customer.organization_id, [customer], meters);
  return computed.get(customer.id)!.map(({ meter: _meter, ...entry }) => entry);
}

/** A customer meter with the customer and meter rows it belongs to. */
export interface CustomerMeterEntry extends CustomerMeterWire {
  customer: CustomerMeterCustomer;
  meter: MeterRow;
}

/**
 * The customer meters within `scope` that the subject may see (narrowed to `meterIds` when given),
 * computed from the events. Optionally only the one with id `onlyId`: ids are derived, so the pairs are
 * matched by id before anything is computed.
 */
export async function findCustomerMeterEntries(
  ctx: Pick<Context, 'db' | 'subject'>,
  scope: CustomerMeterScope & { meter_id?: string[] },
  onlyId?: string,
): Promise<CustomerMeterEntry[]> {
  if (onlyId !== undefined) {
    // Ids are derived: the database finds the one pair, and only its customer is read and computed.
    const pair = await findCustomerMeterPair(ctx.db, ctx.subject, onlyId);
    if (!pair) return [];
    if (scope.customer_id?.length && !scope.customer_id.includes(pair.customer_id)) return [];
    if (scope.meter_id?.length && !scope.meter_id.includes(pair.meter_id)) return [];
    scope = { ...scope, customer_id: [pair.customer_id], meter_id: [pair.meter_id] };
  }
  const customers = await findCustomersWithEvents(ctx.db, ctx.subject, scope);
  const organizationIds = [...new Set(customers.map((c) => c.organization_id))];
  const meters = await findActiveMetersOf(ctx.db, organizationIds);
  const entries: CustomerMeterEntry[] = [];
  for (const organizationId of organizationIds) {
    let ofOrganization = customers.filter((c) => c.organization_id === organizationId);
    let candidates = meters.get(organizationId) ?? [];
    if (scope.meter_id?.length) candidates = candidates.filter((m) => scope.meter_id!.includes(m.id));
    if (onlyId !== undefined) {
      // Ids are derived: find the one pair first, then compute only it.
      const pair = ofOrganization
        .flatMap((c) => candidates.map((m) => ({ c, m })))
        .find(({ c, m }) => customerMeterId(c.id, m.id) === onlyId);
      if (!pair) continue;
      ofOrganization = [pair.c];
      candidates = [pair.m];
    }
    if (candidates.length === 0 || ofOrganization.length === 0) continue;
    const computed = await computeCustomerMeters(ctx.db, organizationId, ofOrganization, candidates);
    for (const customer of ofOrganization) {
      for (const entry of computed.get(customer.id)!) entries.push({ ...entry, customer });
    }
  }
  return entries;
}

/**
 * What billing reads of a customer's meter over a period `[start, end)`: units consumed (the meter's
 * aggregation over the user events whose timestamp is in the period) and units credited (the meter's
 * credits of the period). Zero for an unknown customer or meter.
 */
export async function customerMeterUsage(
  ctx: Pick<Context, 'db'>,
  customerId: string,
  meterId: string,
  period: { start: Date; end: Date },
): Promise<MeterUsage> {
  const customer = await findMeterCustomer(ctx.db, customerId);
  const row = customer && (await findMeter(ctx.db, customer.organization_id, meterId));
  if (!customer || !row) return { consumed_units: 0, credited_units: 0 };
  const events = await findCustomerEventsBetween(ctx.db, customer, period.start, period.end);
  return meterUsage(definitionOf(row), events, period);
}

/** A customer's meter over its current window, as billing closes it at a renewal. */
export interface MeterWindowUsage extends MeterUsage {
  /** The user events the meter counts in the window. */
  events: number;
  /** The meter's `meter.credited` events in the window. */
  credits: number;
  /** Unused rollover credits to carry into the next window (`rolloverUnits`). */
  rollover_units: number;
  /** Unused credits of any kind (rollover or not), for a window closed mid-period. */
  unused_units: number;
  /** The latest ingestion in the window (its events and the meter's credits and reset); null when empty. */
  last_ingested_at: Date | null;
}

/**
 * The customer's meter over its current window: everything ingested since the meter's latest
 * `meter.reset` for the customer (by `ingested_at`, so an event whose timestamp falls in a closed period
 * but that arrived after the reset counts here, never in the closed window). Billing reads it, then
 * writes the reset that closes it, in one transaction. Zeros for an unknown customer or meter.
 */
export async function customerMeterWindow(
  ctx: Pick<Context, 'db'>,
  customerId: string,
  meterId: string,
): Promise<MeterWindowUsage> {
  const none = {
    consumed_units: 0,
    credited_units: 0,
    events: 0,
    credits: 0,
    rollover_units: 0,
    unused_units: 0,
    last_ingested_at: null,
  };
  const customer = await findMeterCustomer(ctx.db, customerId);
  const row = customer && (await findMeter(ctx.db, customer.organization_id, meterId));
  if (!customer || !row) return none;
  const [window] = (await meterWindows(ctx.db, customer.organization_id, [customer], [row])).get(customer.id)!;
  if (!window) return none;
  const credited = creditedUnits(window.credits);
  return {
    consumed_units: window.consumed_units,
    credited_units: credited,
    events: window.events,
    credits: window.credits.length,
    rollover_units: rolloverUnits(creditsOf(window.credits, row.id), window.consumed_units),
    unused_units: Math.max(0, Math.floor(credited - window.consumed_units)),
    last_ingested_at: window.last,
  };
}

/**
 * The unused rollover credits of the meter's current window, to carry into the next period when the
 * window closes (computed before the `meter.reset` that closes it).
 */
export async function rolloverUnitsOfWindow(ctx: Context, customerId: string, meterId: string): Promise<number> {
  const customer = await findMeterCustomer(ctx.db, customerId);
  const row = customer && (await findMeter(ctx.db, customer.organization_id, meterId));
  if (!customer || !row) return 0;
  const [window] = (await meterWindows(ctx.db, customer.organization_id, [customer], [row])).get(customer.id)!;
  if (!window) return 0;
  return rolloverUnits(creditsOf(window.credits, row.id), window.consumed_units);
}

// ---------------------------------------------------------------------------------------------------
// Customer meters as resources (seller and customer portal)
// ---------------------------------------------------------------------------------------------------

type SortableKey = CustomerMeterSortKey;

function sortValue(entry: CustomerMeterEntry, key: SortableKey): string | number {
  switch (key) {
    case 'customer_id':
      return entry.customer.id;
    case 'customer_name':
      return entry.customer.name ?? '';
    case 'meter_id':
      return entry.meter_id;
    case 'meter_name':
      return entry.meter.name;
    case 'created_at':
      return entry.created_at;
    case 'modified_at':
      return entry.modified_at ?? '';
    default:
      return entry[key];
  }
}

/** Sorted by the requested keys in order, then by id (stable pages); one page of them. */
function sortedPage(entries: CustomerMeterEntry[], sorting: Sort<SortableKey>[], params: PageParams) {
  const sorted = [...entries].sort((a, b) => {
    for (const { key, descending } of sorting) {
      const [x, y] = [sortValue(a, key), sortValue(b, key)];
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      if (order !== 0) return descending ? -order : order;
    }
    return a.id.localeCompare(b.id);
  });
  const offset = (params.page - 1) * params.limit;
  return pageOf(sorted.slice(offset, offset + params.limit), sorted.length, params);
}

export async function listCustomerMeters(ctx: Context, params: CustomerMeterListParams) {
  const entries = await findCustomerMeterEntries(ctx, params);
  return mapPage(sortedPage(entries, params.sorting, params), serializeCustomerMeter);
}

export async function getCustomerMeter(ctx: Context, id: string) {
  const [entry] = await findCustomerMeterEntries(ctx, {}, id);
  if (!entry) throw new ResourceNotFound();
  return serializeCustomerMeter(entry);
}

/** The portal's view: the session's customer's meters only. */
async function sessionCustomerEntries(ctx: Context, meterIds?: string[], onlyId?: string) {
  const customer = await findSessionCustomer(ctx.db, ctx.subject);
  if (!customer) return [];
  const organization: Subject = {
    kind: 'organization',
    organizationId: customer.organization_id,
    tokenId: 'customer-portal',
    scopes: new Set(),
  };
  return findCustomerMeterEntries(
    { db: ctx.db, subject: organization },
    { customer_id: [customer.id], meter_id: meterIds },
    onlyId,
  );
}

export async function listPortalCustomerMeters(ctx: Context, params: CustomerCustomerMeterListParams) {
  let entries = await sessionCustomerEntries(ctx, params.meter_id);
  if (params.query) {
    const query = params.query.toLowerCase();
    entries = entries.filter((entry) => entry.meter.name.toLowerCase().includes(query));
  }
  return mapPage(sortedPage(entries, params.sorting, params), serializeCustomerCustomerMeter);
}

export async function getPortalCustomerMeter(ctx: Context, id: string) {
  const [entry] = await sessionCustomerEntries(ctx, undefined, id);
  if (!entry) throw new ResourceNotFound();
  return serializeCustomerCustomerMeter(entry);
}
