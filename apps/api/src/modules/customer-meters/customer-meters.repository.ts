import { sql, type Selectable } from 'kysely';
import type { CustomersTable } from '../../db/tables/customers.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import type { EventRow } from '../benefit-grants/benefit-grants.repository.js';
import type { MeterRow } from '../benefits/benefits.repository.js';
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
 * The customer's `meter.credited` and `meter.reset` system events (of every meter), in ingestion order:
 * few per period, read once for all the organization's meters.
 */
export async function findCustomerMeterSystemEvents(db: Executor, customer: MeterCustomer): Promise<EventRow[]> {
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
    .where('source', '=', 'system')
    .where('name', 'in', ['meter.credited', 'meter.reset'])
    .orderBy('ingested_at')
    .orderBy('timestamp')
    .orderBy('id')
    .execute();
}

/** What the meter counts of the customer's user events ingested since `since` (all when null). */
export interface MeterWindowSummary {
  /** The aggregation, exact (numeric as text); null when no event carries a value. */
  quantity: string | null;
  events: number;
  first: Date | null;
  last: Date | null;
}

/**
 * The meter's aggregation over the customer's user events it counts (through the customer's id or its
 * external id) ingested at or after `since`, computed where the events are.
 */
export async function summarizeMeterWindow(
  db: Executor,
  customer: MeterCustomer,
  meter: MeterDefinition,
  since: Date | null,
): Promise<MeterWindowSummary> {
  const external = customer.external_id;
  const result = await sql<{ quantity: string | null; events: string; first: Date | null; last: Date | null }>`
    SELECT ${aggregateSql(meter.aggregation)} AS quantity, count(*) AS events,
      min(events.ingested_at) AS first, max(events.ingested_at) AS last
    FROM events
    WHERE events.organization_id = ${customer.organization_id}
      AND (events.customer_id = ${customer.id}
        ${external !== null ? sql`OR events.external_customer_id = ${external}` : sql``})
      AND ${meterEventsSql(meter)}
      ${since ? sql`AND events.ingested_at >= ${since}` : sql``}`.execute(db);
  const row = result.rows[0]!;
  return { quantity: row.quantity, events: Number(row.events), first: row.first, last: row.last };
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
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('events')
          .select(sql`1`.as('one'))
          .whereRef('events.organization_id', '=', 'customers.organization_id')
          .where((eb) =>
            eb.or([
              eb('events.customer_id', '=', eb.ref('customers.id')),
              eb('events.external_customer_id', '=', eb.ref('customers.external_id')),
            ]),
          ),
      ),
    );
  if (scope.organization_id?.length) query = query.where('customers.organization_id', 'in', scope.organization_id);
  if (scope.customer_id?.length) query = query.where('customers.id', 'in', scope.customer_id);
  if (scope.external_customer_id?.length) {
    query = query.where('customers.external_id', 'in', scope.external_customer_id);
  }
  return query.orderBy('customers.id').execute();
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
