import type { ColumnType } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from './types.js';

/** Tables of migrations 0035 and 0037: the OAuth2 / OpenID Connect authorization server. */
export interface OAuth2ClientsTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  client_id: string;
  /** Secrets issued before 0037, until the server hashes them at start (then null). */
  legacy_client_secret: string | null;
  /** HMAC-SHA256(server secret, client secret); null only for a row not yet hashed. */
  client_secret_hash: string | null;
  client_id_issued_at: ColumnType<string, number, number>;
  registration_access_token_hash: string;
  user_id: string | null;
  metadata: Json;
}

export interface OAuth2StoreTable {
  model: string;
  id_hash: string;
  payload: Json;
  grant_id: string | null;
  uid: string | null;
  client_id: string | null;
  account_id: string | null;
  expires_at: NullableTimestamp;
  consumed_at: NullableTimestamp;
  /** An access token's refresh token (keyed hash), issued together. */
  refresh_hash: string | null;
}

export interface OAuth2SigningKeysTable {
  kid: string;
  created_at: Timestamp;
  retired_at: NullableTimestamp;
  private_jwk: Json;
}

export interface OAuth2Tables {
  oauth2_clients: OAuth2ClientsTable;
  oauth2_store: OAuth2StoreTable;
  oauth2_signing_keys: OAuth2SigningKeysTable;
}
