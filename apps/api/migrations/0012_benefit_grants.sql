-- The grant engine: one grant per (customer, benefit, scope), license keys and their activations,
-- system events (meter credits and grant events), and the per-key rate limit of the public license key
-- calls. Ids come from the application; timestamps from the application clock (never now()).

-- 0003 makes (subscription_id, customer_id, benefit_id) unique, which says nothing when the scope is
-- a one-time order (subscription_id IS NULL): this makes order-scoped grants unique too.
CREATE UNIQUE INDEX benefit_grants_order_customer_benefit_key
  ON benefit_grants (order_id, customer_id, benefit_id)
  WHERE subscription_id IS NULL;
CREATE INDEX benefit_grants_subscription_idx ON benefit_grants (subscription_id) WHERE subscription_id IS NOT NULL;

-- Keys are unique per organization (the public calls find a key by (organization_id, key)).
CREATE TABLE license_keys (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  deleted_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  benefit_id uuid NOT NULL REFERENCES benefits (id) ON DELETE CASCADE,
  key text NOT NULL,
  status text NOT NULL DEFAULT 'granted' CHECK (status IN ('granted', 'revoked', 'disabled')),
  limit_activations integer,
  usage integer NOT NULL DEFAULT 0,
  limit_usage integer,
  validations integer NOT NULL DEFAULT 0,
  last_validated_at timestamptz,
  expires_at timestamptz
);
CREATE UNIQUE INDEX license_keys_organization_key_key ON license_keys (organization_id, key);
CREATE INDEX license_keys_organization_created_idx ON license_keys (organization_id, created_at) WHERE deleted_at IS NULL;
CREATE INDEX license_keys_benefit_idx ON license_keys (benefit_id);

-- Deactivation is a soft delete: the row stays, the slot frees.
CREATE TABLE license_key_activations (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  deleted_at timestamptz,
  license_key_id uuid NOT NULL REFERENCES license_keys (id) ON DELETE CASCADE,
  label text NOT NULL,
  conditions jsonb NOT NULL DEFAULT '{}',
  meta jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX license_key_activations_key_idx ON license_key_activations (license_key_id) WHERE deleted_at IS NULL;

-- System events (source 'system'): `meter.credited` of meter credit grants and the grant lifecycle
-- (`benefit.granted`, `benefit.revoked`, `benefit.updated`, `benefit.cycled`). The usage issue owns
-- ingestion and extends this table in its own migration.
CREATE TABLE events (
  id uuid PRIMARY KEY,
  timestamp timestamptz NOT NULL,
  ingested_at timestamptz NOT NULL,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  customer_id uuid REFERENCES customers (id) ON DELETE CASCADE,
  external_customer_id text,
  name text NOT NULL,
  source text NOT NULL CHECK (source IN ('system', 'user')),
  metadata jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX events_organization_timestamp_idx ON events (organization_id, timestamp);
CREATE INDEX events_customer_name_idx ON events (customer_id, name, ingested_at);

-- Fixed one-second windows per license key for the public calls (3 per second, as the reference).
-- In the database because API nodes may be several and share nothing else.
CREATE TABLE license_key_rate_windows (
  bucket text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL
);
