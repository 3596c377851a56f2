import { z } from 'zod/v4';
import type { PeriodicTask } from '../../platform/jobs/periodic.js';
import { defineJob } from '../../platform/jobs/queue.js';
import { deleteExpiredStored } from './oauth2.repository.js';

/**
 * Drops what the authorization server no longer needs: expired codes, tokens, grants, sessions and
 * interactions. Their lifetimes are the library's, on the wall clock (never the test clock).
 */
export const cleanOAuth2StoreJob = defineJob<Record<string, never>>({
  name: 'oauth2.clean',
  schema: z.object({}),
  retryLimit: 1,
  async handle(ctx) {
    await deleteExpiredStored(ctx.db, new Date());
  },
});

export const cleanOAuth2StoreSchedule: PeriodicTask = { job: cleanOAuth2StoreJob, everySeconds: 3600 };
