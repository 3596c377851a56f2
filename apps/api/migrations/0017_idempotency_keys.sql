-- Idempotency-Key: the first answer to a write, kept 24 hours per scope (organization, user, customer
-- or public client) and key. A row is claimed (in_flight, locked until locked_until) before the handler
-- runs and completed after it with the answer; an answer of 500 or more deletes it instead.
CREATE TABLE idempotency_keys (
  scope text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  state text NOT NULL CHECK (state IN ('in_flight', 'completed')),
  locked_until timestamptz,
  response_status integer,
  response_headers jsonb,
  response_body text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (scope, key)
);

CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
