import type { Executor } from '../../platform/db/database.js';
import { forgetPerId } from '../../platform/db/read-memo.js';

/** The memo name of customers read by id (orders.repository.ts `findCustomersByIds`). */
export const CUSTOMERS_BY_ID = 'findCustomersByIds';

/** A transaction changed these customers' rows: reads by id in it read them again. */
export function forgetCustomers(db: Executor, ids: readonly string[]): void {
  forgetPerId(db, CUSTOMERS_BY_ID, ids);
}
