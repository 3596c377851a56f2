import { z } from 'zod/v4';
import { defineJob, runIn } from '../../platform/jobs/queue.js';
import { withStripeTax } from '../billing/billing.stripe-tax.js';
import {
  BILLABLE_STATUSES,
  findBillableSubscriptionIdsOfCustomer,
  lockSubscriptionById,
} from './subscriptions.repository.js';
import { endSubscription } from './subscriptions.service.js';

/**
 * A customer was deleted: their subscriptions end now (the reference's `subscription.cancel_customer`).
 * Nobody can be charged for a customer who no longer exists; ending revokes each subscription's
 * benefits and records `subscription.canceled` and `subscription.revoked`.
 */
export const cancelCustomerSubscriptionsJob = defineJob({
  name: 'subscription.cancel_customer',
  schema: z.object({ customer_id: z.uuid() }),
  retryLimit: 10,
  retryDelaySeconds: 2,
  retryBackoff: true,
  // One transaction per subscription: its final order may be taxed by Stripe Tax, asked before the
  // transaction that writes it (billing.stripe-tax.ts). A retry ends those still billable.
  transaction: false,
  handle: async (ctx, data, run) => {
    for (const { id } of await findBillableSubscriptionIdsOfCustomer(ctx.db, data.customer_id)) {
      await withStripeTax(ctx, run ?? runIn(ctx), async (tx) => {
        const row = await lockSubscriptionById(tx.db, id);
        if (!row || !(BILLABLE_STATUSES as readonly string[]).includes(row.status)) return;
        await endSubscription(tx, row, {}, 'subscription_update', 'customer_deleted');
      });
    }
  },
});
