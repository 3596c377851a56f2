import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { CustomerPaymentMethodsTable } from '../../../db/tables/payment-methods.js';
import type { Subject } from '../../../platform/auth/subject.js';
import type { Executor } from '../../../platform/db/database.js';
import { paginate } from '../../../platform/db/paginate.js';
import type { PageParams } from '../../../platform/http/query.js';
import { BILLABLE_STATUSES } from '../../subscriptions/subscriptions.repository.js';
import { ownedBySessionCustomer } from '../customer-portal.repository.js';

export type PaymentMethodRow = Selectable<CustomerPaymentMethodsTable>;

/**
 * Serializes the changes of one customer's methods (which one is the default, removals) for the rest of
 * the transaction. An advisory lock rather than the customer's row: the renewal engine locks a
 * subscription then its customer, while a default change updates the customer's subscriptions, so the
 * customer's row taken first here could wait in a circle with a renewal.
 */
export async function lockCustomerPaymentMethods(db: Executor, customerId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`payment-methods:${customerId}`}, 0))`.execute(db);
}

/** The session customer's usable methods, newest first (as the reference lists them). */
export async function listActiveMethods(
  db: Executor,
  subject: Subject,
  params: PageParams,
): Promise<{ rows: PaymentMethodRow[]; total: number }> {
  const query = db
    .selectFrom('customer_payment_methods')
    .selectAll()
    .where(ownedBySessionCustomer(subject, 'customer_payment_methods.customer_id'))
    .where('status', '=', 'active')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');
  return paginate(db, query, params);
}

/** One of the session customer's methods (any status but removed); `lock` for a change. */
export async function findOwnedMethod(
  db: Executor,
  subject: Subject,
  id: string,
  lock = false,
): Promise<PaymentMethodRow | undefined> {
  let query = db
    .selectFrom('customer_payment_methods')
    .selectAll()
    .where('id', '=', id)
    .where(ownedBySessionCustomer(subject, 'customer_payment_methods.customer_id'))
    .where('status', '!=', 'removed');
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function findMethodById(db: Executor, id: string): Promise<PaymentMethodRow | undefined> {
  return db.selectFrom('customer_payment_methods').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function lockMethod(db: Executor, id: string): Promise<PaymentMethodRow | undefined> {
  return db.selectFrom('customer_payment_methods').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function insertMethod(
  db: Executor,
  values: Insertable<CustomerPaymentMethodsTable>,
): Promise<PaymentMethodRow> {
  return db.insertInto('customer_payment_methods').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateMethod(
  db: Executor,
  id: string,
  values: Updateable<CustomerPaymentMethodsTable>,
): Promise<PaymentMethodRow> {
  return db
    .updateTable('customer_payment_methods')
    .set(values)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A page of a customer's usable methods, newest first (the seller's read; the caller checked the customer). */
export async function pageActiveMethodsOfCustomer(
  db: Executor,
  customerId: string,
  params: PageParams,
): Promise<{ rows: PaymentMethodRow[]; total: number }> {
  const query = db
    .selectFrom('customer_payment_methods')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('status', '=', 'active')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');
  return paginate(db, query, params);
}

/** A customer's usable methods, newest first. */
export async function findActiveMethodsOfCustomer(db: Executor, customerId: string): Promise<PaymentMethodRow[]> {
  return db
    .selectFrom('customer_payment_methods')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('status', '=', 'active')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function findActiveMethodByProcessorId(
  db: Executor,
  customerId: string,
  processorPaymentMethodId: string,
): Promise<PaymentMethodRow | undefined> {
  return db
    .selectFrom('customer_payment_methods')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('processor_payment_method_id', '=', processorPaymentMethodId)
    .where('status', '=', 'active')
    .executeTakeFirst();
}

/** Makes `id` the customer's only default (the partial unique index holds one per customer). */
export async function setDefaultMethod(db: Executor, customerId: string, id: string, now: Date): Promise<void> {
  await db
    .updateTable('customer_payment_methods')
    .set({ is_default: false, modified_at: now })
    .where('customer_id', '=', customerId)
    .where('is_default', '=', true)
    .where('id', '!=', id)
    .execute();
  await db
    .updateTable('customer_payment_methods')
    .set({ is_default: true, modified_at: now })
    .where('id', '=', id)
    .where('is_default', '=', false)
    .execute();
}

/** The customer's subscriptions still billed (active, trialing, past due) by a processor method. */
export async function countSubscriptionsBilledBy(
  db: Executor,
  customerId: string,
  processorPaymentMethodId: string,
): Promise<number> {
  const row = await db
    .selectFrom('subscriptions')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('customer_id', '=', customerId)
    .where('status', 'in', [...BILLABLE_STATUSES])
    .where('ended_at', 'is', null)
    .where('payment_method_id', '=', processorPaymentMethodId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every billable subscription of the customer is billed to `processorPaymentMethodId` from now on. */
export async function billSubscriptionsTo(
  db: Executor,
  customerId: string,
  processorPaymentMethodId: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('subscriptions')
    .set({ payment_method_id: processorPaymentMethodId, modified_at: now })
    .where('customer_id', '=', customerId)
    .where('status', 'in', [...BILLABLE_STATUSES])
    .where('ended_at', 'is', null)
    .where((eb) =>
      eb.or([eb('payment_method_id', 'is', null), eb('payment_method_id', '!=', processorPaymentMethodId)]),
    )
    .execute();
}

/**
 * The pending charges of the customer's past-due subscriptions, moved to `now`: the retry is due at
 * once. Returns their orders.
 */
export async function bringPastDueChargesForward(
  db: Executor,
  customerId: string,
  now: Date,
): Promise<{ order_id: string; organization_id: string }[]> {
  return db
    .updateTable('subscription_charges')
    .set({ next_attempt_at: now, modified_at: now })
    .where('status', '=', 'pending')
    .where('subscription_id', 'in', (eb) =>
      eb
        .selectFrom('subscriptions')
        .select('id')
        .where('customer_id', '=', customerId)
        .where('status', '=', 'past_due')
        .where('ended_at', 'is', null),
    )
    .returning(['order_id', 'organization_id'])
    .execute();
}
