import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { CheckoutsTable } from '../../db/tables/checkouts.js';
import type { CheckoutPaymentAttemptsTable } from '../../db/tables/payment-attempts.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { likeContains } from '../../platform/db/like.js';
import { paginate } from '../../platform/db/paginate.js';
import type { CheckoutListParams } from './checkouts.schemas.js';

export type CheckoutRow = Selectable<CheckoutsTable>;
export type NewCheckoutRow = Insertable<CheckoutsTable>;
export type CheckoutChanges = Updateable<CheckoutsTable>;

function visible(db: Executor, subject: Subject) {
  return db
    .selectFrom('checkouts')
    .selectAll('checkouts')
    .where(organizationVisibleTo(subject, 'checkouts.organization_id'));
}

export async function findVisibleCheckout(db: Executor, subject: Subject, id: string) {
  return visible(db, subject).where('checkouts.id', '=', id).executeTakeFirst();
}

export async function lockVisibleCheckout(db: Executor, subject: Subject, id: string) {
  return visible(db, subject).where('checkouts.id', '=', id).forUpdate().executeTakeFirst();
}

/** Public lookups: the client secret is the capability, compared for exact equality. */
export async function findCheckoutByClientSecret(db: Executor, clientSecret: string, lock = false) {
  const query = db.selectFrom('checkouts').selectAll().where('client_secret', '=', clientSecret);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export async function findCheckoutById(db: Executor, id: string) {
  return db.selectFrom('checkouts').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listVisibleCheckouts(db: Executor, subject: Subject, params: CheckoutListParams) {
  let query = visible(db, subject);
  if (params.organization_id) query = query.where('checkouts.organization_id', 'in', params.organization_id);
  if (params.customer_id) query = query.where('checkouts.customer_id', 'in', params.customer_id);
  if (params.status) query = query.where('checkouts.status', 'in', params.status);
  const productIds = params.product_id;
  if (productIds) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('checkout_products')
          .select('checkout_products.checkout_id')
          .whereRef('checkout_products.checkout_id', '=', 'checkouts.id')
          .where('checkout_products.product_id', 'in', productIds),
      ),
    );
  }
  if (params.query) {
    const pattern = likeContains(params.query);
    query = query.where((eb) =>
      eb.or([eb('checkouts.customer_email', 'ilike', pattern), eb('checkouts.customer_name', 'ilike', pattern)]),
    );
  }
  for (const sort of params.sorting) query = query.orderBy(`checkouts.${sort.key}`, sort.descending ? 'desc' : 'asc');
  return paginate(db, query.orderBy('checkouts.id'), params);
}

/** Inserts the checkout and its products in one statement; returns the row as written. */
export async function insertCheckout(
  db: Executor,
  row: NewCheckoutRow,
  productIds: readonly string[],
): Promise<CheckoutRow> {
  return db
    .with('inserted', (db) => db.insertInto('checkouts').values(row).returningAll())
    .with('offered', (db) =>
      db
        .insertInto('checkout_products')
        .values(productIds.map((productId, order) => ({ checkout_id: row.id, product_id: productId, order })))
        .returning('checkout_id'),
    )
    .selectFrom('inserted')
    .selectAll()
    .executeTakeFirstOrThrow();
}

/** Writes the changes and returns the row as written. */
export async function updateCheckoutRow(db: Executor, id: string, changes: CheckoutChanges): Promise<CheckoutRow> {
  return db.updateTable('checkouts').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** The ids of the products each checkout offers, in order. */
export async function findCheckoutProductIds(
  db: Executor,
  checkoutIds: readonly string[],
): Promise<Map<string, string[]>> {
  const byCheckout = new Map<string, string[]>(checkoutIds.map((id) => [id, []]));
  if (checkoutIds.length === 0) return byCheckout;
  const rows = await db
    .selectFrom('checkout_products')
    .select(['checkout_id', 'product_id'])
    .where('checkout_id', 'in', [...checkoutIds])
    .orderBy('checkout_id')
    .orderBy('order')
    .execute();
  for (const row of rows) byCheckout.get(row.checkout_id)?.push(row.product_id);
  return byCheckout;
}

export async function findOrganizationsByIds(db: Executor, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('organizations')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

/**
 * Marks at most `limit` open checkouts past their expiry as expired, oldest expiry first, skipping rows
 * another transaction holds (a buyer confirming one); returns them as written.
 */
export async function expireOpenCheckouts(
  db: Executor,
  now: Date,
  limit: number,
  organizationId?: string,
): Promise<CheckoutRow[]> {
  let due = db
    .selectFrom('checkouts')
    .select('id')
    .where('status', '=', 'open')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  if (organizationId) due = due.where('organization_id', '=', organizationId);
  return db
    .updateTable('checkouts')
    .set({ status: 'expired', modified_at: now })
    .where('id', 'in', due)
    .returningAll()
    .execute();
}

// ---------------------------------------------------------------------------------------------------
// Discount redemption (the reference's `redeem_discount`: under the discount's lock)
// ---------------------------------------------------------------------------------------------------

/**
 * Locks the discount row (`SELECT … FOR UPDATE`) and counts its redemptions after the lock is held, so
 * concurrent confirms see each other's committed redemptions and `max_redemptions` is never exceeded.
 */
export async function lockDiscountForRedemption(db: Executor, discountId: string) {
  const discount = await db
    .selectFrom('discounts')
    .selectAll()
    .where('id', '=', discountId)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  if (!discount) return undefined;
  const count = await db
    .selectFrom('discount_redemptions')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('discount_id', '=', discountId)
    .executeTakeFirstOrThrow();
  return { ...discount, redemptions_count: Number(count.n) };
}

export async function deleteCheckoutRedemptions(db: Executor, checkoutId: string): Promise<void> {
  await db.deleteFrom('discount_redemptions').where('checkout_id', '=', checkoutId).execute();
}

export async function linkRedemptionToSubscription(db: Executor, checkoutId: string, subscriptionId: string) {
  await db
    .updateTable('discount_redemptions')
    .set({ subscription_id: subscriptionId })
    .where('checkout_id', '=', checkoutId)
    .execute();
}

export async function findDiscountProductIds(db: Executor, discountId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('discount_products')
    .select('product_id')
    .where('discount_id', '=', discountId)
    .execute();
  return rows.map((row) => row.product_id);
}

/** A live customer of the organization by id. */
export async function findOrganizationCustomer(db: Executor, organizationId: string, id: string) {
  return db
    .selectFrom('customers')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

// ---------------------------------------------------------------------------------------------------
// Payment attempts (committed before the processor is called; settled once)
// ---------------------------------------------------------------------------------------------------

export type PaymentAttemptRow = Selectable<CheckoutPaymentAttemptsTable>;

const UNSETTLED = ['pending', 'interrupted', 'requires_action', 'processing'] as const;

/**
 * Inserts the checkout's next attempt in one statement: numbered after its last one (1 for the first),
 * its idempotency key `keyPrefix` followed by that number. The caller holds the checkout's row lock.
 */
export async function insertNextPaymentAttempt(
  db: Executor,
  row: Omit<Insertable<CheckoutPaymentAttemptsTable>, 'attempt' | 'idempotency_key'>,
  keyPrefix: string,
): Promise<PaymentAttemptRow> {
  const next = sql<number>`(select coalesce(max(attempt), 0) + 1 from checkout_payment_attempts where checkout_id = ${row.checkout_id})`;
  return db
    .insertInto('checkout_payment_attempts')
    .values({ ...row, attempt: next, idempotency_key: sql<string>`${keyPrefix}::text || ${next}::text` })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The checkout's unsettled attempt, locked. */
export async function lockUnsettledAttempt(db: Executor, checkoutId: string) {
  return db
    .selectFrom('checkout_payment_attempts')
    .selectAll()
    .where('checkout_id', '=', checkoutId)
    .where('status', 'in', [...UNSETTLED])
    .forUpdate()
    .executeTakeFirst();
}

/** The status of the checkout's unsettled attempt, if it has one. */
export async function findUnsettledAttemptStatus(db: Executor, checkoutId: string) {
  const row = await db
    .selectFrom('checkout_payment_attempts')
    .select('status')
    .where('checkout_id', '=', checkoutId)
    .where('status', 'in', [...UNSETTLED])
    .executeTakeFirst();
  return row?.status;
}

/**
 * Locks an attempt's checkout, then the attempt, and answers both rows: the order a confirm takes them in
 * (the checkout's row, then its unsettled attempt). Settling in the other order deadlocked against a
 * second confirm of the same checkout (each waiting for the row the other held).
 */
export async function lockAttemptAfterCheckout(db: Executor, id: string) {
  const checkout = await db
    .selectFrom('checkouts')
    .selectAll()
    .where('id', '=', (eb) => eb.selectFrom('checkout_payment_attempts').select('checkout_id').where('id', '=', id))
    .forUpdate()
    .executeTakeFirst();
  const attempt = await lockPaymentAttempt(db, id);
  return checkout && attempt ? { checkout, attempt } : undefined;
}

export async function lockPaymentAttempt(db: Executor, id: string) {
  return db.selectFrom('checkout_payment_attempts').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function findAttemptByProcessorPaymentId(db: Executor, processorPaymentId: string) {
  return db
    .selectFrom('checkout_payment_attempts')
    .selectAll()
    .where('processor_payment_id', '=', processorPaymentId)
    .executeTakeFirst();
}

export async function findAttemptByIdempotencyKey(db: Executor, key: string) {
  return db.selectFrom('checkout_payment_attempts').selectAll().where('idempotency_key', '=', key).executeTakeFirst();
}

export async function updatePaymentAttempt(
  db: Executor,
  id: string,
  changes: Updateable<CheckoutPaymentAttemptsTable>,
): Promise<PaymentAttemptRow> {
  return db
    .updateTable('checkout_payment_attempts')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Attempts nobody is settling: in flight or interrupted since before `staleBefore` (a crash between the
 * steps), waiting on the bank (`processing`), or on the buyer's authentication since before `abandonedBefore`.
 */
export async function findStaleAttempts(db: Executor, staleBefore: Date, abandonedBefore: Date, limit: number) {
  return db
    .selectFrom('checkout_payment_attempts')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('status', 'in', ['pending', 'interrupted', 'processing']), eb('modified_at', '<', staleBefore)]),
        eb.and([eb('status', '=', 'requires_action'), eb('modified_at', '<', abandonedBefore)]),
      ]),
    )
    .orderBy('modified_at')
    .limit(limit)
    .execute();
}

export async function findCustomerById(db: Executor, id: string) {
  return db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirst();
}
