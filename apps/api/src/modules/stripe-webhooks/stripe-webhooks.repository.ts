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
