import { z } from 'zod/v4';
import { defineJob } from '../../platform/jobs/queue.js';
import type { PeriodicTask } from '../../platform/jobs/periodic.js';
import { foldStaleHours, organizationsWithStaleHours } from './metrics-hours.repository.js';

/**
 * `metrics.hours`: stores the stale hours of every organization that has some, one transaction per
 * organization. Reads are exact without it (they compute stale hours themselves); it keeps them fast.
 */
export const metricsHoursJob = defineJob({
  name: 'metrics.hours',
  schema: z.object({}),
  transaction: false,
  retryLimit: 3,
  retryDelaySeconds: 5,
  retryBackoff: true,
  handle: async (ctx, _data, run) => {
    for (let round = 0; round < 10; round++) {
      const organizations = await organizationsWithStaleHours(ctx.db, 50);
      if (organizations.length === 0) return;
      for (const organizationId of organizations) {
        if (run) await run.transaction((tx) => foldStaleHours(tx.db, organizationId));
        else await ctx.db.transaction().execute((tx) => foldStaleHours(tx, organizationId));
      }
    }
  },
});

export const metricsHoursSchedule: PeriodicTask = {
  job: metricsHoursJob as unknown as PeriodicTask['job'],
  everySeconds: 15,
};
