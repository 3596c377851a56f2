import type { Selectable } from 'kysely';
import type { CustomerSessionsTable } from '../../db/tables/customers.js';
import type { Executor } from '../../platform/db/database.js';
import type { CustomerRow } from '../customers/customers.repository.js';

export type CustomerSessionRow = Selectable<CustomerSessionsTable>;

export async function insertCustomerSession(
  db: Executor,
  row: Pick<CustomerSessionRow, 'id' | 'created_at' | 'token_hash' | 'expires_at' | 'customer_id'>,
): Promise<CustomerSessionRow> {
  return db
    .insertInto('customer_sessions')
    .values({ ...row, modified_at: null, deleted_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The live session with this token hash and its customer: not expired, not ended, and the customer not
 * deleted (the customer portal authenticates with this).
 */
export async function findLiveCustomerSessionByTokenHash(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<{ session: CustomerSessionRow; customer: CustomerRow } | undefined> {
  const session = await db
    .selectFrom('customer_sessions')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', now)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!session) return undefined;
  const customer = await db
    .selectFrom('customers')
    .selectAll()
    .where('id', '=', session.customer_id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return customer ? { session, customer } : undefined;
}

/** Ends the customer's portal sessions (the customer is deleted). */
export async function endCustomerSessions(db: Executor, customerId: string, at: Date): Promise<void> {
  await db
    .updateTable('customer_sessions')
    .set({ deleted_at: at, modified_at: at })
    .where('customer_id', '=', customerId)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Removes sessions expired before `now` (for a periodic clean-up job). Returns how many. */
export async function deleteExpiredCustomerSessions(db: Executor, now: Date): Promise<number> {
  const result = await db.deleteFrom('customer_sessions').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
