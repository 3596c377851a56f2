-- Rate-limit counters are written by every API request. They need no durability: a crash that empties
-- them only gives every caller a fresh window. Unlogged, their writes produce no WAL, so a request's
-- counter upsert commits without waiting for a WAL flush while it holds the counter's row (all of one
-- organization's requests share that row, so each one's wait was everyone's).
ALTER TABLE rate_limits SET UNLOGGED;
