import type { Json, NullableJson, NullableTimestamp, Timestamp } from './types.js';

/** Tables of migration 0003: benefits, benefit grants, and the minimal meters table. */
export interface BenefitsTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  organization_id: string;
  type: string;
  description: string;
  selectable: boolean;
  deletable: boolean;
  is_tax_applicable: boolean;
  properties: Json;
  metadata: Json;
}

export interface BenefitGrantsTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  granted_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  customer_id: string;
  benefit_id: string;
  subscription_id: string | null;
  order_id: string | null;
  properties: Json;
  error: NullableJson;
}

export interface MetersTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  organization_id: string;
  name: string;
  filter: Json;
  aggregation: Json;
  metadata: Json;
  archived_at: NullableTimestamp;
  /** 0021: when the meter's rollups were last built (null: not built, reads scan the events). */
  rollups_built_at: NullableTimestamp;
}

export interface BenefitsTables {
  benefits: BenefitsTable;
  benefit_grants: BenefitGrantsTable;
  meters: MetersTable;
}
