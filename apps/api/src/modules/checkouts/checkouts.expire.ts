import { z } from 'zod/v4';
import type { Context } from '../../platform/context.js';
import { recordWebhookEvent } from '../../platform/events.js';
import { defineJob } from '../../platform/jobs/queue.js';
import type { PeriodicTask } from '../../platform/jobs/periodic.js';
import { expireOpenCheckouts } from './checkouts.repository.js';
import { serializeCheckout } from './checkouts.serializer.js';
import { loadCheckoutStates } from './checkouts.state.js';

/** The most checkouts one transaction expires: a backlog is worked off over the next runs. */
export const EXPIRE_BATCH = 500;

/**
 * Marks open checkouts past `expires_at` on `ctx`'s clock as expired (of one organization, or of all)
 * and records `checkout.expired` for each, as the reference does since 2026, in the caller's
 * transaction: the event exists if and only if the expiry commits. Returns how many expired. Public
 * calls already answer 410 from `expires_at` alone, whatever the status.
 */
export async function expireCheckouts(ctx: Context, organizationId?: string): Promise<number> {
  const rows = await expireOpenCheckouts(ctx.db, ctx.clock.now(), EXPIRE_BATCH, organizationId);
  for (const state of await loadCheckoutStates(ctx.db, rows)) {
    await recordWebhookEvent(ctx, state.row.organization_id, 'checkout.expired', serializeCheckout(ctx.config, state));
  }
  return rows.length;
}

/** Expires the open checkouts past their expiry on the app clock, in the job's transaction. */
export const expireCheckoutsJob = defineJob<Record<string, never>>({
  name: 'checkout.expire_open_checkouts',
  schema: z.object({}),
  retryLimit: 1,
  async handle(ctx) {
    const expired = await expireCheckouts(ctx);
    if (expired > 0) ctx.log.info({ expired }, 'open checkouts expired');
  },
});

/** Every minute (the reference runs it every 15 minutes; expiry is then at most a minute late). */
export const expireCheckoutsSchedule: PeriodicTask = { job: expireCheckoutsJob, everySeconds: 60 };
