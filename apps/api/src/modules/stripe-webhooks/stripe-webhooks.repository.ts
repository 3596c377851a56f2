import type { Executor } from '../../platform/db/database.js';

/** Records a Stripe event as handled; false when it was handled before (Stripe delivers at least once). */
export async function markStripeEventHandled(db: Executor, id: string, type: string, at: Date): Promise<boolean> {
  const inserted = await db
    .insertInto('stripe_webhook_events')
    .values({ id, type, created_at: at })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function isStripeEventHandled(db: Executor, id: string): Promise<boolean> {
  const row = await db.selectFrom('stripe_webhook_events').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** The payment a processor payment id (a PaymentIntent) was recorded as, with its order. */
export async function findPaymentByProcessorId(db: Executor, processorPaymentId: string) {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('processor_payment_id', '=', processorPaymentId)
    .where('status', '=', 'succeeded')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

export async function findDispute(db: Executor, processorDisputeId: string) {
  return db
    .selectFrom('order_disputes')
    .selectAll()
    .where('processor_dispute_id', '=', processorDisputeId)
    .forUpdate()
    .executeTakeFirst();
}

export async function insertDispute(
  db: Executor,
  row: {
    id: string;
    created_at: Date;
    organization_id: string;
    order_id: string;
    payment_id: string | null;
    processor_dispute_id: string;
    amount: number;
    currency: string;
    reason: string;
    status: string;
  },
): Promise<void> {
  await db
    .insertInto('order_disputes')
    .values({ ...row, modified_at: null })
    .execute();
}

export async function updateDisputeStatus(db: Executor, id: string, status: string, at: Date): Promise<void> {
  await db.updateTable('order_disputes').set({ status, modified_at: at }).where('id', '=', id).execute();
}

export async function findDisputesOfOrder(db: Executor, orderId: string) {
  return db.selectFrom('order_disputes').selectAll().where('order_id', '=', orderId).orderBy('created_at').execute();
}
