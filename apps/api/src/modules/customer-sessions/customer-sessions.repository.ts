import type { Selectable } from 'kysely';
import type { CustomerSessionsTable } from '../../db/tables/customers.js';
import type { Executor } from '../../platform/db/database.js';
import { prepared } from '../../platform/db/prepared.js';
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

// Sent by every customer-portal request: one statement, compiled once (platform/db/prepared.ts).
const liveSessionWithCustomer = prepared(2, (db, tokenHash: string, now: Date) =>
  db
    .selectFrom('customer_sessions as s')
    .innerJoin('customers as c', 'c.id', 's.customer_id')
    .selectAll('c')
    .select([
      's.id as s__id',
      's.created_at as s__created_at',
      's.modified_at as s__modified_at',
      's.deleted_at as s__deleted_at',
      's.token_hash as s__token_hash',
      's.expires_at as s__expires_at',
    ])
    .where('s.token_hash', '=', tokenHash)
    .where('s.expires_at', '>', now)
    .where('s.deleted_at', 'is', null)
    .where('c.deleted_at', 'is', null),
);

/**
 * The live session with this token hash and its customer: not expired, not ended, and the customer not
 * deleted (the customer portal authenticates with this).
 */
export async function findLiveCustomerSessionByTokenHash(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<{ session: CustomerSessionRow; customer: CustomerRow } | undefined> {
  const [row] = await liveSessionWithCustomer(db, tokenHash, now);
  if (!row) return undefined;
  const { s__id, s__created_at, s__modified_at, s__deleted_at, s__token_hash, s__expires_at, ...customer } = row;
  const session: CustomerSessionRow = {
    id: s__id,
    created_at: s__created_at,
    modified_at: s__modified_at,
    deleted_at: s__deleted_at,
    token_hash: s__token_hash,
    expires_at: s__expires_at,
    customer_id: customer.id,
  };
  return { session, customer };
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
