-- Benefits, their grants, and the minimal meters table benefits of type meter_credit point at.
-- Ids come from the application; timestamps from the application clock (never now()).

-- Meters: only what a meter_credit benefit needs to validate its meter_id. Routes come with the meters
-- module, which extends this table in its own migration.
CREATE TABLE meters (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  filter jsonb NOT NULL,
  aggregation jsonb NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  archived_at timestamptz
);
CREATE INDEX meters_organization_idx ON meters (organization_id, created_at);

-- A benefit's `properties` hold its type's stored properties (validated by the application per type).
-- `selectable` and `deletable` are false only for system benefits; the API always creates both true.
CREATE TABLE benefits (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  deleted_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (
    type IN ('custom', 'discord', 'github_repository', 'downloadables', 'license_keys', 'meter_credit')
  ),
  description text NOT NULL,
  selectable boolean NOT NULL DEFAULT true,
  deletable boolean NOT NULL DEFAULT true,
  is_tax_applicable boolean NOT NULL DEFAULT true,
  properties jsonb NOT NULL DEFAULT '{}',
  metadata jsonb NOT NULL DEFAULT '{}'
);
-- The list filters by organization (and type) and sorts by created_at or description; deleted rows
-- are never listed.
CREATE INDEX benefits_organization_created_idx ON benefits (organization_id, created_at) WHERE deleted_at IS NULL;
CREATE INDEX benefits_organization_description_idx ON benefits (organization_id, description) WHERE deleted_at IS NULL;
CREATE INDEX benefits_organization_type_idx ON benefits (organization_id, type) WHERE deleted_at IS NULL;

-- A grant of a benefit to a customer, scoped by the subscription or the one-time order that caused it
-- (foreign keys to subscriptions and orders arrive with those tables). is_granted = granted_at IS NOT
-- NULL; is_revoked = revoked_at IS NOT NULL.
CREATE TABLE benefit_grants (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  deleted_at timestamptz,
  granted_at timestamptz,
  revoked_at timestamptz,
  customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  benefit_id uuid NOT NULL REFERENCES benefits (id) ON DELETE CASCADE,
  subscription_id uuid,
  order_id uuid,
  properties jsonb NOT NULL DEFAULT '{}',
  error jsonb,
  CONSTRAINT benefit_grants_subscription_customer_benefit_key UNIQUE (subscription_id, customer_id, benefit_id)
);
CREATE INDEX benefit_grants_benefit_created_idx ON benefit_grants (benefit_id, created_at) WHERE deleted_at IS NULL;
CREATE INDEX benefit_grants_customer_idx ON benefit_grants (customer_id);
CREATE INDEX benefit_grants_order_idx ON benefit_grants (order_id) WHERE order_id IS NOT NULL;
