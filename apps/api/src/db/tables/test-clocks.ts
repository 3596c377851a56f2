import type { NullableTimestamp, Timestamp } from './types.js';

/** Tables of migration 0013: per-organization test clocks (never written in production). */
export interface TestClocksTable {
  organization_id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  offset_seconds: number;
}

export interface TestClockTables {
  test_clocks: TestClocksTable;
}
