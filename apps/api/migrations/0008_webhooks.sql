-- Webhook endpoints, one delivery record per (business event, endpoint), every HTTP attempt, and an
-- email outbox (the organization is told when an endpoint is disabled; the mail issue sends the rows).

CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  deleted_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  url text NOT NULL,
  format text NOT NULL,
  -- Signing secret exactly as the seller gave it: its UTF-8 bytes are the HMAC key. Never returned.
  secret text NOT NULL,
  events text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  -- Why it was disabled: 'gone' (HTTP 410) or 'failing' (failed continuously past the threshold).
  disabled_reason text,
  -- Start of the current run of failed attempts, and its length (reset by any success).
  failing_since timestamptz,
  consecutive_failures integer NOT NULL DEFAULT 0,
  -- Delivery lease: the worker whose token is in `delivery_token` delivers to this endpoint until
  -- `delivering_until` (app clock). It is taken only when free or expired, so one worker at a time
  -- works the endpoint's queue, in order, without a transaction open during the HTTP call; a worker
  -- that died leaves a lease that simply expires.
  delivery_token uuid,
  delivering_until timestamptz
);
CREATE INDEX webhook_endpoints_organization_idx ON webhook_endpoints (organization_id, created_at);

-- What the reference calls a WebhookEvent: one per endpoint, its id is the `webhook-id` header.
-- `payload` is the stored event JSON; `body` its Discord/Slack rendering (null for raw endpoints, which
-- get `payload` byte for byte), so every retry and redelivery signs and sends the same bytes.
-- `seq` orders an endpoint's events (FIFO).
CREATE TABLE webhook_endpoint_events (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id uuid NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  type text NOT NULL,
  payload text NOT NULL,
  body text,
  -- pending (waiting for its turn or a retry), delivered, failed (retries exhausted).
  status text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  last_http_code integer,
  succeeded boolean
);
-- The head of line of an endpoint: its oldest pending event.
CREATE INDEX webhook_endpoint_events_pending_idx ON webhook_endpoint_events (endpoint_id, seq)
  WHERE status = 'pending';
-- Due pending events (the sweep that re-enqueues delivery for endpoints nobody is working).
CREATE INDEX webhook_endpoint_events_due_idx ON webhook_endpoint_events (next_attempt_at)
  WHERE status = 'pending';
CREATE INDEX webhook_endpoint_events_endpoint_idx ON webhook_endpoint_events (endpoint_id, created_at);

-- What the reference calls a WebhookDelivery: one HTTP attempt.
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  endpoint_event_id uuid NOT NULL REFERENCES webhook_endpoint_events (id) ON DELETE CASCADE,
  http_code integer,
  succeeded boolean NOT NULL,
  -- The response body, truncated; or why there was no response (timeout, refused address, …).
  response text,
  error text,
  duration_ms integer NOT NULL
);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at);

-- Outgoing email, written in the transaction that decides to send it; sending is the mail module's job.
CREATE TABLE emails (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  organization_id uuid REFERENCES organizations (id) ON DELETE CASCADE,
  to_addresses text[] NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  -- Why it was written (e.g. 'webhook_endpoint.disabled'), for the mail module and for tests.
  kind text NOT NULL,
  sent_at timestamptz
);
CREATE INDEX emails_unsent_idx ON emails (created_at) WHERE sent_at IS NULL;
