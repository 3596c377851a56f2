import { sql, type Selectable } from 'kysely';
import type { EventsTable } from '../../db/tables/benefit-grants.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { paginate } from '../../platform/db/paginate.js';
import { memoizedPerId } from '../../platform/db/read-memo.js';
import type { BenefitGrantRow, BenefitRow } from '../benefits/benefits.repository.js';
import type { BenefitGrantsListParams } from './benefit-grants.schemas.js';

export type EventRow = Selectable<EventsTable>;

/** A grant's scope: the subscription, or the one-time order, that caused it. */
export interface GrantScope {
  subscription_id: string | null;
  order_id: string | null;
}

export interface GrantKey extends GrantScope {
  customer_id: string;
  benefit_id: string;
}

/**
 * The grant of (customer, benefit, scope), created pending if missing, locked for the rest of the
 * transaction. Concurrent calls meet on the unique indexes (0003 for subscriptions, 0012 for orders):
 * the loser's insert does nothing and it reads the winner's row.
 */
export async function ensureGrantLocked(
  db: Executor,
  key: GrantKey,
  row: { id: string; created_at: Date },
): Promise<BenefitGrantRow> {
  const conflict = key.subscription_id
    ? sql`(subscription_id, customer_id, benefit_id)`
    : sql`(order_id, customer_id, benefit_id) WHERE subscription_id IS NULL`;
  await sql`
    INSERT INTO benefit_grants (id, created_at, customer_id, benefit_id, subscription_id, order_id, properties)
    VALUES (${row.id}, ${row.created_at}, ${key.customer_id}, ${key.benefit_id}, ${key.subscription_id},
            ${key.subscription_id ? null : key.order_id}, '{}')
    ON CONFLICT ${conflict} DO NOTHING`.execute(db);
  const found = await findGrantByKey(db, key, true);
  if (!found) throw new Error('benefit grant vanished after upsert');
  return found;
}

export async function findGrantByKey(db: Executor, key: GrantKey, lock = false): Promise<BenefitGrantRow | undefined> {
  let query = db
    .selectFrom('benefit_grants')
    .selectAll()
    .where('customer_id', '=', key.customer_id)
    .where('benefit_id', '=', key.benefit_id);
  query = key.subscription_id
    ? query.where('subscription_id', '=', key.subscription_id)
    : query.where('subscription_id', 'is', null).where('order_id', '=', key.order_id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function lockGrant(db: Executor, id: string): Promise<BenefitGrantRow | undefined> {
  return db.selectFrom('benefit_grants').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export interface GrantChanges {
  modified_at: Date;
  granted_at?: Date | null;
  revoked_at?: Date | null;
  properties?: unknown;
  error?: unknown;
}

export async function updateGrant(db: Executor, id: string, changes: GrantChanges): Promise<BenefitGrantRow> {
  const { properties, error, ...plain } = changes;
  return db
    .updateTable('benefit_grants')
    .set({
      ...plain,
      ...(properties !== undefined ? { properties: JSON.stringify(properties) } : {}),
      ...(error !== undefined ? { error: error === null ? null : JSON.stringify(error) } : {}),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Any benefit row by id, deleted ones included (a revoke still runs for a deleted benefit). */
export async function findBenefitById(db: Executor, id: string): Promise<BenefitRow | undefined> {
  return db.selectFrom('benefits').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Non-deleted grants of a subscription or an order (every state). */
export async function findGrantsOfScope(db: Executor, scope: GrantScope): Promise<BenefitGrantRow[]> {
  if (scope.subscription_id) {
    return (await findGrantsOfSubscriptions(db, [scope.subscription_id])).get(scope.subscription_id) ?? [];
  }
  return db
    .selectFrom('benefit_grants')
    .selectAll()
    .where('deleted_at', 'is', null)
    .where('subscription_id', 'is', null)
    .where('order_id', '=', scope.order_id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Non-deleted grants of each subscription, in creation order. Memoized id by id in a billing group:
 * grants change only in the grant engine's own jobs, never in the transaction that enqueues them.
 */
export const findGrantsOfSubscriptions = memoizedPerId(
  'findGrantsOfSubscriptions',
  async (db, subscriptionIds): Promise<Map<string, BenefitGrantRow[]>> => {
    const bySubscription = new Map<string, BenefitGrantRow[]>(subscriptionIds.map((id) => [id, []]));
    if (subscriptionIds.length === 0) return bySubscription;
    const rows = await db
      .selectFrom('benefit_grants')
      .selectAll()
      .where('deleted_at', 'is', null)
      .where('subscription_id', 'in', [...subscriptionIds])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const row of rows) bySubscription.get(row.subscription_id!)?.push(row);
    return bySubscription;
  },
);

/** Granted, non-deleted grants of a customer (the customer is deleted: they all go). */
export async function findGrantedGrantsOfCustomer(db: Executor, customerId: string): Promise<BenefitGrantRow[]> {
  return db
    .selectFrom('benefit_grants')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('granted_at', 'is not', null)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .execute();
}

/** Granted, non-deleted grants of a benefit (their grants follow a change of its properties). */
export async function findGrantedGrantsOfBenefit(db: Executor, benefitId: string): Promise<BenefitGrantRow[]> {
  return db
    .selectFrom('benefit_grants')
    .selectAll()
    .where('benefit_id', '=', benefitId)
    .where('granted_at', 'is not', null)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .execute();
}

/** How many granted grants of `benefitId` the customer holds (through any purchase). */
export async function countGrantedGrants(db: Executor, customerId: string, benefitId: string): Promise<number> {
  const row = await db
    .selectFrom('benefit_grants')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('customer_id', '=', customerId)
    .where('benefit_id', '=', benefitId)
    .where('granted_at', 'is not', null)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The customer's granted grants with their benefit's type, oldest first (customer state). */
export async function findGrantedBenefitsOfCustomer(db: Executor, customerId: string) {
  return db
    .selectFrom('benefit_grants')
    .innerJoin('benefits', 'benefits.id', 'benefit_grants.benefit_id')
    .selectAll('benefit_grants')
    .select(['benefits.type as benefit_type', 'benefits.properties as benefit_properties'])
    .where('benefit_grants.customer_id', '=', customerId)
    .where('benefit_grants.granted_at', 'is not', null)
    .where('benefit_grants.deleted_at', 'is', null)
    .orderBy('benefit_grants.granted_at')
    .orderBy('benefit_grants.id')
    .execute();
}

/** The customer's active subscriptions, oldest first (customer state). */
export async function findActiveSubscriptionsOfCustomer(db: Executor, customerId: string) {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('status', '=', 'active')
    .orderBy('started_at')
    .orderBy('id')
    .execute();
}

export async function findCustomerById(db: Executor, id: string) {
  return db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Records a system event (`source = 'system'`). */
export async function insertSystemEvent(
  db: Executor,
  row: { id: string; at: Date; organization_id: string; customer_id: string; name: string; metadata: unknown },
): Promise<void> {
  await db
    .insertInto('events')
    .values({
      id: row.id,
      timestamp: row.at,
      ingested_at: row.at,
      organization_id: row.organization_id,
      customer_id: row.customer_id,
      external_customer_id: null,
      name: row.name,
      source: 'system',
      metadata: JSON.stringify(row.metadata),
    })
    .execute();
}

/** Whether a `meter.reset` of (customer, meter) was ingested after `since`. */
export async function hasMeterResetSince(
  db: Executor,
  customerId: string,
  meterId: string,
  since: Date,
): Promise<boolean> {
  const row = await db
    .selectFrom('events')
    .select('id')
    .where('customer_id', '=', customerId)
    .where('name', '=', 'meter.reset')
    .where('ingested_at', '>', since)
    .where(sql<boolean>`metadata->>'meter_id' = ${meterId}`)
    .executeTakeFirst();
  return row !== undefined;
}

export async function listSystemEvents(db: Executor, customerId: string): Promise<EventRow[]> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('customer_id', '=', customerId)
    .orderBy('ingested_at')
    .orderBy('id')
    .execute();
}

/**
 * Records that the grant cycled for the period starting at `periodStart`; false when it already had
 * (the cycle then does nothing).
 */
export async function claimGrantCycle(db: Executor, grantId: string, periodStart: Date, at: Date): Promise<boolean> {
  const row = await db
    .insertInto('benefit_grant_cycles')
    .values({ grant_id: grantId, period_start: periodStart, created_at: at })
    .onConflict((oc) => oc.columns(['grant_id', 'period_start']).doNothing())
    .returning('grant_id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * `GET /v1/benefit-grants/`: the grants of the organizations the subject may see (by their benefit's
 * organization), soft-deleted grants excluded; sorted as asked, then by id.
 */
export async function listVisibleGrants(db: Executor, subject: Subject, params: BenefitGrantsListParams) {
  let query = db
    .selectFrom('benefit_grants')
    .innerJoin('benefits', 'benefits.id', 'benefit_grants.benefit_id')
    .selectAll('benefit_grants')
    .where(organizationVisibleTo(subject, 'benefits.organization_id'))
    .where('benefit_grants.deleted_at', 'is', null);
  if (params.organization_id?.length) query = query.where('benefits.organization_id', 'in', params.organization_id);
  if (params.is_granted === true) query = query.where('benefit_grants.granted_at', 'is not', null);
  if (params.is_granted === false) query = query.where('benefit_grants.granted_at', 'is', null);
  if (params.customer_id?.length) query = query.where('benefit_grants.customer_id', 'in', params.customer_id);
  const externalIds = params.external_customer_id;
  if (externalIds?.length) {
    query = query.where('benefit_grants.customer_id', 'in', (eb) =>
      eb.selectFrom('customers').select('customers.id').where('customers.external_id', 'in', externalIds),
    );
  }
  for (const sort of params.sorting) {
    query = query.orderBy(`benefit_grants.${sort.key}`, sort.descending ? 'desc' : 'asc');
  }
  return paginate(db, query.orderBy('benefit_grants.id'), params);
}

/** Benefits by id, deleted ones included (a grant shows its benefit as it is). */
export async function findGrantBenefits(db: Executor, ids: readonly string[]): Promise<Map<string, BenefitRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('benefits')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}
