-- Concurrent ingests without lock waits. An ingest upserts its rollup rows and its customers' state marks
-- in its transaction and holds their row locks until it commits: two ingests of the same hour (every
-- organization-wide total of the hour, every customer both reach) waited for each other, so ingests of
-- one organization ran one at a time whatever the number of connections. Each of these rows now also
-- has a shard, the ingesting connection's (`pg_backend_pid() % 8`): concurrent ingests write different
-- rows, and readers add the shards up (every rollup read already aggregates rows: sums, min, max).
ALTER TABLE meter_rollups ADD COLUMN shard smallint NOT NULL DEFAULT 0;
ALTER TABLE meter_rollups DROP CONSTRAINT meter_rollups_key;
ALTER TABLE meter_rollups ADD CONSTRAINT meter_rollups_key UNIQUE NULLS NOT DISTINCT
  (meter_id, customer_id, external_customer_id, bucket, ingested_bucket, shard);

ALTER TABLE meter_rollup_totals ADD COLUMN shard smallint NOT NULL DEFAULT 0;
ALTER TABLE meter_rollup_totals DROP CONSTRAINT meter_rollup_totals_pkey;
ALTER TABLE meter_rollup_totals ADD PRIMARY KEY (meter_id, bucket, shard);

-- A customer has a mark per shard that reached it; the `customers.state_changes` job handles a
-- customer's marks together (one event per customer and run) and removes each one it read.
ALTER TABLE customer_state_changes ADD COLUMN shard smallint NOT NULL DEFAULT 0;
ALTER TABLE customer_state_changes DROP CONSTRAINT customer_state_changes_pkey;
ALTER TABLE customer_state_changes ADD PRIMARY KEY (customer_id, shard);
