import { z } from 'zod/v4';
import { oneOrList, paginationQuery } from '../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../platform/http/schemas.js';
import { SUBSCRIBABLE_WEBHOOK_EVENT_TYPES } from './webhooks.event-types.js';

export const WebhookFormat = z.enum(['raw', 'discord', 'slack']).meta({ id: 'WebhookFormat' });
export const WebhookEventType = z
  .enum(SUBSCRIBABLE_WEBHOOK_EVENT_TYPES)
  .describe(
    "The reference's event types, then Tessera's extensions (`organization.member_removed`), sent only to " +
      'endpoints that subscribe to them by name.',
  )
  .meta({ id: 'WebhookEventType' });

export const WebhookEndpoint = z
  .object({
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    id: z.uuid(),
    url: z.string(),
    format: WebhookFormat,
    organization_id: z.uuid(),
    events: z.array(WebhookEventType),
    enabled: z.boolean().meta({
      description:
        'Whether events are sent. Endpoints are disabled after HTTP 410 or long continuous failure; PATCH re-enables.',
    }),
    secret: z.string().optional().meta({
      description:
        'The signing secret, only in the answer of `PATCH …/{id}/secret` that generated it; no other read shows it.',
    }),
  })
  .meta({ id: 'WebhookEndpoint' });

const Url = z.string().min(1).max(2083).meta({ format: 'uri' });
const Secret = z.string().min(1).max(512);

export const WebhookEndpointCreate = z
  .object({
    url: Url,
    format: WebhookFormat,
    secret: Secret.meta({ description: 'The secret used to sign the webhook events (HMAC key: its UTF-8 bytes).' }),
    events: z.array(WebhookEventType),
    organization_id: Id().nullable().optional(),
  })
  .meta({ id: 'WebhookEndpointCreate' });

/** Every key optional; a key left out or null is not changed (as the reference does). */
export const WebhookEndpointUpdate = z
  .object({
    url: Url.nullable().optional(),
    format: WebhookFormat.nullable().optional(),
    secret: Secret.nullable().optional(),
    events: z.array(WebhookEventType).nullable().optional(),
    enabled: z.boolean().nullable().optional(),
  })
  .meta({ id: 'WebhookEndpointUpdate' });

export const ListResourceWebhookEndpoint = ListResource(WebhookEndpoint, 'ListResourceWebhookEndpoint');

export const WebhookEndpointListQuery = z.object({
  organization_id: oneOrList(Id()),
  ...paginationQuery,
});

export const WebhookEvent = z
  .object({
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    id: z.uuid(),
    last_http_code: z.int().nullable(),
    succeeded: z.boolean().nullable(),
    payload: z.string(),
  })
  .meta({ id: 'WebhookEvent' });

export const WebhookDelivery = z
  .object({
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    id: z.uuid(),
    http_code: z.int().nullable(),
    succeeded: z.boolean(),
    response: z
      .string()
      .nullable()
      .meta({ description: 'The response body (first 2048 characters), or why there was no response.' }),
    webhook_event: WebhookEvent,
  })
  .meta({ id: 'WebhookDelivery' });

export const ListResourceWebhookDelivery = ListResource(WebhookDelivery, 'ListResourceWebhookDelivery');

export const WebhookDeliveryListQuery = z.object({
  endpoint_id: oneOrList(Id()),
  ...paginationQuery,
});

export const Accepted = z.object({}).meta({ id: 'WebhookRedeliveryAccepted' });

/** Extension: a test event queued for one endpoint; its attempts show in the deliveries list. */
export const WebhookTestEventQueued = z
  .object({ webhook_event_id: z.uuid().describe('The per-endpoint event (`webhook-id`) of the test.') })
  .meta({ id: 'WebhookTestEventQueued' });

export type WebhookEndpointCreateInput = z.output<typeof WebhookEndpointCreate>;
export type WebhookEndpointUpdateInput = z.output<typeof WebhookEndpointUpdate>;
export type WebhookEndpointListParams = z.output<typeof WebhookEndpointListQuery>;
export type WebhookDeliveryListParams = z.output<typeof WebhookDeliveryListQuery>;
