-- Custom fields: organization-defined form fields whose answers checkouts collect (`custom_field_data`,
-- keyed by slug). Products attach them (their join table comes with the products migration).

CREATE TABLE custom_fields (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  deleted_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('text', 'number', 'date', 'checkbox', 'select')),
  slug text NOT NULL CHECK (slug ~ '^[a-z0-9_-]+$'),
  name text NOT NULL,
  properties jsonb NOT NULL DEFAULT '{}',
  metadata jsonb NOT NULL DEFAULT '{}'
);
-- Slugs are stored lower-cased and unique within an organization, deleted fields included: answers
-- already stored on checkouts, orders and subscriptions are keyed by slug, and a new field reusing a
-- slug would adopt them.
CREATE UNIQUE INDEX custom_fields_slug_key ON custom_fields (organization_id, lower(slug));
CREATE INDEX custom_fields_organization_created_idx ON custom_fields (organization_id, created_at);
