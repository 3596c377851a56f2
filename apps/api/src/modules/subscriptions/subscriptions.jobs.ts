import { z } from 'zod/v4';
import { defineJob } from '../../platform/jobs/queue.js';
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
  handle: async (ctx, data) => {
    for (const { id } of await findBillableSubscriptionIdsOfCustomer(ctx.db, data.customer_id)) {
      const row = await lockSubscriptionById(ctx.db, id);
      if (!row || !(BILLABLE_STATUSES as readonly string[]).includes(row.status)) continue;
      await endSubscription(ctx, row);
    }
  },
});
