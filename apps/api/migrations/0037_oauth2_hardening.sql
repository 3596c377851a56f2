-- The authorization server, hardened (modules/oauth2).

-- Client secrets are kept only as their keyed hash (HMAC-SHA256 with the server secret), like every other
-- token. The database does not know the server secret, so SQL cannot hash the secrets issued before this
-- migration: they move to legacy_client_secret, and the server hashes them into client_secret_hash and
-- empties that column when it starts (hashLegacyClientSecrets in oauth2.repository.ts).
ALTER TABLE oauth2_clients RENAME COLUMN client_secret TO legacy_client_secret;
ALTER TABLE oauth2_clients ALTER COLUMN legacy_client_secret DROP NOT NULL;
ALTER TABLE oauth2_clients ADD COLUMN client_secret_hash text;
CREATE INDEX oauth2_clients_legacy_secret_idx ON oauth2_clients (id) WHERE legacy_client_secret IS NOT NULL;

-- An access token row's refresh token (its keyed hash): spending that refresh token revokes the access
-- token issued with it, at once (the reference revokes the pair together).
ALTER TABLE oauth2_store ADD COLUMN refresh_hash text;
CREATE INDEX oauth2_store_refresh_idx ON oauth2_store (refresh_hash) WHERE refresh_hash IS NOT NULL;
