import type { Executor } from '../../../platform/db/database.js';

export async function findOrganizationForCode(db: Executor, organizationId: string) {
  return db
    .selectFrom('organizations')
    .select(['id', 'name', 'slug'])
    .where('id', '=', organizationId)
    .executeTakeFirst();
}

export async function insertSessionCode(
  db: Executor,
  row: { id: string; created_at: Date; expires_at: Date; code_hash: string; customer_id: string },
): Promise<void> {
  await db.insertInto('customer_session_codes').values(row).execute();
}

/** Takes a live code: it is deleted as it is read, so it works once. */
export async function takeSessionCode(db: Executor, codeHash: string, now: Date) {
  return db
    .deleteFrom('customer_session_codes')
    .where('code_hash', '=', codeHash)
    .where('expires_at', '>', now)
    .returning(['customer_id'])
    .executeTakeFirst();
}

/** A new code replaces the customer's earlier ones (and expired codes go). */
export async function deleteSessionCodes(db: Executor, customerId: string, now: Date): Promise<void> {
  await db
    .deleteFrom('customer_session_codes')
    .where((eb) => eb.or([eb('customer_id', '=', customerId), eb('expires_at', '<=', now)]))
    .execute();
}
