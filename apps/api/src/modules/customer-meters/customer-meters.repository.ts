import { sql, type Selectable } from 'kysely';
import type { CustomersTable } from '../../db/tables/customers.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import type { EventRow } from '../benefit-grants/benefit-grants.repository.js';
import type { MeterRow } from '../benefits/benefits.repository.js';

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
 * The customer's events that may belong to the meter's current window: user events (the meter's
 * filter is applied by the caller) and the meter's own `meter.credited`/`meter.reset` system events,
 * ingested at or after the meter's latest reset. User events reach the customer through its id or,
 * when it has one, the seller's external id (events may arrive before the customer exists).
 */
export async function findMeterWindowEvents(
  db: Executor,
  customer: MeterCustomer,
  meterId: string,
): Promise<EventRow[]> {
  const latestReset = db
    .selectFrom('events')
    .select((eb) => eb.fn.max('ingested_at').as('at'))
    .where('customer_id', '=', customer.id)
    .where('name', '=', 'meter.reset')
    .where('source', '=', 'system')
    .where(sql<boolean>`metadata->>'meter_id' = ${meterId}`);
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
    .where(sql<boolean>`ingested_at >= coalesce((${latestReset}), '-infinity'::timestamptz)`)
    .where((eb) =>
      eb.or([
        eb('source', '=', 'user'),
        eb.and([eb('name', 'in', ['meter.credited', 'meter.reset']), sql<boolean>`metadata->>'meter_id' = ${meterId}`]),
      ]),
    )
    .orderBy('ingested_at')
    .orderBy('timestamp')
    .orderBy('id')
    .execute();
}

/**
 * Every event of the customer a meter may count or credit: its user events (through its id or its
 * external id) and its meters' `meter.credited`/`meter.reset` system events, in ingestion order. One
 * read serves all the organization's meters (each takes its own window of it).
 */
export async function findCustomerMeterEvents(db: Executor, customer: MeterCustomer): Promise<EventRow[]> {
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
    .where((eb) => eb.or([eb('source', '=', 'user'), eb('name', 'in', ['meter.credited', 'meter.reset'])]))
    .orderBy('ingested_at')
    .orderBy('timestamp')
    .orderBy('id')
    .execute();
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
