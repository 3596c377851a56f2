-- The OAuth2 / OpenID Connect authorization server (modules/oauth2, built on oidc-provider).

-- Registered clients (RFC 7591). The client secret is kept as issued: the token endpoint compares the
-- presented secret with it and the owner's client list shows it (as the reference does). The
-- registration access token (RFC 7592) is kept only as its keyed hash.
CREATE TABLE oauth2_clients (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  deleted_at timestamptz,
  client_id text NOT NULL UNIQUE,
  client_secret text NOT NULL,
  client_id_issued_at bigint NOT NULL,
  registration_access_token_hash text NOT NULL UNIQUE,
  user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  -- The registered metadata (redirect_uris, token_endpoint_auth_method, grant_types, response_types,
  -- scope, client_name, client_uri, logo_uri, tos_uri, policy_uri).
  metadata jsonb NOT NULL
);
CREATE INDEX oauth2_clients_user_idx ON oauth2_clients (user_id, created_at DESC) WHERE deleted_at IS NULL;

-- The library's storage (oidc-provider adapter): authorization codes, access and refresh tokens,
-- grants, sessions and interactions. Rows are keyed by HMAC-SHA256(server secret, id), so a stolen
-- table holds no usable token; the payload never carries the id.
CREATE TABLE oauth2_store (
  model text NOT NULL,
  id_hash text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  uid text,
  client_id text,
  account_id text,
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (model, id_hash)
);
CREATE INDEX oauth2_store_grant_idx ON oauth2_store (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oauth2_store_uid_idx ON oauth2_store (uid) WHERE uid IS NOT NULL;
CREATE INDEX oauth2_store_account_idx ON oauth2_store (model, account_id) WHERE account_id IS NOT NULL;
CREATE INDEX oauth2_store_expires_idx ON oauth2_store (expires_at);

-- ID token signing keys (RS256). The newest unretired key signs; retired keys stay published in the
-- JWKS until their tokens have expired.
CREATE TABLE oauth2_signing_keys (
  kid text PRIMARY KEY,
  created_at timestamptz NOT NULL,
  retired_at timestamptz,
  private_jwk jsonb NOT NULL
);
