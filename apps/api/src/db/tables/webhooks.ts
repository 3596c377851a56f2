import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './types.js';

/** Tables of migration 0008: webhook endpoints, per-endpoint events, delivery attempts, email outbox. */
export interface WebhookEndpointsTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  organization_id: string;
  url: string;
  format: 'raw' | 'discord' | 'slack';
  secret: string;
  events: string[];
  enabled: Generated<boolean>;
  disabled_reason: 'gone' | 'failing' | null;
  failing_since: NullableTimestamp;
  consecutive_failures: Generated<number>;
  /** The delivery lease (see the migration): holder's token and expiry. */
  delivery_token: string | null;
  delivering_until: NullableTimestamp;
}

export interface WebhookEndpointEventsTable {
  id: string;
  seq: ColumnType<number, never, never>;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  organization_id: string;
  endpoint_id: string;
  event_id: string;
  type: string;
  payload: string;
  body: string | null;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: NullableTimestamp;
  last_http_code: number | null;
  succeeded: boolean | null;
}

export interface WebhookDeliveriesTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  organization_id: string;
  endpoint_id: string;
  endpoint_event_id: string;
  http_code: number | null;
  succeeded: boolean;
  response: string | null;
  error: string | null;
  duration_ms: number;
}

export interface EmailsTable {
  id: string;
  created_at: Timestamp;
  organization_id: string | null;
  to_addresses: string[];
  subject: string;
  text_body: string;
  kind: string;
  sent_at: NullableTimestamp;
  /** Migration 0025 (platform/mail). */
  template: string | null;
  html_body: string | null;
  status: ColumnType<
    'pending' | 'sent' | 'failed',
    'pending' | 'sent' | 'failed' | undefined,
    'pending' | 'sent' | 'failed'
  >;
  attempts: Generated<number>;
  next_attempt_at: NullableTimestamp;
  sending_until: NullableTimestamp;
  last_error: string | null;
  transport: string | null;
}

export interface WebhooksTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_endpoint_events: WebhookEndpointEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  emails: EmailsTable;
}
