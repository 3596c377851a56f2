import type { Timestamp } from './types.js';

/** Table of migration 0016: fixed-window request counters of the rate limiter. */
export interface RateLimitsTable {
  key: string;
  window_start: Timestamp;
  count: number;
  expires_at: Timestamp;
}

export interface RateLimitTables {
  rate_limits: RateLimitsTable;
}
