import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { ResourceNotFound } from '../../platform/http/errors.js';
import { deliveryNow, wakeDelivery } from './webhooks.delivery.js';
import {
  findOrganizationName,
  findVisibleEndpoint,
  insertEndpointEvents,
  insertTestWebhookEvent,
} from './webhooks.repository.js';

/** Not one of the reference's 27 types: receivers can tell a test from a business event. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** What a chat endpoint shows for a test (the raw format gets the `{type, data}` JSON). */
export function renderTestBody(format: 'raw' | 'discord' | 'slack', payload: string, organizationName: string) {
  if (format === 'raw') return payload;
  const text = `Test event from Tessera (${organizationName}): this endpoint receives webhooks.`;
  return JSON.stringify(
    format === 'discord'
      ? { content: text, embeds: [{ title: 'Test event', description: text, footer: { text: TEST_EVENT_TYPE } }] }
      : { text, blocks: [{ type: 'section', text: { type: 'plain_text', text } }] },
  );
}

/**
 * Queues a test event for one endpoint (extension). It goes through the normal pipeline: a stored event,
 * one per-endpoint event behind any already queued (FIFO), and the endpoint's delivery job after commit;
 * its attempts show in the deliveries list like any other. Nothing is sent inside this transaction.
 */
export async function sendTestEvent(ctx: Context, id: string): Promise<{ webhook_event_id: string }> {
  const endpoint = await findVisibleEndpoint(ctx.db, ctx.subject, id);
  if (!endpoint) throw new ResourceNotFound();
  const createdAt = ctx.clock.now();
  const eventId = randomUUID();
  const payload = JSON.stringify({
    type: TEST_EVENT_TYPE,
    data: {
      endpoint_id: endpoint.id,
      organization_id: endpoint.organization_id,
      message: 'A test event sent from the dashboard or the API.',
      created_at: createdAt.toISOString(),
    },
  });
  await insertTestWebhookEvent(ctx.db, {
    id: eventId,
    created_at: createdAt,
    organization_id: endpoint.organization_id,
    type: TEST_EVENT_TYPE,
    payload,
  });
  const organizationName = await findOrganizationName(ctx.db, endpoint.organization_id);
  const endpointEventId = randomUUID();
  await insertEndpointEvents(ctx.db, [
    {
      id: endpointEventId,
      created_at: createdAt,
      modified_at: null,
      organization_id: endpoint.organization_id,
      endpoint_id: endpoint.id,
      event_id: eventId,
      type: TEST_EVENT_TYPE,
      payload,
      body: endpoint.format === 'raw' ? null : renderTestBody(endpoint.format, payload, organizationName),
      status: 'pending',
      next_attempt_at: deliveryNow(ctx),
      last_http_code: null,
      succeeded: null,
    },
  ]);
  await wakeDelivery(ctx, endpoint.id);
  return { webhook_event_id: endpointEventId };
}
