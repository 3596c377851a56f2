import type { Insertable, Selectable } from 'kysely';
import type { PaymentsTable } from '../../db/tables/orders.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { paginate } from '../../platform/db/paginate.js';
import type { PaymentListParams } from './payments.schemas.js';

export type PaymentRow = Selectable<PaymentsTable>;

function visible(db: Executor, subject: Subject) {
  return db
    .selectFrom('payments')
    .selectAll('payments')
    .where(organizationVisibleTo(subject, 'payments.organization_id'));
}

export async function findVisiblePayment(db: Executor, subject: Subject, id: string): Promise<PaymentRow | undefined> {
  return visible(db, subject).where('payments.id', '=', id).executeTakeFirst();
}

export async function listVisiblePayments(db: Executor, subject: Subject, params: PaymentListParams) {
  let query = visible(db, subject);
  if (params.organization_id?.length) query = query.where('payments.organization_id', 'in', params.organization_id);
  if (params.checkout_id?.length) query = query.where('payments.checkout_id', 'in', params.checkout_id);
  if (params.order_id?.length) query = query.where('payments.order_id', 'in', params.order_id);
  if (params.status?.length) query = query.where('payments.status', 'in', params.status);
  if (params.method?.length) query = query.where('payments.method', 'in', params.method);
  if (params.customer_email?.length) query = query.where('payments.customer_email', 'in', params.customer_email);
  for (const sort of params.sorting) {
    query = query.orderBy(`payments.${sort.key}`, sort.descending ? 'desc' : 'asc');
  }
  return paginate(db, query.orderBy('payments.id'), params);
}

export async function insertPayment(db: Executor, row: Insertable<PaymentsTable>): Promise<PaymentRow> {
  return db.insertInto('payments').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function insertPayments(db: Executor, rows: Insertable<PaymentsTable>[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('payments').values(rows).execute();
}

export async function linkPaymentToOrderRow(
  db: Executor,
  paymentId: string,
  orderId: string,
  at: Date,
): Promise<PaymentRow | undefined> {
  return db
    .updateTable('payments')
    .set({ order_id: orderId, modified_at: at })
    .where('id', '=', paymentId)
    .returningAll()
    .executeTakeFirst();
}

/** The order's succeeded payment (its latest, when a retried charge left several). */
export async function findSucceededPaymentOfOrder(db: Executor, orderId: string): Promise<PaymentRow | undefined> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('status', '=', 'succeeded')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** The order's latest payment, whatever its outcome (the portal's payment status). */
export async function findLatestPaymentOfOrder(db: Executor, orderId: string): Promise<PaymentRow | undefined> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}
