import { z } from 'zod/v4';
import { recordWebhookEvent } from '../../platform/events.js';
import type { PeriodicTask } from '../../platform/jobs/periodic.js';
import { defineJob } from '../../platform/jobs/queue.js';
import { customerStateOf } from '../customers/customers.state.js';
import { findLiveCustomers, takeCustomerStatesChanged } from './events.repository.js';

/** Customers handled per run of `customers.state_changes` (another run is enqueued for the rest). */
const STATE_CHANGES_PER_RUN = 500;

async function recordStateChanges(ctx: Parameters<typeof recordWebhookEvent>[0], customerIds: string[]) {
  for (const customer of await findLiveCustomers(ctx.db, customerIds)) {
    await recordWebhookEvent(
      ctx,
      customer.organization_id,
      'customer.state_changed',
      await customerStateOf(ctx.db, customer),
    );
  }
}

/**
 * After ingests, each customer whose meters a new event counts gets one `customer.state_changed` with
 * its current meters (the reference's `event.ingested`). Ingests mark the customers
 * (`customer_state_changes`) and enqueue this job, of which at most one waits at a time: a customer
 * reached by many batches in a row gets one event, and ingestion never waits on the states.
 */
export const customerStateChangesJob = defineJob({
  name: 'customers.state_changes',
  schema: z.object({}),
  policy: 'short',
  retryLimit: 10,
  retryDelaySeconds: 2,
  retryBackoff: true,
  handle: async (ctx) => {
    const customerIds = await takeCustomerStatesChanged(ctx.db, STATE_CHANGES_PER_RUN);
    await recordStateChanges(ctx, customerIds);
    if (customerIds.length === STATE_CHANGES_PER_RUN) {
      await ctx.jobs.enqueue(customerStateChangesJob, {}, { singletonKey: 'pending' });
    }
  },
});

/**
 * Every minute as well: an ingest that committed its marks just as the waiting run started (its
 * enqueue did nothing, and the run did not see them yet) is handled by the next.
 */
export const customerStateChangesSchedule: PeriodicTask = {
  job: customerStateChangesJob as unknown as PeriodicTask['job'],
  everySeconds: 60,
};

/** Jobs enqueued before `customers.state_changes` existed, with their customers. */
export const eventsIngestedJob = defineJob({
  name: 'events.ingested',
  schema: z.object({ customer_ids: z.array(z.uuid()) }),
  retryLimit: 10,
  retryDelaySeconds: 2,
  retryBackoff: true,
  handle: async (ctx, data) => recordStateChanges(ctx, data.customer_ids),
});
