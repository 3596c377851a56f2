import { z } from 'zod/v4';
import type { Context } from '../../platform/context.js';
import { defineJob, runIn, type JobRun } from '../../platform/jobs/queue.js';
import type { PeriodicTask } from '../../platform/jobs/periodic.js';
import { stripeTaxAvailable, stripeTaxCalculatorFor } from '../../platform/stripe-tax.js';
import type { TaxDetails } from '../../platform/tax.js';
import { findUnreversedStripeTaxRefunds, recordStripeTaxReversal } from './tax-settings.repository.js';
import { recordMissingStripeTaxTransactions } from './tax-settings.stripe-transactions.js';

/**
 * The Stripe Tax sweep (docs/tax.md). First, paid orders whose tax transaction a failure left
 * unrecorded are recorded (`tax-settings.stripe-transactions.ts`). Then a refund of an order whose tax
 * Stripe Tax recorded is reversed there too, so Stripe's tax reports net the refund out. The refunds
 * module knows nothing of it: this sweep finds succeeded refunds not yet reversed, asks Stripe with no
 * transaction open (idempotent by the refund's id), and records the reversal on the order. A failure is
 * logged and tried again on the next sweep.
 */
export async function reverseStripeTaxRefunds(ctx: Context, run: JobRun): Promise<number> {
  if (!stripeTaxAvailable(ctx.config)) return 0;
  await recordMissingStripeTaxTransactions(ctx, run);
  const refunds = await run.transaction((tx) => findUnreversedStripeTaxRefunds(tx.db, 50));
  let reversed = 0;
  for (const refund of refunds) {
    const details = refund.tax_details as TaxDetails;
    const calculator = stripeTaxCalculatorFor(ctx.config, details.inclusive);
    if (!calculator || !details.transaction_id) continue;
    const withTax = refund.amount + refund.tax_amount;
    try {
      const { transactionId } = await calculator.reverse({
        transactionId: details.transaction_id,
        reference: refund.refund_id,
        amountWithTax: withTax,
        full: withTax >= refund.order_total,
      });
      await run.transaction((tx) => recordStripeTaxReversal(tx.db, refund.order_id, refund.refund_id, transactionId));
      reversed += 1;
    } catch (error) {
      ctx.log.error({ err: error, refundId: refund.refund_id }, 'Stripe Tax reversal not recorded');
    }
  }
  return reversed;
}

export const reverseStripeTaxRefundsJob = defineJob<Record<string, never>>({
  name: 'tax.stripe-reversals',
  schema: z.object({}),
  // Stripe calls: no transaction may be open across them.
  transaction: false,
  retryLimit: 1,
  async handle(ctx, _data, run) {
    await reverseStripeTaxRefunds(ctx, run ?? runIn(ctx));
  },
});

/** Every five minutes: Stripe's tax records follow payments and refunds within minutes. */
export const reverseStripeTaxRefundsSchedule: PeriodicTask = { job: reverseStripeTaxRefundsJob, everySeconds: 300 };
