-- Customers' connected Discord and GitHub accounts (docs/benefits.md): the account a Discord or GitHub
-- benefit is delivered to. One account belongs to at most one customer of an organization. The OAuth
-- tokens are sealed with a key derived from the server secret (AES-256-GCM), never stored in clear.
CREATE TABLE customer_oauth_accounts (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  platform text NOT NULL CHECK (platform IN ('discord', 'github')),
  account_id text NOT NULL,
  account_username text,
  access_token_sealed text NOT NULL,
  refresh_token_sealed text,
  expires_at timestamptz,
  UNIQUE (organization_id, platform, account_id)
);
CREATE INDEX customer_oauth_accounts_customer_idx ON customer_oauth_accounts (customer_id);

-- An authorization in progress: the customer's (or seller's) browser went to the provider with `state`.
-- Single use (`used_at`), expiring, bound to the portal session (or the dashboard user) that started it,
-- with the PKCE verifier kept here. Only the state's keyed hash is stored.
CREATE TABLE oauth_connect_states (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  state_hash text NOT NULL UNIQUE,
  purpose text NOT NULL CHECK (purpose IN ('customer_discord', 'customer_github', 'discord_bot')),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  customer_id uuid REFERENCES customers (id),
  customer_session_id uuid,
  user_id uuid,
  code_verifier_sealed text NOT NULL,
  return_to text,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX oauth_connect_states_expires_idx ON oauth_connect_states (expires_at);
