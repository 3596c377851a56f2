import { sql, type Selectable } from 'kysely';
import type { CustomersTable } from '../../db/tables/customers.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import type { EventRow } from '../benefit-grants/benefit-grants.repository.js';
import type { MeterRow } from '../benefits/benefits.repository.js';
import { meterRollsUp, rawWindowPartSql, rollupAggregateSql } from '../meters/meter-rollups.repository.js';
import { aggregateSql, meterEventsSql } from '../meters/meters.repository.js';
import type { MeterDefinition } from './customer-meters.window.js';

/** What a customer's meter reads of the customer: its organization and the seller's id for it. */
export type MeterCustomer = Pick<Selectable<CustomersTable>, 'id' | 'organization_id' | 'external_id'>;

/** The organization's meters in use (not archived), oldest first. */
export async function findActiveMeters(db: Executor, organizationId: string): Promise<MeterRow[]> {
  return db
    .selectFrom('meters')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('archived_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** A meter of the organization, archived or not (credits already granted on it still count). */
export async function findMeter(db: Executor, organizationId: string, meterId: string): Promise<MeterRow | undefined> {
  return db
    .selectFrom('meters')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', meterId)
    .executeTakeFirst();
}

export async function findMeterCustomer(db: Executor, customerId: string): Promise<MeterCustomer | undefined> {
  return db
    .selectFrom('customers')
    .select(['id', 'organization_id', 'external_id'])
    .where('id', '=', customerId)
    .executeTakeFirst();
}

/**
 * The `meter.credited` and `meter.reset` system events (of every meter) of the organization's
 * `customers`, through their ids or external ids, in ingestion order: a few per customer and period.
 */
export async function findMeterSystemEventsOf(
  db: Executor,
  organizationId: string,
  customers: MeterCustomer[],
): Promise<EventRow[]> {
  if (customers.length === 0) return [];
  const ids = customers.map((c) => c.id);
  const externals = customers.flatMap((c) => (c.external_id !== null ? [c.external_id] : []));
  return db
    .selectFrom('events')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where((eb) =>
      eb.or([
        eb('customer_id', 'in', ids),
        ...(externals.length > 0 ? [eb('external_customer_id', 'in', externals)] : []),
      ]),
    )
    .where('source', '=', 'system')
    .where('name', 'in', ['meter.credited', 'meter.reset'])
    .orderBy('ingested_at')
    .orderBy('timestamp')
    .orderBy('id')
    .execute();
}

/** What a meter counts of one customer's user events ingested since its window opened. */
export interface MeterWindowSummary {
  /** The aggregation, exact (numeric as text); null when no event carries a value. */
  quantity: string | null;
  events: number;
  first: Date | null;
  last: Date | null;
}

/**
 * The meter's aggregation over each customer's user events it counts (through the customer's id or its
 * external id) ingested at or after that customer's `since` (all when null): one grouped query for all
 * the customers, computed where the events are. Customers without any such event are absent.
 */
export async function summarizeMeterWindows(
  db: Executor,
  organizationId: string,
  meter: MeterDefinition,
  windows: { customer: MeterCustomer; since: Date | null }[],
): Promise<Map<string, MeterWindowSummary>> {
  if (windows.length === 0) return new Map();
  if (await meterRollsUp(db, meter.id)) return summarizeMeterWindowsFromRollups(db, organizationId, meter, windows);
  const result = await sql<{
    customer_id: string;
    quantity: string | null;
    events: string;
    first: Date | null;
    last: Date | null;
  }>`
    SELECT window_of.id AS customer_id, ${aggregateSql(meter.aggregation)} AS quantity, count(*) AS events,
      min(events.ingested_at) AS first, max(events.ingested_at) AS last
    FROM unnest(
      ${windows.map((w) => w.customer.id)}::uuid[],
      ${windows.map((w) => w.customer.external_id)}::text[],
      ${windows.map((w) => w.since?.toISOString() ?? null)}::timestamptz[]
    ) AS window_of (id, external_id, since)
    JOIN events ON events.organization_id = ${organizationId}
      AND (events.customer_id = window_of.id OR events.external_customer_id = window_of.external_id)
      AND (window_of.since IS NULL OR events.ingested_at >= window_of.since)
      AND ${meterEventsSql(meter)}
    GROUP BY window_of.id`.execute(db);
  return new Map(
    result.rows.map((row) => [
      row.customer_id,
      { quantity: row.quantity, events: Number(row.events), first: row.first, last: row.last },
    ]),
  );
}

/**
 * `summarizeMeterWindows` for a meter with built rollups: the rollup rows of the whole hours of
 * ingestion after each window's start, plus the events of the partial hour the window starts in (a
 * reset's instant is not on the hour), combined exactly (avg as sum / count).
 */
async function summarizeMeterWindowsFromRollups(
  db: Executor,
  organizationId: string,
  meter: MeterDefinition,
  windows: { customer: MeterCustomer; since: Date | null }[],
): Promise<Map<string, MeterWindowSummary>> {
  const result = await sql<{
    customer_id: string;
    quantity: string | null;
    events: string;
    first: Date | null;
    last: Date | null;
  }>`
    WITH window_of AS MATERIALIZED (
      SELECT * FROM unnest(
        ${windows.map((w) => w.customer.id)}::uuid[],
        ${windows.map((w) => w.customer.external_id)}::text[],
        ${windows.map((w) => w.since?.toISOString() ?? null)}::timestamptz[]
      ) AS window_of (id, external_id, since)
    ),
    parts AS (
      SELECT window_of.id, r.events, r.sum, r.min, r.max, r.first_ingested_at AS first, r.last_ingested_at AS last
      FROM window_of JOIN meter_rollups AS r ON r.meter_id = ${meter.id}
        AND (r.customer_id = window_of.id OR r.external_customer_id = window_of.external_id)
        AND (window_of.since IS NULL OR r.ingested_bucket > date_trunc('hour', window_of.since, 'UTC'))
      UNION ALL
      SELECT window_of.id, ${rawWindowPartSql(meter.aggregation, 'events')}
      FROM window_of JOIN events ON events.organization_id = ${organizationId}
        AND (events.customer_id = window_of.id OR events.external_customer_id = window_of.external_id)
        AND window_of.since IS NOT NULL
        AND events.ingested_at >= window_of.since
        AND events.ingested_at < date_trunc('hour', window_of.since, 'UTC') + interval '1 hour'
        AND ${meterEventsSql(meter)}
    )
    SELECT parts.id AS customer_id, ${rollupAggregateSql(meter.aggregation, 'parts')} AS quantity,
      sum(parts.events) AS events, min(parts.first) AS first, max(parts.last) AS last
    FROM parts
    GROUP BY parts.id`.execute(db);
  return new Map(
    result.rows.map((row) => [
      row.customer_id,
      { quantity: row.quantity, events: Number(row.events), first: row.first, last: row.last },
    ]),
  );
}

export type CustomerMeterCustomer = Selectable<CustomersTable>;

export interface CustomerMeterScope {
  organization_id?: string[];
  customer_id?: string[];
  external_customer_id?: string[];
}

/**
 * Live customers the subject may see (narrowed by `scope`) that any event reaches: the only customers
 * that can have a customer meter.
 */
export async function findCustomersWithEvents(
  db: Executor,
  subject: Subject,
  scope: CustomerMeterScope,
): Promise<CustomerMeterCustomer[]> {
  let query = db
    .selectFrom('customers')
    .selectAll('customers')
    .where('customers.deleted_at', 'is', null)
    .where(organizationVisibleTo(subject, 'customers.organization_id'))
    // Two EXISTS, not one over `customer_id = … OR external_customer_id = …`: each stops at the first
    // index entry, where the OR is a bitmap of every event of the customer (10,000s at volume).
    .where(({ exists, or, selectFrom }) =>
      or([
        exists(
          selectFrom('events')
            .select(sql`1`.as('one'))
            .whereRef('events.customer_id', '=', 'customers.id')
            .whereRef('events.organization_id', '=', 'customers.organization_id'),
        ),
        exists(
          selectFrom('events')
            .select(sql`1`.as('one'))
            .whereRef('events.organization_id', '=', 'customers.organization_id')
            .whereRef('events.external_customer_id', '=', 'customers.external_id'),
        ),
      ]),
    );
  if (scope.organization_id?.length) query = query.where('customers.organization_id', 'in', scope.organization_id);
  if (scope.customer_id?.length) query = query.where('customers.id', 'in', scope.customer_id);
  if (scope.external_customer_id?.length) {
    query = query.where('customers.external_id', 'in', scope.external_customer_id);
  }
  return query.orderBy('customers.id').execute();
}

/**
 * The (customer, meter) pair behind a customer meter id, among the live customers the subject may see
 * and their organizations' active meters: the id is derived (`customerMeterId`: the first 16 bytes of
 * SHA-256 of `customer:meter`, with UUID version and variant bits), so it is recomputed here, in the
 * database, instead of computing every customer's meters to find one.
 */
export async function findCustomerMeterPair(
  db: Executor,
  subject: Subject,
  customerMeterId: string,
): Promise<{ customer_id: string; meter_id: string } | undefined> {
  const digest = sql`substring(sha256(convert_to(customers.id::text || ':' || meters.id::text, 'UTF8')) FROM 1 FOR 16)`;
  return db
    .selectFrom('customers')
    .innerJoin('meters', 'meters.organization_id', 'customers.organization_id')
    .select(['customers.id as customer_id', 'meters.id as meter_id'])
    .where('meters.archived_at', 'is', null)
    .where('customers.deleted_at', 'is', null)
    .where(organizationVisibleTo(subject, 'customers.organization_id'))
    .where(
      sql<string>`encode(set_byte(set_byte(${digest}, 6, (get_byte(${digest}, 6) & 15) | 128), 8,
        (get_byte(${digest}, 8) & 63) | 128), 'hex')`,
      '=',
      customerMeterId.replace(/-/g, '').toLowerCase(),
    )
    .limit(1)
    .executeTakeFirst();
}

/** The active meters of several organizations, by organization. */
export async function findActiveMetersOf(db: Executor, organizationIds: string[]): Promise<Map<string, MeterRow[]>> {
  const byOrganization = new Map<string, MeterRow[]>(organizationIds.map((id) => [id, []]));
  if (organizationIds.length === 0) return byOrganization;
  const rows = await db
    .selectFrom('meters')
    .selectAll()
    .where('organization_id', 'in', organizationIds)
    .where('archived_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const row of rows) byOrganization.get(row.organization_id)?.push(row);
  return byOrganization;
}

/** Customer events by timestamp, for a period's usage. */
export async function findCustomerEventsBetween(
  db: Executor,
  customer: MeterCustomer,
  start: Date,
  end: Date,
): Promise<EventRow[]> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('organization_id', '=', customer.organization_id)
    .where((eb) =>
      eb.or([
        eb('customer_id', '=', customer.id),
        ...(customer.external_id !== null ? [eb('external_customer_id', '=', customer.external_id)] : []),
      ]),
    )
    .where('timestamp', '>=', start)
    .where('timestamp', '<', end)
    .orderBy('ingested_at')
    .orderBy('id')
    .execute();
}
