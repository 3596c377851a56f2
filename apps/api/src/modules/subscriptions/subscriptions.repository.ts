import {
  sql,
  type ExpressionBuilder,
  type Insertable,
  type OrderByItemBuilder,
  type Selectable,
  type SqlBool,
  type Updateable,
} from 'kysely';
import type { ExportCursor } from '../../platform/http/csv.js';
import type { SubscriptionPricesTable, SubscriptionsTable } from '../../db/tables/checkouts.js';
import type { SubscriptionBillingEntriesTable, SubscriptionChargesTable } from '../../db/tables/subscriptions.js';
import type { DB } from '../../db/schema.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { metadataMatches } from '../../platform/db/metadata-filter.js';
import { defersWrites, keepInsert, keepUpdate } from '../../platform/db/deferred-writes.js';
import { memoizedPerId, takeHandedOut } from '../../platform/db/read-memo.js';
import { paginate } from '../../platform/db/paginate.js';
import type { SubscriptionExportParams, SubscriptionListParams } from './subscriptions.schemas.js';
import { orderedUuid } from './subscriptions.history.ids.js';
import { insertSubscriptionChange } from './subscriptions.history.repository.js';

export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type SubscriptionPriceRow = Selectable<SubscriptionPricesTable>;

/** Statuses that are billed: a customer holding one "has an active subscription". */
export const BILLABLE_STATUSES = ['trialing', 'active', 'past_due'] as const;

export async function insertSubscription(
  db: Executor,
  row: Insertable<SubscriptionsTable>,
  prices: readonly { product_price_id: string; amount: number }[],
): Promise<SubscriptionRow> {
  const inserted = await db.insertInto('subscriptions').values(row).returningAll().executeTakeFirstOrThrow();
  // The first entries of its history (subscriptions.history.ts): the buyer's checkout created it.
  for (const kind of inserted.trial_end ? (['created', 'trial_started'] as const) : (['created'] as const)) {
    await insertSubscriptionChange(db, {
      id: orderedUuid(),
      created_at: inserted.created_at,
      organization_id: inserted.organization_id,
      subscription_id: inserted.id,
      customer_id: inserted.customer_id,
      kind,
      details: JSON.stringify(
        kind === 'created'
          ? {
              actor: 'customer',
              product_id: inserted.product_id,
              amount: inserted.amount,
              currency: inserted.currency,
              recurring_interval: inserted.recurring_interval,
              discount_id: inserted.discount_id,
              checkout_id: inserted.checkout_id,
            }
          : { actor: 'customer', trial_end: inserted.trial_end!.toISOString() },
      ),
    });
  }
  if (prices.length > 0) {
    await db
      .insertInto('subscription_prices')
      .values(prices.map((price, position) => ({ subscription_id: row.id, position, ...price })))
      .execute();
  }
  return inserted;
}

export async function findSubscriptionsByIds(db: Executor, ids: readonly string[]): Promise<SubscriptionRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

/** A subscription of the organization by id (checkout upgrades name one). */
export async function findOrganizationSubscription(db: Executor, organizationId: string, id: string) {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The subscriptions' price snapshots, in position order (memoized id by id in a billing group). */
export const findSubscriptionPrices = memoizedPerId(
  'findSubscriptionPrices',
  async (db, subscriptionIds): Promise<Map<string, SubscriptionPriceRow[]>> => {
    const bySubscription = new Map<string, SubscriptionPriceRow[]>(subscriptionIds.map((id) => [id, []]));
    if (subscriptionIds.length === 0) return bySubscription;
    const rows = await db
      .selectFrom('subscription_prices')
      .selectAll()
      .where('subscription_id', 'in', [...subscriptionIds])
      .orderBy('subscription_id')
      .orderBy('position')
      .execute();
    for (const row of rows) bySubscription.get(row.subscription_id)?.push(row);
    return bySubscription;
  },
);

/**
 * Whether the customer (by id, or any live customer of the organization with this email,
 * case-insensitively) holds a billable subscription in the organization.
 */
export async function hasBillableSubscription(
  db: Executor,
  organizationId: string,
  customerId: string | null,
  email: string | null,
): Promise<boolean> {
  if (!customerId && !email) return false;
  const row = await db
    .selectFrom('subscriptions')
    .select('subscriptions.id')
    .where('subscriptions.organization_id', '=', organizationId)
    .where('subscriptions.status', 'in', [...BILLABLE_STATUSES])
    .where((eb) => {
      const matches = [];
      if (customerId) matches.push(eb('subscriptions.customer_id', '=', customerId));
      if (email) {
        matches.push(
          eb(
            'subscriptions.customer_id',
            'in',
            eb
              .selectFrom('customers')
              .select('customers.id')
              .where('customers.organization_id', '=', organizationId)
              .where('customers.deleted_at', 'is', null)
              .where(sql`lower(customers.email)`, '=', email.toLowerCase()),
          ),
        );
      }
      return eb.or(matches);
    })
    .executeTakeFirst();
  return row !== undefined;
}

export type SubscriptionChanges = Updateable<SubscriptionsTable>;
/** What claiming a period changes: plain column values (dates, numbers, strings, nulls). */
export type PeriodClaim = Pick<
  SubscriptionChanges,
  'current_period_start' | 'current_period_end' | 'discount_id' | 'discount_applied_at' | 'amount' | 'modified_at'
> & { status?: 'active' };
export type SubscriptionChargeRow = Selectable<SubscriptionChargesTable>;
export type BillingEntryRow = Selectable<SubscriptionBillingEntriesTable>;

/** Subscriptions the subject may see; as the reference, rows never started are hidden. */
function visible(db: Executor, subject: Subject) {
  return db
    .selectFrom('subscriptions')
    .selectAll('subscriptions')
    .where('subscriptions.started_at', 'is not', null)
    .where(organizationVisibleTo(subject, 'subscriptions.organization_id'));
}

export async function findVisibleSubscription(db: Executor, subject: Subject, id: string) {
  return visible(db, subject).where('subscriptions.id', '=', id).executeTakeFirst();
}

export async function lockVisibleSubscription(db: Executor, subject: Subject, id: string) {
  return visible(db, subject).where('subscriptions.id', '=', id).forUpdate().executeTakeFirst();
}

/** A customer's subscriptions that could still be charged. */
export async function findBillableSubscriptionIdsOfCustomer(db: Executor, customerId: string) {
  return db
    .selectFrom('subscriptions')
    .select('id')
    .where('customer_id', '=', customerId)
    .where('status', 'in', [...BILLABLE_STATUSES])
    .orderBy('created_at')
    .execute();
}

export async function lockSubscriptionById(db: Executor, id: string): Promise<SubscriptionRow | undefined> {
  return takeHandedOut<SubscriptionRow>(db, 'subscription', id) ?? (await lockSubscriptionsByIds(db, [id]))[0];
}

/** The subscriptions of `ids`, locked in id order (a billing group's members, handed out one by one). */
export async function lockSubscriptionsByIds(db: Executor, ids: readonly string[]): Promise<SubscriptionRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .orderBy('id')
    .forUpdate()
    .execute();
}

const ACTIVE = ['active', 'trialing'] as const;
const REVOKED = ['past_due', 'canceled', 'unpaid'] as const;

export async function listVisibleSubscriptions(db: Executor, subject: Subject, params: SubscriptionListParams) {
  let query = visible(db, subject)
    .innerJoin('customers', 'customers.id', 'subscriptions.customer_id')
    .innerJoin('products', 'products.id', 'subscriptions.product_id')
    .leftJoin('discounts', 'discounts.id', 'subscriptions.discount_id');
  if (params.organization_id?.length)
    query = query.where('subscriptions.organization_id', 'in', params.organization_id);
  if (params.product_id?.length) query = query.where('subscriptions.product_id', 'in', params.product_id);
  if (params.customer_id?.length) query = query.where('subscriptions.customer_id', 'in', params.customer_id);
  if (params.discount_id?.length) query = query.where('subscriptions.discount_id', 'in', params.discount_id);
  if (params.active !== undefined)
    query = query.where('subscriptions.status', 'in', [...(params.active ? ACTIVE : REVOKED)]);
  if (params.metadata) query = query.where(metadataMatches('subscriptions.metadata', params.metadata));
  for (const sort of params.sorting) {
    const direction = sort.descending ? 'desc' : 'asc';
    const nullsLast = (ob: OrderByItemBuilder) => (sort.descending ? ob.desc().nullsLast() : ob.asc().nullsLast());
    switch (sort.key) {
      case 'customer':
        query = query.orderBy(sql`lower(customers.email)`, direction);
        break;
      case 'status':
        query = query.orderBy(
          sql`case subscriptions.status when 'incomplete' then 1 when 'incomplete_expired' then 2
            when 'trialing' then 3 when 'active' then (case when subscriptions.cancel_at_period_end then 5 else 4 end)
            when 'past_due' then 6 when 'canceled' then 7 when 'unpaid' then 8 else 9 end`,
          direction,
        );
        break;
      case 'started_at':
        query = query.orderBy('subscriptions.started_at', direction);
        break;
      case 'current_period_end':
        query = query.orderBy(sql`subscriptions.current_period_end`, nullsLast);
        break;
      case 'amount':
        // Yearly amounts count per month, as the reference sorts them.
        query = query.orderBy(
          sql`case when subscriptions.recurring_interval = 'year' then subscriptions.amount / 12.0 else subscriptions.amount end`,
          nullsLast,
        );
        break;
      case 'product':
        query = query.orderBy('products.name', direction);
        break;
      case 'discount':
        query = query.orderBy(sql`discounts.name`, nullsLast);
        break;
    }
  }
  return paginate(db, query.orderBy('subscriptions.id'), params);
}

/** Rows of the export (every visible subscription), with what the CSV shows of customer and product. */
/**
 * A batch of the CSV export: the visible subscriptions, newest first, after `after` (keyset on the
 * creation instant to the microsecond and the id), `limit` of them.
 */
export async function exportVisibleSubscriptionsAfter(
  db: Executor,
  subject: Subject,
  params: SubscriptionExportParams,
  after: ExportCursor | undefined,
  limit: number,
) {
  let query = visible(db, subject)
    .innerJoin('customers', 'customers.id', 'subscriptions.customer_id')
    .innerJoin('products', 'products.id', 'subscriptions.product_id')
    .select([
      'customers.email as customer_email',
      'products.name as product_name',
      sql<string>`subscriptions.created_at::text`.as('cursor_at'),
    ]);
  if (params.organization_id?.length)
    query = query.where('subscriptions.organization_id', 'in', params.organization_id);
  if (after) {
    query = query.where(
      sql<SqlBool>`(subscriptions.created_at, subscriptions.id) < (${after.cursor_at}::timestamptz, ${after.id}::uuid)`,
    );
  }
  return query.orderBy('subscriptions.created_at', 'desc').orderBy('subscriptions.id', 'desc').limit(limit).execute();
}

export async function exportVisibleSubscriptions(db: Executor, subject: Subject, params: SubscriptionExportParams) {
  let query = visible(db, subject)
    .innerJoin('customers', 'customers.id', 'subscriptions.customer_id')
    .innerJoin('products', 'products.id', 'subscriptions.product_id')
    .select(['customers.email as customer_email', 'products.name as product_name']);
  if (params.organization_id?.length)
    query = query.where('subscriptions.organization_id', 'in', params.organization_id);
  return query.orderBy('subscriptions.created_at').orderBy('subscriptions.id').execute();
}

export async function updateSubscriptionRow(db: Executor, id: string, changes: SubscriptionChanges) {
  return db.updateTable('subscriptions').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/**
 * Advances the period only if it is still the one the caller read: the claim that makes a renewal
 * happen once per period whoever runs it.
 */
export async function claimPeriod(
  db: Executor,
  id: string,
  expectedEnd: Date,
  changes: PeriodClaim,
  locked?: SubscriptionRow,
): Promise<SubscriptionRow | undefined> {
  // The caller holds the row's lock and saw it end at `expectedEnd`: the claim cannot miss, and a
  // transaction that defers writes sends it with its group's (the statement fails unless each one hits).
  if (
    locked &&
    locked.id === id &&
    locked.current_period_end?.getTime() === expectedEnd.getTime() &&
    defersWrites(db)
  ) {
    await keepUpdate(db, 'subscriptions', { id, ...changes });
    return { ...locked, ...changes };
  }
  return db
    .updateTable('subscriptions')
    .set(changes)
    .where('id', '=', id)
    .where('current_period_end', '=', expectedEnd)
    .returningAll()
    .executeTakeFirst();
}

export async function replaceSubscriptionPrices(
  db: Executor,
  subscriptionId: string,
  prices: readonly { product_price_id: string; amount: number }[],
): Promise<void> {
  await db.deleteFrom('subscription_prices').where('subscription_id', '=', subscriptionId).execute();
  if (prices.length === 0) return;
  await db
    .insertInto('subscription_prices')
    .values(prices.map((price, position) => ({ subscription_id: subscriptionId, position, ...price })))
    .execute();
}

/**
 * Which organizations a billing run covers: one (its test clock), or every organization except those
 * whose test clock runs ahead (they are run on their own clocks), or all.
 */
export interface BillingScope {
  organizationId?: string;
  skipTestClocks?: boolean;
}

/** Organizations whose test clock runs ahead of the server's. */
function aheadOfServerClock(eb: ExpressionBuilder<DB, 'subscriptions' | 'subscription_charges'>) {
  return eb.selectFrom('test_clocks').select('test_clocks.organization_id').where('test_clocks.offset_seconds', '>', 0);
}

/** A billing run's claim: its token, until when (the server's clock), and the server's time now. */
export interface BillingClaim {
  token: string;
  until: Date;
  serverNow: Date;
}

/**
 * Claims up to `limit` subscriptions due by `now` (the organization's clock) in one statement: rows
 * another run is claiming right now are skipped (SKIP LOCKED), rows under a live claim are left alone.
 * Returns them oldest period end first.
 */
export async function claimDueSubscriptions(
  db: Executor,
  now: Date,
  claim: BillingClaim,
  limit: number,
  scope: BillingScope = {},
) {
  let due = db
    .selectFrom('subscriptions')
    .select('id')
    .where('status', 'in', [...ACTIVE])
    .where('current_period_end', 'is not', null)
    .where('current_period_end', '<=', now)
    .where((eb) =>
      eb.or([eb('renewal_claimed_until', 'is', null), eb('renewal_claimed_until', '<=', claim.serverNow)]),
    );
  if (scope.organizationId) due = due.where('organization_id', '=', scope.organizationId);
  else if (scope.skipTestClocks) due = due.where('organization_id', 'not in', aheadOfServerClock);
  const rows = await db
    .updateTable('subscriptions')
    .set({ renewal_claim: claim.token, renewal_claimed_until: claim.until })
    .where('id', 'in', due.orderBy('current_period_end').limit(limit).forUpdate().skipLocked())
    .returning(['id', 'current_period_end'])
    .execute();
  return rows.sort((a, b) => a.current_period_end!.getTime() - b.current_period_end!.getTime());
}

/**
 * A run lets its claims go without ever waiting for a row lock while it holds others: the rows nobody has
 * locked are released in one statement (SKIP LOCKED); those another transaction holds at that moment (a
 * request, another run's group) are released one by one, each statement holding only its own row, so a
 * release is never part of a deadlock. (A release of a whole batch in one statement waited for rows that
 * a group's transaction locked in another order, and deadlocked with it on PostgreSQL.) The claims the
 * run no longer holds (expired and taken by another run) are left as they are.
 */
async function releaseClaims(
  ids: readonly string[],
  releaseUnlocked: () => Promise<string[]>,
  stillClaimed: () => Promise<string[]>,
  releaseOne: (id: string) => Promise<unknown>,
): Promise<void> {
  if (ids.length === 0) return;
  const released = await releaseUnlocked();
  if (released.length === ids.length) return;
  const done = new Set(released);
  for (const id of await stillClaimed()) if (!done.has(id)) await releaseOne(id);
}

/** Lets the run's claims go (a subscription due for several periods is claimed again for the next). */
export async function releaseRenewalClaims(db: Executor, ids: readonly string[], token: string): Promise<void> {
  const mine = () =>
    db
      .selectFrom('subscriptions')
      .select('id')
      .where('id', 'in', [...ids])
      .where('renewal_claim', '=', token);
  const release = () =>
    db.updateTable('subscriptions').set({ renewal_claim: null, renewal_claimed_until: null }).returning('id');
  await releaseClaims(
    ids,
    async () => (await release().where('id', 'in', mine().forUpdate().skipLocked()).execute()).map((row) => row.id),
    async () => (await mine().execute()).map((row) => row.id),
    (id) => release().where('id', '=', id).where('renewal_claim', '=', token).execute(),
  );
}

/** Claims up to `limit` pending charges due by `now`, as claimDueSubscriptions does. */
export async function claimDueCharges(
  db: Executor,
  now: Date,
  claim: BillingClaim,
  limit: number,
  scope: BillingScope = {},
) {
  let due = db
    .selectFrom('subscription_charges')
    .select('order_id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', claim.serverNow)]));
  if (scope.organizationId) due = due.where('organization_id', '=', scope.organizationId);
  else if (scope.skipTestClocks) due = due.where('organization_id', 'not in', aheadOfServerClock);
  return db
    .updateTable('subscription_charges')
    .set({ claim: claim.token, claimed_until: claim.until })
    .where('order_id', 'in', due.orderBy('next_attempt_at').limit(limit).forUpdate().skipLocked())
    .returning(['order_id'])
    .execute();
}

/**
 * The orders of a subscription's changes billed at once (`subscription_update`) whose charge is due and
 * was never attempted; renewals and dunning retries are the billing run's.
 */
export async function findChangeChargesToCollect(db: Executor, subscriptionId: string, now: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('subscription_charges')
    .select('order_id')
    .where('subscription_id', '=', subscriptionId)
    .where('billing_reason', '=', 'subscription_update')
    .where('status', '=', 'pending')
    .where('attempts', '=', 0)
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .execute();
  return rows.map((row) => row.order_id);
}

/** Lets the run's charge claims go, as releaseRenewalClaims does. */
export async function releaseChargeClaims(db: Executor, orderIds: readonly string[], token: string): Promise<void> {
  const mine = () =>
    db
      .selectFrom('subscription_charges')
      .select('order_id')
      .where('order_id', 'in', [...orderIds])
      .where('claim', '=', token);
  const release = () =>
    db.updateTable('subscription_charges').set({ claim: null, claimed_until: null }).returning('order_id');
  await releaseClaims(
    orderIds,
    async () =>
      (await release().where('order_id', 'in', mine().forUpdate().skipLocked()).execute()).map((row) => row.order_id),
    async () => (await mine().execute()).map((row) => row.order_id),
    (id) => release().where('order_id', '=', id).where('claim', '=', token).execute(),
  );
}

export async function insertBillingEntries(db: Executor, rows: Insertable<SubscriptionBillingEntriesTable>[]) {
  if (rows.length > 0) await db.insertInto('subscription_billing_entries').values(rows).execute();
}

/**
 * A product change: the subscription's pending entries keep their label and amount but name no price any
 * more, since an order's items may only name prices of the order's own product (a second change in the
 * same period would otherwise leave the first change's charge naming a price of the product left).
 */
export async function detachPendingEntryPrices(db: Executor, subscriptionId: string) {
  await db
    .updateTable('subscription_billing_entries')
    .set({ product_price_id: null })
    .where('subscription_id', '=', subscriptionId)
    .where('order_id', 'is', null)
    .where('product_price_id', 'is not', null)
    .execute();
}

export async function findPendingBillingEntries(db: Executor, subscriptionId: string): Promise<BillingEntryRow[]> {
  return (
    takeHandedOut<BillingEntryRow[]>(db, 'pendingBillingEntries', subscriptionId) ??
    (await findPendingBillingEntriesOf(db, [subscriptionId])).get(subscriptionId)!
  );
}

/** The pending entries of each subscription of `ids` (an empty list where there are none), one statement. */
export async function findPendingBillingEntriesOf(
  db: Executor,
  subscriptionIds: readonly string[],
): Promise<Map<string, BillingEntryRow[]>> {
  const bySubscription = new Map<string, BillingEntryRow[]>(subscriptionIds.map((id) => [id, []]));
  if (subscriptionIds.length === 0) return bySubscription;
  const rows = await db
    .selectFrom('subscription_billing_entries')
    .selectAll()
    .where('subscription_id', 'in', [...subscriptionIds])
    .where('order_id', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const row of rows) bySubscription.get(row.subscription_id)?.push(row);
  return bySubscription;
}

export async function attachBillingEntries(db: Executor, ids: readonly string[], orderId: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('subscription_billing_entries')
    .set({ order_id: orderId })
    .where('id', 'in', [...ids])
    .execute();
}

export async function insertCharge(db: Executor, row: Insertable<SubscriptionChargesTable>): Promise<void> {
  if (defersWrites(db)) return keepInsert(db, 'subscription_charges', row);
  await db.insertInto('subscription_charges').values(row).execute();
}

export type ChargeRow = Selectable<SubscriptionChargesTable>;

export async function lockCharge(db: Executor, orderId: string): Promise<ChargeRow | undefined> {
  return takeHandedOut<ChargeRow>(db, 'charge', orderId) ?? (await lockCharges(db, [orderId]))[0];
}

/** The charges of `orderIds`, locked in order id order (a billing group's, handed out one by one). */
export async function lockCharges(db: Executor, orderIds: readonly string[]): Promise<ChargeRow[]> {
  if (orderIds.length === 0) return [];
  return db
    .selectFrom('subscription_charges')
    .selectAll()
    .where('order_id', 'in', [...new Set(orderIds)])
    .orderBy('order_id')
    .forUpdate()
    .execute();
}

/**
 * What the charges of `orderIds` need for an attempt, in one statement: each charge with its order's
 * amounts, its subscription's card and its customer, the charge and subscription rows locked (in order
 * id order, as every caller locks a group of charges). Charges, orders or subscriptions that do not
 * exist are left out.
 */
export async function lockChargeAttempts(db: Executor, orderIds: readonly string[]) {
  if (orderIds.length === 0) return [];
  return db
    .selectFrom('subscription_charges as c')
    .innerJoin('orders as o', 'o.id', 'c.order_id')
    .innerJoin('subscriptions as s', 's.id', 'c.subscription_id')
    .innerJoin('customers as cu', 'cu.id', 'o.customer_id')
    .select([
      'c.order_id',
      'c.status',
      'c.attempts',
      'c.next_attempt_at',
      'o.total_amount',
      'o.applied_balance_amount',
      'o.currency',
      's.id as subscription_id',
      's.payment_method_id',
      'cu.id as customer_id',
      'cu.email as customer_email',
      'cu.name as customer_name',
    ])
    .where('c.order_id', 'in', [...orderIds])
    .orderBy('c.order_id')
    .forUpdate(['c', 's'])
    .execute();
}

export async function updateCharge(db: Executor, orderId: string, changes: Updateable<SubscriptionChargesTable>) {
  await db.updateTable('subscription_charges').set(changes).where('order_id', '=', orderId).execute();
}

/** Marks charges paid after their attempt, each with its count of attempts (one statement). */
export async function markChargesPaid(
  db: Executor,
  charges: readonly { orderId: string; attempts: number }[],
  at: Date,
): Promise<void> {
  if (charges.length === 0) return;
  await sql`
    UPDATE subscription_charges AS c
    SET status = 'paid', attempts = v.attempts, next_attempt_at = NULL, modified_at = ${at}
    FROM unnest(${charges.map((charge) => charge.orderId)}::uuid[], ${charges.map((charge) => charge.attempts)}::int[])
      AS v(order_id, attempts)
    WHERE c.order_id = v.order_id`.execute(db);
}

/**
 * Voids the pending charges of the subscription (ended with it) and answers their order ids. An attempt
 * already at the processor still records its outcome (see the renewal engine).
 */
export async function failPendingCharges(db: Executor, subscriptionId: string, at: Date): Promise<string[]> {
  const rows = await db
    .updateTable('subscription_charges')
    .set({ status: 'failed', next_attempt_at: null, modified_at: at })
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'pending')
    .returning('order_id')
    .execute();
  return rows.map((row) => row.order_id);
}

/** Charges whose money came in after their subscription ended, still to be refunded. */
export async function findRefundingCharges(db: Executor, limit: number, scope: BillingScope = {}) {
  let query = db.selectFrom('subscription_charges').select(['order_id']).where('status', '=', 'refunding');
  if (scope.organizationId) query = query.where('organization_id', '=', scope.organizationId);
  else if (scope.skipTestClocks) query = query.where('organization_id', 'not in', aheadOfServerClock);
  return query.orderBy('modified_at').limit(limit).execute();
}
