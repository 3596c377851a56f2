import type { Insertable, Selectable, Updateable } from 'kysely';
import type { RefundsTable } from '../../db/tables/refunds.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { paginate } from '../../platform/db/paginate.js';
import type { RefundListParams } from './refunds.schemas.js';

export type RefundRow = Selectable<RefundsTable>;

function visible(db: Executor, subject: Subject) {
  return db.selectFrom('refunds').selectAll('refunds').where(organizationVisibleTo(subject, 'refunds.organization_id'));
}

export async function listVisibleRefunds(db: Executor, subject: Subject, params: RefundListParams) {
  let query = visible(db, subject);
  if (params.id?.length) query = query.where('refunds.id', 'in', params.id);
  if (params.organization_id?.length) query = query.where('refunds.organization_id', 'in', params.organization_id);
  if (params.order_id?.length) query = query.where('refunds.order_id', 'in', params.order_id);
  if (params.subscription_id?.length) query = query.where('refunds.subscription_id', 'in', params.subscription_id);
  if (params.customer_id?.length) query = query.where('refunds.customer_id', 'in', params.customer_id);
  // As the reference: `succeeded=true` narrows to succeeded refunds, `false` does not filter.
  if (params.succeeded === true) query = query.where('refunds.status', '=', 'succeeded');
  for (const sort of params.sorting) {
    query = query.orderBy(`refunds.${sort.key}`, sort.descending ? 'desc' : 'asc');
  }
  return paginate(db, query.orderBy('refunds.id'), params);
}

export async function insertRefund(db: Executor, row: Insertable<RefundsTable>): Promise<RefundRow> {
  return db.insertInto('refunds').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function lockRefund(db: Executor, id: string): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function findRefundById(db: Executor, id: string): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findRefundByIdempotencyKey(db: Executor, key: string): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('idempotency_key', '=', key).executeTakeFirst();
}

export async function findRefundByProcessorId(db: Executor, processorRefundId: string): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('processor_refund_id', '=', processorRefundId).executeTakeFirst();
}

export async function updateRefundRow(db: Executor, id: string, changes: Updateable<RefundsTable>): Promise<RefundRow> {
  return db.updateTable('refunds').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/**
 * What the order's refunds hold: the amount and tax of those still pending (reserved until they
 * settle), and what went or is going back to the card and to the credit balance (succeeded and
 * pending). Read under the order's row lock.
 */
export async function sumRefundsOfOrder(db: Executor, orderId: string) {
  const row = await db
    .selectFrom('refunds')
    .select((eb) => [
      eb.fn
        .sum<string | null>(eb.case().when('status', '=', 'pending').then(eb.ref('amount')).else(0).end())
        .as('pending_amount'),
      eb.fn
        .sum<string | null>(eb.case().when('status', '=', 'pending').then(eb.ref('tax_amount')).else(0).end())
        .as('pending_tax_amount'),
      eb.fn.sum<string | null>('processor_amount').as('processor_amount'),
      eb.fn.sum<string | null>('balance_amount').as('balance_amount'),
    ])
    .where('order_id', '=', orderId)
    .where('status', 'in', ['pending', 'succeeded'])
    .executeTakeFirstOrThrow();
  return {
    pending_amount: Number(row.pending_amount ?? 0),
    pending_tax_amount: Number(row.pending_tax_amount ?? 0),
    processor_amount: Number(row.processor_amount ?? 0),
    balance_amount: Number(row.balance_amount ?? 0),
  };
}

/** The payment the processor refunds: the order's succeeded payment with a processor id. */
export async function findRefundablePayment(db: Executor, orderId: string) {
  return db
    .selectFrom('payments')
    .select(['id', 'processor', 'processor_payment_id', 'amount'])
    .where('order_id', '=', orderId)
    .where('status', '=', 'succeeded')
    .where('processor_payment_id', 'is not', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

export async function findProcessorPaymentId(db: Executor, paymentId: string): Promise<string | null> {
  const row = await db
    .selectFrom('payments')
    .select('processor_payment_id')
    .where('id', '=', paymentId)
    .executeTakeFirst();
  return row?.processor_payment_id ?? null;
}

/** Refunds left `pending` since before `before` (a crash or a lost answer between the steps). */
export async function findStalePendingRefunds(db: Executor, before: Date, limit: number) {
  return db
    .selectFrom('refunds')
    .select(['id', 'modified_at'])
    .where('status', '=', 'pending')
    .where('modified_at', '<', before)
    .orderBy('modified_at')
    .limit(limit)
    .execute();
}

/** Whether Tessera made refunds of the order (they, not the processor's totals, account for it). */
export async function hasRefunds(db: Executor, orderId: string): Promise<boolean> {
  const row = await db.selectFrom('refunds').select('id').where('order_id', '=', orderId).limit(1).executeTakeFirst();
  return row !== undefined;
}
