import type { Context } from '../../platform/context.js';
import type { JobRun } from '../../platform/jobs/queue.js';
import { organizationPortalUrls } from '../../platform/mail/event-emails.js';
import { queueEmail } from '../../platform/mail/outbox.js';
import { findCustomersByIds, findProductRowsByIds } from '../orders/orders.repository.js';
import type { BillingScope } from './subscriptions.repository.js';
import { lockSubscriptionById } from './subscriptions.repository.js';
import { TRIAL_REMINDER_DAYS, trialReminderAt } from './subscriptions.trials.js';
import { claimTrialReminder, findTrialsEndingBy } from './subscriptions.trials.repository.js';

const DAY_MS = 24 * 3600 * 1000;
const BATCH = 500;

/**
 * The trial-ending reminders that became due by the clock, each in a transaction of its own: the
 * subscription is claimed (`trial_reminded_at`, set once) and the email queued through the mail layer
 * in the same transaction, so it goes out exactly once whoever runs the billing. A trial canceled in
 * the meantime is not reminded (it will not be charged); a card-less trial is asked for a card.
 */
export async function remindEndingTrials(ctx: Context, run: JobRun, scope: BillingScope = {}): Promise<number> {
  const now = ctx.clock.now();
  const horizon = new Date(now.getTime() + TRIAL_REMINDER_DAYS * DAY_MS);
  const due = (
    await findTrialsEndingBy(ctx.db, now, horizon, BATCH, scope.organizationId, scope.skipTestClocks)
  ).filter((trial) => {
    const at = trial.trial_start && trial.trial_end ? trialReminderAt(trial.trial_start, trial.trial_end) : null;
    return at !== null && at <= now;
  });
  let sent = 0;
  for (const { id } of due) {
    const queued = await run.transaction(async (tx) => {
      const row = await lockSubscriptionById(tx.db, id);
      if (!row || row.status !== 'trialing' || !row.trial_end) return false;
      if (!(await claimTrialReminder(tx.db, id, tx.clock.now()))) return false;
      if (row.cancel_at_period_end) return false;
      const [customer] = (await findCustomersByIds(tx.db, [row.customer_id])).values();
      const product = (await findProductRowsByIds(tx.db, [row.product_id])).get(row.product_id);
      const urls = await organizationPortalUrls(tx, row.organization_id);
      if (!customer || !urls) return false;
      await queueEmail(tx, {
        organizationId: row.organization_id,
        to: customer.email,
        template: 'trial_ending',
        data: {
          customerName: customer.name,
          productName: product?.name ?? 'your subscription',
          trialEnd: row.trial_end,
          amount: row.amount,
          currency: row.currency,
          hasPaymentMethod: row.payment_method_id !== null,
          subscriptionUrl: urls.subscription(row.id),
          paymentMethodsUrl: urls.paymentMethods,
        },
        once: row.id,
      });
      return true;
    });
    if (queued) sent += 1;
  }
  return sent;
}
