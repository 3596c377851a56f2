import { randomUUID } from 'node:crypto';
import type { Context } from './context.js';
import { fanOutWebhookEvent } from '../modules/webhooks/webhooks.delivery.js';
import { insertEventFindingEndpoints } from '../modules/webhooks/webhooks.repository.js';
import { queueEmailsForEvent } from './mail/event-emails.js';
import type { WebhookEventType } from '../modules/webhooks/webhooks.event-types.js';

export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../modules/webhooks/webhooks.event-types.js';

/**
 * Records a webhook event in the caller's transaction, with `data` serialized exactly as the API
 * serializes the resource. It exists if and only if the change that caused it commits, and so do its
 * deliveries: one per subscribed endpoint, each with the job that sends it (modules/webhooks), and the
 * customer emails the event means (platform/mail/event-emails.ts).
 */
export async function recordWebhookEvent(
  ctx: Context,
  organizationId: string,
  type: WebhookEventType,
  data: unknown,
): Promise<string> {
  const id = randomUUID();
  const createdAt = ctx.clock.now();
  const payload = JSON.stringify({ type, data });
  const endpoints = await insertEventFindingEndpoints(ctx.db, {
    id,
    created_at: createdAt,
    organization_id: organizationId,
    type,
    payload,
  });
  await fanOutWebhookEvent(ctx, { eventId: id, organizationId, type, data, payload, createdAt }, endpoints);
  await queueEmailsForEvent(ctx, organizationId, type, data);
  return id;
}
