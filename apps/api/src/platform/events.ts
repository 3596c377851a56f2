import { randomUUID } from 'node:crypto';
import type { Context } from './context.js';
import { beforeCommit } from './db/commit-hooks.js';
import type { Executor } from './db/database.js';
import { deliveryNow, storeWebhookEvents, type FanOutInput } from '../modules/webhooks/webhooks.delivery.js';
import { queueEmailsForEvent } from './mail/event-emails.js';
import type { WebhookEventType } from '../modules/webhooks/webhooks.event-types.js';

export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../modules/webhooks/webhooks.event-types.js';

/** After the invoice numbers (orders.numbering.ts), with nothing after it that records events. */
const PHASE = 10;

const recordedIn = new WeakMap<Executor, FanOutInput[]>();

/**
 * Records a webhook event in the caller's transaction, with `data` serialized exactly as the API
 * serializes the resource (when it is recorded: later changes to `data` are not in it). It exists if
 * and only if the change that caused it commits, and so do its deliveries: one per subscribed endpoint,
 * each with the job that sends it (modules/webhooks), and the customer emails the event means
 * (platform/mail/event-emails.ts, queued at once).
 *
 * A transaction's events are stored together as it commits (a commit hook: three statements for all of
 * them instead of three for each), in the order they were recorded; an endpoint receives them in that
 * order, after the events of transactions that committed before. On the pool (no transaction) the
 * event is stored at once.
 */
export async function recordWebhookEvent(
  ctx: Context,
  organizationId: string,
  type: WebhookEventType,
  data: unknown,
): Promise<string> {
  const id = randomUUID();
  const createdAt = ctx.clock.now();
  const event: FanOutInput = {
    eventId: id,
    organizationId,
    type,
    data,
    payload: JSON.stringify({ type, data }),
    createdAt,
    due: deliveryNow(ctx),
  };
  const db = ctx.db;
  if (!db.isTransaction) {
    await storeWebhookEvents(db, [event]);
  } else {
    let recorded = recordedIn.get(db);
    if (!recorded) {
      // Set before waiting for the hook's registration: an event recorded meanwhile (calls of one
      // transaction running at once) joins this list, stored by this hook.
      const events: FanOutInput[] = [];
      recordedIn.set(db, events);
      recorded = events;
      await beforeCommit(db, 'webhooks.events', PHASE, async () => {
        recordedIn.delete(db);
        await storeWebhookEvents(db, events);
      });
    }
    recorded.push(event);
  }
  await queueEmailsForEvent(ctx, organizationId, type, data);
  return id;
}
