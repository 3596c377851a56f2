-- Organizations, dashboard users and their sessions, organization access tokens, and the event outbox.
-- Timestamps come from the application clock (never now()), so the test clock governs them too.

CREATE TABLE organizations (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  deleted_at timestamptz,
  name text NOT NULL,
  slug text NOT NULL,
  avatar_url text,
  email text,
  website text,
  socials jsonb NOT NULL DEFAULT '[]',
  details jsonb,
  details_submitted_at timestamptz,
  feature_settings jsonb NOT NULL DEFAULT '{}',
  subscription_settings jsonb NOT NULL,
  customer_invoice_prefix text NOT NULL
);
-- Slugs are unique case-insensitively, deleted organizations included (URLs must never be reused).
CREATE UNIQUE INDEX organizations_slug_key ON organizations (lower(slug));
CREATE INDEX organizations_created_at_idx ON organizations (created_at);

CREATE TABLE users (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  email text NOT NULL,
  password_hash text NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE user_organizations (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, organization_id)
);
CREATE INDEX user_organizations_organization_idx ON user_organizations (organization_id);

CREATE TABLE user_sessions (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  token_hash text NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  user_agent text
);
CREATE INDEX user_sessions_user_idx ON user_sessions (user_id);

CREATE TABLE organization_access_tokens (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  deleted_at timestamptz,
  token_hash text NOT NULL UNIQUE,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  comment text NOT NULL DEFAULT '',
  scopes text[] NOT NULL,
  expires_at timestamptz,
  last_used_at timestamptz
);
CREATE INDEX organization_access_tokens_organization_idx ON organization_access_tokens (organization_id);

-- Webhook events are written in the transaction of the change that causes them; the job that
-- delivers them is inserted in the same transaction, so an event exists if and only if its change does.
CREATE TABLE webhook_events (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  type text NOT NULL,
  payload jsonb NOT NULL
);
CREATE INDEX webhook_events_organization_idx ON webhook_events (organization_id, created_at);
