import { z } from 'zod/v4';
import { defineJob } from '../../platform/jobs/queue.js';
import type { PeriodicTask } from '../../platform/jobs/periodic.js';
import { expireOpenCheckouts } from './checkouts.repository.js';

/**
 * Marks open checkouts past `expires_at` (app clock) as expired. As the reference's
 * `expire_open_checkouts`, this bulk update sends no webhook; public calls already answer 410 from
 * `expires_at` alone, whatever the status.
 */
export const expireCheckoutsJob = defineJob<Record<string, never>>({
  name: 'checkout.expire_open_checkouts',
  schema: z.object({}),
  retryLimit: 1,
  async handle(ctx) {
    const expired = await expireOpenCheckouts(ctx.db, ctx.clock.now());
    if (expired > 0) ctx.log.info({ expired }, 'open checkouts expired');
  },
});

/** Every minute (the reference runs it every 15 minutes; expiry is then at most a minute late). */
export const expireCheckoutsSchedule: PeriodicTask = { job: expireCheckoutsJob, everySeconds: 60 };
