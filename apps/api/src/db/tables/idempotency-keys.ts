import type { NullableJson, NullableTimestamp, Timestamp } from './types.js';

/** Table of migration 0017: answers kept for Idempotency-Key replays (24 hours). */
export interface IdempotencyKeysTable {
  scope: string;
  key: string;
  request_hash: string;
  state: 'in_flight' | 'completed';
  locked_until: NullableTimestamp;
  response_status: number | null;
  response_headers: NullableJson;
  response_body: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface IdempotencyKeyTables {
  idempotency_keys: IdempotencyKeysTable;
}
