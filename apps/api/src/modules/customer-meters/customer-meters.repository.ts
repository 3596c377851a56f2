import { sql, type Selectable } from 'kysely';
import type { CustomersTable } from '../../db/tables/customers.js';
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
