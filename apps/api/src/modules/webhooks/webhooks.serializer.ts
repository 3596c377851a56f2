import type { z } from 'zod/v4';
import { iso } from '../../platform/http/schemas.js';
import type { WebhookDeliveryWithEventRow, WebhookEndpointRow } from './webhooks.repository.js';
import type { WebhookDelivery, WebhookEndpoint } from './webhooks.schemas.js';

export type WebhookEndpointWire = z.input<typeof WebhookEndpoint>;
export type WebhookDeliveryWire = z.input<typeof WebhookDelivery>;

/** The secret is not returned (only a reset answers the secret it generated: webhooks.service.ts). */
export function serializeEndpoint(row: WebhookEndpointRow): WebhookEndpointWire {
  return {
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    url: row.url,
    format: row.format,
    organization_id: row.organization_id,
    events: row.events as WebhookEndpointWire['events'],
    enabled: row.enabled,
  };
}

export function serializeDelivery(row: WebhookDeliveryWithEventRow): WebhookDeliveryWire {
  return {
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    http_code: row.http_code,
    succeeded: row.succeeded,
    response: row.response ?? row.error,
    webhook_event: {
      created_at: iso(row.event_created_at),
      modified_at: iso(row.event_modified_at),
      id: row.endpoint_event_id,
      last_http_code: row.last_http_code,
      succeeded: row.event_succeeded,
      payload: row.payload,
    },
  };
}
