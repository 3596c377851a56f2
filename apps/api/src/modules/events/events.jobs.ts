import { z } from 'zod/v4';
import type { Context } from '../../platform/context.js';
import { recordWebhookEvent } from '../../platform/events.js';
import type { PeriodicTask } from '../../platform/jobs/periodic.js';
import { defineJob } from '../../platform/jobs/queue.js';
import { customerStateOf } from '../customers/customers.state.js';
import { deleteCustomerStateMarks, findCustomerStateMarks, findLiveCustomers } from './events.repository.js';

/** Customers whose state is recorded per transaction of `customers.state_changes`. */
const STATE_CHANGES_PER_TRANSACTION = 100;
/**
 * Seconds a run waits after the ingest that enqueued it: the batches of those seconds coalesce into
 * it, so a customer's state is computed at most about this often however fast its events come.
 */
export const STATE_CHANGES_DELAY_SECONDS = 2;
/** Customers handled per run (another run is enqueued for the rest). */
const STATE_CHANGES_PER_RUN = 2_000;

async function recordStateChanges(ctx: Context, customerIds: string[]) {
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
 * reached by many batches in a row gets one event. Marks are read without locks and removed with the
 * events recorded for them, in short transactions, so an ingest never waits on a run.
 */
export const customerStateChangesJob = defineJob({
  name: 'customers.state_changes',
  schema: z.object({}),
  policy: 'short',
  transaction: false,
  retryLimit: 10,
  retryDelaySeconds: 2,
  retryBackoff: true,
  handle: async (ctx, _data, run) => {
    let handled = 0;
    while (handled < STATE_CHANGES_PER_RUN) {
      const marks = await findCustomerStateMarks(ctx.db, STATE_CHANGES_PER_TRANSACTION);
      if (marks.length === 0) return;
      await run!.transaction(async (tx) => {
        // A customer marked through several shards (migration 0032) gets one event.
        await recordStateChanges(tx, [...new Set(marks.map((m) => m.customer_id))]);
        await deleteCustomerStateMarks(tx.db, marks);
      });
      handled += marks.length;
      if (marks.length < STATE_CHANGES_PER_TRANSACTION) return;
    }
    await ctx.jobs.enqueue(customerStateChangesJob, {}, { singletonKey: 'pending' });
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
