import { z } from 'zod/v4';
import type { PeriodicTask } from '../../platform/jobs/periodic.js';
import { defineJob } from '../../platform/jobs/queue.js';
import { deleteStaleConnectStates } from './integrations.repository.js';

/** Drops authorizations with Discord and GitHub that ended more than a day ago (used or expired). */
export const cleanConnectStatesJob = defineJob<Record<string, never>>({
  name: 'integrations.clean_states',
  schema: z.object({}),
  retryLimit: 1,
  async handle(ctx) {
    await deleteStaleConnectStates(ctx.db, new Date(ctx.clock.now().getTime() - 24 * 3600 * 1000));
  },
});

export const cleanConnectStatesSchedule: PeriodicTask = { job: cleanConnectStatesJob, everySeconds: 3600 };
