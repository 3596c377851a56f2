import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Subject } from '../../platform/auth/subject.js';
import type { Executor } from '../../platform/db/database.js';
import type { CustomerRow } from '../customers/customers.repository.js';

/**
 * Ownership in the customer portal: everything a session reads starts from its customer. A row of any
 * other customer (even of the same organization) is simply not found, and a subject that is not a
 * customer session sees nothing.
 */
export function ownedBySessionCustomer(
  subject: Subject,
  column: string,
): (eb: ExpressionBuilder<DB, keyof DB>) => Expression<SqlBool> {
  return (eb) =>
    subject.kind === 'customer' ? eb(sql.ref<string>(column), '=', subject.customerId) : sql<SqlBool>`false`;
}

/** The session's own customer, live (a deleted customer's sessions no longer authenticate anyway). */
export async function findSessionCustomer(
  db: Executor,
  subject: Subject,
  lock = false,
): Promise<CustomerRow | undefined> {
  let query = db
    .selectFrom('customers')
    .selectAll('customers')
    .where('customers.deleted_at', 'is', null)
    .where(ownedBySessionCustomer(subject, 'customers.id'));
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}
