import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { CustomersTable } from '../../db/tables/customers.js';
import type { Executor } from '../../platform/db/database.js';
import { takeHandedOut } from '../../platform/db/read-memo.js';
import { forgetCustomers } from '../customers/customers.memo.js';

/**
 * The customer's credit balance: a movement row per change (the history), and the sums by currency on
 * the customer row (what is shown and used), both written together under the customer's row lock.
 */

/**
 * What billing reads of a customer (billing details and balances by currency), with the row locked until
 * the end of the transaction: balances are read and moved under this lock only.
 */
/** The customer as billing reads it, without the lock (a preview writes nothing). */
export async function findBillingCustomer(db: Executor, customerId: string) {
  const row = await db
    .selectFrom('customers')
    .select(['name', 'billing_address', 'tax_id', 'credit_balances'])
    .where('id', '=', customerId)
    .executeTakeFirst();
  return row && { ...row, credit_balances: { ...((row.credit_balances ?? {}) as Record<string, number>) } };
}

export async function lockBillingCustomer(db: Executor, customerId: string) {
  const row =
    takeHandedOut<CustomerLockRow>(db, 'billingCustomer', customerId) ??
    (await lockBillingCustomers(db, [customerId]))[0];
  return row && { ...row, credit_balances: { ...((row.credit_balances ?? {}) as Record<string, number>) } };
}

type CustomerLockRow = Selectable<CustomersTable>;

/** The customers of `ids`, locked in id order (a billing group's, handed out to `lockBillingCustomer`). */
export async function lockBillingCustomers(db: Executor, ids: readonly string[]): Promise<CustomerLockRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('customers')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .orderBy('id')
    .forUpdate()
    .execute();
}

export interface BalanceMovement {
  organization_id: string;
  customer_id: string;
  currency: string;
  /** > 0 adds credit, < 0 uses it. */
  amount: number;
  kind: 'credit' | 'applied' | 'restored' | 'refunded';
  order_id: string;
  /** Set for `refunded`: an order may have several refunds, each moves the balance once. */
  refund_id?: string;
  at: Date;
}

/**
 * Records one movement and adds it to the customer's balance in its currency. A movement of the same
 * kind for the same order (or for the same refund) is recorded once: a retry moves nothing and answers
 * false.
 */
export async function recordBalanceMovement(db: Executor, movement: BalanceMovement): Promise<boolean> {
  if (movement.amount === 0) return false;
  const inserted = await db
    .insertInto('customer_balance_transactions')
    .values({
      id: randomUUID(),
      created_at: movement.at,
      organization_id: movement.organization_id,
      customer_id: movement.customer_id,
      currency: movement.currency,
      amount: movement.amount,
      kind: movement.kind,
      order_id: movement.order_id,
      refund_id: movement.refund_id ?? null,
    })
    .onConflict((oc) =>
      movement.refund_id
        ? oc.column('refund_id').where('refund_id', 'is not', null).doNothing()
        : oc.columns(['order_id', 'kind']).where('refund_id', 'is', null).doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return false;
  const path = `{${movement.currency}}`;
  await db
    .updateTable('customers')
    .set({
      credit_balances: sql`jsonb_set(credit_balances, ${path}::text[], to_jsonb(coalesce((credit_balances ->> ${movement.currency})::bigint, 0) + ${movement.amount}::bigint))`,
    })
    .where('id', '=', movement.customer_id)
    .execute();
  forgetCustomers(db, [movement.customer_id]);
  return true;
}

/** The movements of an order (what its balance line and payment came from). */
export async function findBalanceMovementsOfOrder(db: Executor, orderId: string) {
  return db.selectFrom('customer_balance_transactions').selectAll().where('order_id', '=', orderId).execute();
}
