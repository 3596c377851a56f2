import type { Generated } from 'kysely';
import type { Timestamp } from './types.js';

/**
 * Tables of migration 0021: per-meter rollups of the events each meter counts (and `rollups_built_at`
 * on meters, declared with the meters table).
 */
export interface MeterRollupsTable {
  meter_id: string;
  organization_id: string;
  customer_id: string | null;
  external_customer_id: string | null;
  /** The hour (UTC) of the events' `timestamp`. */
  bucket: Timestamp;
  /** The hour (UTC) of the events' `ingested_at`. */
  ingested_bucket: Timestamp;
  events: string;
  sum: string;
  min: string | null;
  max: string | null;
  first_ingested_at: Timestamp;
  last_ingested_at: Timestamp;
  /** Migration 0032: the ingesting connection's shard (concurrent ingests write different rows). */
  shard: Generated<number>;
}

export interface MeterRollupTotalsTable {
  meter_id: string;
  bucket: Timestamp;
  events: string;
  sum: string;
  min: string | null;
  max: string | null;
  /** Migration 0032, as on meter_rollups. */
  shard: Generated<number>;
}

export interface MeterRollupTables {
  meter_rollups: MeterRollupsTable;
  meter_rollup_totals: MeterRollupTotalsTable;
  customer_state_changes: CustomerStateChangesTable;
}

/** Migration 0027: customers waiting for their `customer.state_changed` after an ingest. */
export interface CustomerStateChangesTable {
  customer_id: string;
  since: Timestamp;
  /** Migration 0032: a mark per shard of the ingests that reached the customer. */
  shard: Generated<number>;
}
