import { z } from 'zod/v4';
import type { Context } from '../../platform/context.js';
import type { PeriodicTask } from '../../platform/jobs/periodic.js';
import { defineJob, runIn, type JobRun } from '../../platform/jobs/queue.js';
import { attemptCall, askProcessor, settleAttempt } from './checkouts.payment.js';
import { findStaleAttempts, lockPaymentAttempt, updatePaymentAttempt } from './checkouts.repository.js';

/** An attempt in flight for longer than this lost its request (a crash between the steps). */
export const STALE_ATTEMPT_MS = 60_000;
/** A buyer who has not authenticated within this has left; the processor is asked how it ended. */
export const ABANDONED_AUTHENTICATION_MS = 60 * 60_000;
const BATCH = 50;

/**
 * Finishes checkout payments nobody is finishing: attempts left `pending` or `interrupted` by a crash
 * or a lost answer, `processing` ones, and authentications left for an hour. Each is taken in a short
 * transaction (so two runs never ask twice), the processor is asked by the attempt's idempotency key
 * outside any transaction (the call is made again with the same key when the processor never received
 * it, which cannot charge twice), and step 3 settles it exactly once. Outcomes still waiting are left
 * for the next run.
 */
export async function reconcileCheckoutPayments(
  ctx: Context,
  run: JobRun = ctx.transactions ?? runIn(ctx),
): Promise<{ settled: number; waiting: number }> {
  const summary = { settled: 0, waiting: 0 };
  if (!ctx.payments) return summary;
  const now = ctx.clock.now();
  const stale = await findStaleAttempts(
    ctx.db,
    new Date(now.getTime() - STALE_ATTEMPT_MS),
    new Date(now.getTime() - ABANDONED_AUTHENTICATION_MS),
    BATCH,
  );
  for (const candidate of stale) {
    const call = await run.transaction(async (tx) => {
      const attempt = await lockPaymentAttempt(tx.db, candidate.id);
      // Someone settled or touched it since it was listed.
      if (!attempt || attempt.status !== candidate.status || +attempt.modified_at !== +candidate.modified_at)
        return null;
      const taken = await updatePaymentAttempt(tx.db, attempt.id, { modified_at: tx.clock.now() });
      return attemptCall(tx, taken);
    });
    if (!call) continue;
    const outcome = await askProcessor(ctx.payments, call, true, ctx.log);
    if (outcome.status === 'interrupted' || outcome.status === 'requires_action' || outcome.status === 'processing') {
      summary.waiting++;
      continue;
    }
    const settlement = await settleAttempt(ctx, run, call.attempt.id, outcome);
    if (settlement.status === 'succeeded' || settlement.status === 'failed') summary.settled++;
  }
  if (summary.settled > 0 || summary.waiting > 0) ctx.log.info(summary, 'checkout payments reconciled');
  return summary;
}

export const reconcileCheckoutPaymentsJob = defineJob<Record<string, never>>({
  name: 'checkout.reconcile_payments',
  schema: z.object({}),
  // Processor calls: no transaction may be open across them.
  transaction: false,
  retryLimit: 1,
  async handle(ctx, _data, run) {
    await reconcileCheckoutPayments(ctx, run ?? runIn(ctx));
  },
});

/** Every minute: a crashed payment is finished one to two minutes later. */
export const reconcileCheckoutPaymentsSchedule: PeriodicTask = { job: reconcileCheckoutPaymentsJob, everySeconds: 60 };
