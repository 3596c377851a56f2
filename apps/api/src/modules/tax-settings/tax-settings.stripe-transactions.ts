import { z } from 'zod/v4';
import type { Context } from '../../platform/context.js';
import { defineJob, runIn, type JobRun } from '../../platform/jobs/queue.js';
import { stripeTaxAvailable, stripeTaxCalculatorFor } from '../../platform/stripe-tax.js';
import type { TaxDetails } from '../../platform/tax.js';
import {
  findOrderStripeTax,
  findOrdersWithoutStripeTaxTransaction,
  isCollected,
  recordStripeTaxTransactionId,
} from './tax-settings.repository.js';

/**
 * A paid order taxed by Stripe Tax becomes a Stripe tax transaction (Stripe's record of the tax
 * collected, what its reports file), whichever way it was paid: at confirm, after 3-D Secure through
 * Stripe's webhook or the reconciliation job, at a renewal charged or paid by the credit balance
 * (docs/tax.md). The transaction that marks the order paid enqueues `tax.stripe-transaction`, so the
 * record exists only if the payment does; the job calls Stripe with no transaction open and keeps the
 * transaction id on the order. Everything is idempotent: the job is enqueued once per order (its
 * singleton key), Stripe answers a repeated call with the same transaction (idempotency key and
 * reference: the order id), and the id is written only where none is (a webhook received twice, the
 * job retried, the sweep racing it). What a failure left behind, the periodic sweep records.
 */
export interface RecordStripeTaxTransaction {
  order_id: string;
}

export const recordStripeTaxTransactionJob = defineJob<RecordStripeTaxTransaction>({
  name: 'tax.stripe-transaction',
  schema: z.object({ order_id: z.uuid() }),
  // A Stripe call: no transaction may be open across it.
  transaction: false,
  retryLimit: 5,
  retryDelaySeconds: 30,
  retryBackoff: true,
  async handle(ctx, data, run) {
    await recordStripeTaxTransaction(ctx, run ?? runIn(ctx), data.order_id);
  },
});

function needsTransaction(details: unknown): details is TaxDetails & { calculation_id: string } {
  const tax = details as Partial<TaxDetails> | null | undefined;
  return tax?.provider === 'stripe_tax' && Boolean(tax.calculation_id) && !tax.transaction_id;
}

/** In the transaction that marks an order paid: its Stripe tax transaction is recorded after commit. */
export async function onOrderPaidRecordStripeTax(ctx: Context, order: { id: string; tax_details: unknown }) {
  if (!needsTransaction(order.tax_details)) return;
  await ctx.jobs.enqueue(recordStripeTaxTransactionJob, { order_id: order.id }, { singletonKey: order.id });
}

/**
 * Records one order's tax transaction at Stripe; true when this call recorded it. A Stripe error is
 * thrown (the job retries; the sweep tries again later).
 */
export async function recordStripeTaxTransaction(ctx: Context, run: JobRun, orderId: string): Promise<boolean> {
  if (!stripeTaxAvailable(ctx.config)) return false;
  const order = await run.transaction((tx) => findOrderStripeTax(tx.db, orderId));
  if (!order || !isCollected(order.status) || !needsTransaction(order.tax_details)) return false;
  const details = order.tax_details;
  const calculator = stripeTaxCalculatorFor(ctx.config, details.inclusive);
  if (!calculator) return false;
  const { transactionId } = await calculator.recordTransaction(details.calculation_id, order.id);
  return run.transaction((tx) => recordStripeTaxTransactionId(tx.db, order.id, transactionId));
}

/** The sweep's part: paid orders whose transaction a failure left unrecorded (a failure is logged). */
export async function recordMissingStripeTaxTransactions(ctx: Context, run: JobRun): Promise<number> {
  if (!stripeTaxAvailable(ctx.config)) return 0;
  const orders = await run.transaction((tx) => findOrdersWithoutStripeTaxTransaction(tx.db, 50));
  let recorded = 0;
  for (const { id } of orders) {
    try {
      if (await recordStripeTaxTransaction(ctx, run, id)) recorded += 1;
    } catch (error) {
      ctx.log.error({ err: error, orderId: id }, 'Stripe Tax transaction not recorded');
    }
  }
  return recorded;
}
