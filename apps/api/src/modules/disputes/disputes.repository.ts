import type { Insertable, Selectable, Updateable } from 'kysely';
import type { OrderDisputesTable } from '../../db/tables/payment-attempts.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { paginate } from '../../platform/db/paginate.js';
import type { DisputeListParams } from './disputes.schemas.js';

export type DisputeRow = Selectable<OrderDisputesTable>;

function visible(db: Executor, subject: Subject) {
  return db
    .selectFrom('order_disputes')
    .selectAll('order_disputes')
    .where(organizationVisibleTo(subject, 'order_disputes.organization_id'));
}

export async function listVisibleDisputes(db: Executor, subject: Subject, params: DisputeListParams) {
  let query = visible(db, subject);
  if (params.organization_id?.length) {
    query = query.where('order_disputes.organization_id', 'in', params.organization_id);
  }
  if (params.order_id?.length) query = query.where('order_disputes.order_id', 'in', params.order_id);
  if (params.status?.length) query = query.where('order_disputes.status', 'in', params.status);
  for (const sort of params.sorting) {
    query = query.orderBy(`order_disputes.${sort.key}`, sort.descending ? 'desc' : 'asc');
  }
  return paginate(db, query.orderBy('order_disputes.id'), params);
}

export async function findVisibleDispute(db: Executor, subject: Subject, id: string): Promise<DisputeRow | undefined> {
  return visible(db, subject).where('order_disputes.id', '=', id).executeTakeFirst();
}

export async function lockDispute(db: Executor, id: string): Promise<DisputeRow | undefined> {
  return db.selectFrom('order_disputes').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function lockDisputeByProcessorId(
  db: Executor,
  processorDisputeId: string,
): Promise<DisputeRow | undefined> {
  return db
    .selectFrom('order_disputes')
    .selectAll()
    .where('processor_dispute_id', '=', processorDisputeId)
    .forUpdate()
    .executeTakeFirst();
}

/** Inserts the dispute unless the processor's id is known already (a replayed report): then undefined. */
export async function insertDispute(
  db: Executor,
  row: Insertable<OrderDisputesTable>,
): Promise<DisputeRow | undefined> {
  return db
    .insertInto('order_disputes')
    .values(row)
    .onConflict((oc) => oc.column('processor_dispute_id').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function updateDispute(
  db: Executor,
  id: string,
  changes: Updateable<OrderDisputesTable>,
): Promise<DisputeRow> {
  return db.updateTable('order_disputes').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** The succeeded payment a processor reported a dispute on (its PaymentIntent or simulated charge id). */
export async function findDisputedPayment(db: Executor, processorPaymentId: string) {
  return db
    .selectFrom('payments')
    .innerJoin('orders', 'orders.id', 'payments.order_id')
    .select([
      'payments.id as payment_id',
      'payments.organization_id',
      'payments.processor',
      'orders.id as order_id',
      'orders.customer_id',
      'orders.total_amount',
      'orders.tax_amount',
      'orders.currency',
    ])
    .where('payments.processor_payment_id', '=', processorPaymentId)
    .where('payments.status', '=', 'succeeded')
    .orderBy('payments.created_at', 'desc')
    .executeTakeFirst();
}

/** The order's succeeded payment, for a dispute opened in development (the simulated processor's). */
export async function findVisibleOrderPayment(db: Executor, subject: Subject, orderId: string) {
  return db
    .selectFrom('payments')
    .select(['payments.processor_payment_id'])
    .where(organizationVisibleTo(subject, 'payments.organization_id'))
    .where('payments.order_id', '=', orderId)
    .where('payments.status', '=', 'succeeded')
    .where('payments.processor_payment_id', 'is not', null)
    .orderBy('payments.created_at', 'desc')
    .executeTakeFirst();
}
