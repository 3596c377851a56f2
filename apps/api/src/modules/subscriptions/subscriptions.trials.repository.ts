import type { Executor } from '../../platform/db/database.js';

/**
 * Whether this buyer (the customer, or any customer with this email, case-insensitively) already had a
 * trial of the product.
 */
export async function hasRedeemedTrial(
  db: Executor,
  productId: string,
  customerId: string | null,
  email: string | null,
  /** The checkout asking: the trial it gave itself does not count. */
  checkoutId?: string,
): Promise<boolean> {
  if (!customerId && !email) return false;
  let query = db.selectFrom('trial_redemptions').select('id').where('product_id', '=', productId);
  if (checkoutId)
    query = query.where(
      'subscription_id',
      'not in',
      db.selectFrom('subscriptions').select('id').where('checkout_id', '=', checkoutId),
    );
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

export async function insertTrialRedemption(
  db: Executor,
  row: {
    id: string;
    created_at: Date;
    organization_id: string;
    product_id: string;
    customer_id: string;
    email: string;
    subscription_id: string;
  },
): Promise<void> {
  await db
    .insertInto('trial_redemptions')
    .values({ ...row, email: row.email.toLowerCase() })
    .execute();
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
