import type { ColumnType } from 'kysely';
import type { Json, NullableJson, NullableTimestamp, Timestamp } from './types.js';

/** Tables of migration 0002: customers and customer sessions. */
export interface CustomersTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  organization_id: string;
  email: string;
  email_verified: boolean;
  name: string | null;
  external_id: string | null;
  billing_address: NullableJson;
  tax_id: NullableJson;
  metadata: Json;
  /** Migration 0014: the credit balance by currency ({"usd": 996}), in minor units. */
  credit_balances: ColumnType<unknown, string | undefined, string>;
}

export interface CustomerSessionsTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  token_hash: string;
  expires_at: Timestamp;
  customer_id: string;
}

export interface CustomersTables {
  customers: CustomersTable;
  customer_sessions: CustomerSessionsTable;
}
