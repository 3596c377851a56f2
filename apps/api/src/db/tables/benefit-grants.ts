import type { Json, NullableTimestamp, Timestamp } from './types.js';

/** Tables of migration 0012: license keys, their activations, system events, rate windows. */
export type LicenseKeyStatus = 'granted' | 'revoked' | 'disabled';

export interface LicenseKeysTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  organization_id: string;
  customer_id: string;
  benefit_id: string;
  key: string;
  status: LicenseKeyStatus;
  limit_activations: number | null;
  usage: number;
  limit_usage: number | null;
  validations: number;
  last_validated_at: NullableTimestamp;
  expires_at: NullableTimestamp;
}

export interface LicenseKeyActivationsTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  license_key_id: string;
  label: string;
  conditions: Json;
  meta: Json;
}

export interface EventsTable {
  id: string;
  timestamp: Timestamp;
  ingested_at: Timestamp;
  organization_id: string;
  customer_id: string | null;
  external_customer_id: string | null;
  name: string;
  source: 'system' | 'user';
  metadata: Json;
}

export interface LicenseKeyRateWindowsTable {
  bucket: string;
  window_start: Timestamp;
  hits: number;
}

/** Migration 0020: the periods each grant has cycled for (one cycle per grant and period). */
export interface BenefitGrantCyclesTable {
  grant_id: string;
  period_start: Timestamp;
  created_at: Timestamp;
}

export interface BenefitGrantTables {
  benefit_grant_cycles: BenefitGrantCyclesTable;
  license_keys: LicenseKeysTable;
  license_key_activations: LicenseKeyActivationsTable;
  events: EventsTable;
  license_key_rate_windows: LicenseKeyRateWindowsTable;
}
