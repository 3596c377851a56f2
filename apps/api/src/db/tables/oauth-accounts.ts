import type { NullableTimestamp, Timestamp } from './types.js';

/** Tables of migration 0038: customers' connected Discord and GitHub accounts, connections in progress. */
export type OAuthPlatform = 'discord' | 'github';
export type OAuthConnectPurpose = 'customer_discord' | 'customer_github' | 'discord_bot';

export interface CustomerOAuthAccountsTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  organization_id: string;
  customer_id: string;
  platform: OAuthPlatform;
  account_id: string;
  account_username: string | null;
  /** AES-256-GCM with a key derived from the server secret (oauth-accounts.seal.ts). */
  access_token_sealed: string;
  refresh_token_sealed: string | null;
  expires_at: NullableTimestamp;
}

export interface OAuthConnectStatesTable {
  id: string;
  created_at: Timestamp;
  state_hash: string;
  purpose: OAuthConnectPurpose;
  organization_id: string;
  customer_id: string | null;
  customer_session_id: string | null;
  user_id: string | null;
  code_verifier_sealed: string;
  return_to: string | null;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface OAuthAccountTables {
  customer_oauth_accounts: CustomerOAuthAccountsTable;
  oauth_connect_states: OAuthConnectStatesTable;
}
