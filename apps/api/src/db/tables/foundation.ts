import type { ColumnType } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from './types.js';

/** Tables of migration 0001: organizations, users, sessions, access tokens, webhook events. */
export interface OrganizationsTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  name: string;
  slug: string;
  avatar_url: string | null;
  email: string | null;
  website: string | null;
  socials: Json;
  details: ColumnType<unknown, string | null | undefined, string | null>;
  details_submitted_at: NullableTimestamp;
  feature_settings: Json;
  subscription_settings: Json;
  customer_invoice_prefix: string;
  /** Migration 0026: prices include tax, Stripe Tax opt-in (docs/tax.md). */
  tax_settings: ColumnType<unknown, string | undefined, string>;
  /** Migration 0025: customer emails turned off by the seller (a missing key is on). */
  customer_email_settings: ColumnType<unknown, string | undefined, string>;
  /** Migration 0042: checkout and portal branding (a missing key takes its default). */
  branding_settings: ColumnType<unknown, string | undefined, string>;
  /** Migration 0052: moved by triggers whenever a product's wire shape may have changed (never written here). */
  catalogue_version: ColumnType<number, never, never>;
}

export interface UsersTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  email: string;
  password_hash: string;
}

export interface UserOrganizationsTable {
  user_id: string;
  organization_id: string;
  created_at: Timestamp;
  /** Migration 0039: `owner` (created the organization) or `member` (joined by invitation). */
  role: ColumnType<'owner' | 'member', 'owner' | 'member' | undefined, 'owner' | 'member'>;
}

/** Migration 0039: invitations to join an organization, single-use links sent by email. */
export interface OrganizationInvitesTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  organization_id: string;
  email: string;
  token_hash: string;
  invited_by_user_id: string | null;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
  accepted_by_user_id: string | null;
  revoked_at: NullableTimestamp;
}

export interface UserSessionsTable {
  id: string;
  created_at: Timestamp;
  token_hash: string;
  user_id: string;
  expires_at: Timestamp;
  user_agent: string | null;
}

export interface OrganizationAccessTokensTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  token_hash: string;
  organization_id: string;
  comment: string;
  scopes: string[];
  expires_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
}

export interface WebhookEventsTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  organization_id: string;
  type: string;
  payload: Json;
}

export interface FoundationTables {
  organizations: OrganizationsTable;
  users: UsersTable;
  user_organizations: UserOrganizationsTable;
  organization_invites: OrganizationInvitesTable;
  user_sessions: UserSessionsTable;
  organization_access_tokens: OrganizationAccessTokensTable;
  webhook_events: WebhookEventsTable;
}
