import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';

/**
 * Whether this buyer (the customer, or any customer with this email, case-insensitively) already had a
 * trial of the product, or one is reserved by another checkout being confirmed.
 */
export async function hasRedeemedTrial(
  db: Executor,
  productId: string,
  customerId: string | null,
  email: string | null,
  /** The checkout asking: the trial it reserved for itself does not count. */
  checkoutId?: string,
): Promise<boolean> {
  if (!customerId && !email) return false;
  let query = db.selectFrom('trial_redemptions').select('id').where('product_id', '=', productId);
  if (checkoutId)
    query = query.where((eb) => eb.or([eb('checkout_id', 'is', null), eb('checkout_id', '!=', checkoutId)]));
  const row = await query
    .where((eb) =>
      eb.or([
        ...(customerId ? [eb('customer_id', '=', customerId)] : []),
        ...(email ? [eb('email', '=', email.toLowerCase())] : []),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Serializes the trial judgements of one customer and product until the transaction ends, so that two
 * confirms at the same instant see each other's reservation.
 */
export async function lockTrialRedemption(db: Executor, productId: string, customerId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`trial:${productId}:${customerId}`}, 0))`.execute(db);
}

/** Reserves the trial a confirmed checkout gives (the subscription is linked when it succeeds). */
export async function reserveTrialRedemption(
  db: Executor,
  row: {
    id: string;
    created_at: Date;
    organization_id: string;
    product_id: string;
    customer_id: string;
    email: string;
    checkout_id: string;
  },
): Promise<void> {
  await db
    .insertInto('trial_redemptions')
    .values({ ...row, email: row.email.toLowerCase(), subscription_id: null })
    .execute();
}

/**
 * The trial's subscription started: links it to the checkout's reservation (or records the redemption,
 * for an attempt committed before reservations existed).
 */
export async function linkTrialRedemption(
  db: Executor,
  row: {
    id: string;
    created_at: Date;
    organization_id: string;
    product_id: string;
    customer_id: string;
    email: string;
    checkout_id: string;
    subscription_id: string;
  },
): Promise<void> {
  await db
    .insertInto('trial_redemptions')
    .values({ ...row, email: row.email.toLowerCase() })
    .onConflict((oc) => oc.column('checkout_id').doUpdateSet({ subscription_id: row.subscription_id }))
    .execute();
}

/** A failed attempt gives its reservation back. */
export async function releaseTrialRedemption(db: Executor, checkoutId: string): Promise<void> {
  await db.deleteFrom('trial_redemptions').where('checkout_id', '=', checkoutId).execute();
}

/**
 * Trialing subscriptions whose trial ends by `horizon` and that were not reminded yet (the caller
 * decides, per trial, whether the reminder is due).
 */
export async function findTrialsEndingBy(
  db: Executor,
  now: Date,
  horizon: Date,
  limit: number,
  organizationId?: string,
  skipOrganizations?: boolean,
) {
  let query = db
    .selectFrom('subscriptions')
    .select(['id', 'trial_start', 'trial_end'])
    .where('status', '=', 'trialing')
    .where('trial_reminded_at', 'is', null)
    .where('trial_end', '>', now)
    .where('trial_end', '<=', horizon);
  if (organizationId) query = query.where('organization_id', '=', organizationId);
  else if (skipOrganizations)
    query = query.where(
      'organization_id',
      'not in',
      db.selectFrom('test_clocks').select('organization_id').where('offset_seconds', '>', 0),
    );
  return query.orderBy('trial_end').limit(limit).execute();
}

/** Marks the reminder of a trial as queued; false when someone did first (it is sent once). */
export async function claimTrialReminder(db: Executor, id: string, at: Date): Promise<boolean> {
  const row = await db
    .updateTable('subscriptions')
    .set({ trial_reminded_at: at })
    .where('id', '=', id)
    .where('status', '=', 'trialing')
    .where('trial_reminded_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
