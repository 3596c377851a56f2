import { z } from 'zod/v4';
import { recordWebhookEvent } from '../../platform/events.js';
import { defineJob } from '../../platform/jobs/queue.js';
import { customerStateOf } from '../customers/customers.state.js';
import { findLiveCustomers } from './events.repository.js';

/**
 * After an ingest, each customer whose meters a new event counts gets one `customer.state_changed`
 * with its current meters (the reference's `event.ingested`). In a job, so a batch reaching many
 * customers answers as fast as one reaching a few.
 */
export const eventsIngestedJob = defineJob({
  name: 'events.ingested',
  schema: z.object({ customer_ids: z.array(z.uuid()) }),
  retryLimit: 10,
  retryDelaySeconds: 2,
  retryBackoff: true,
  handle: async (ctx, data) => {
    for (const customer of await findLiveCustomers(ctx.db, data.customer_ids)) {
      await recordWebhookEvent(
        ctx,
        customer.organization_id,
        'customer.state_changed',
        await customerStateOf(ctx.db, customer),
      );
    }
  },
});
