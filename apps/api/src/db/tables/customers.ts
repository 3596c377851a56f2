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
