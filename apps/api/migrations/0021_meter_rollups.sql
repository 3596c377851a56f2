-- Usage at scale: per-meter rollups of the events each meter counts, maintained at ingest, so a
-- meter's quantities and a customer's balance read a few hundred rows instead of millions of events.
-- The events stay the source of truth; a rollup is rebuilt from them whenever it may be stale.

-- A meter's rollups are usable once built (by the `meters.rollups` job, after creation or a change of
-- filter or aggregation); until then every read scans the events. NULL: not built.
ALTER TABLE meters ADD COLUMN rollups_built_at timestamptz;

-- Per meter, per customer reference (the event's customer_id and external_customer_id as sent, so the
-- lazy attachment of external ids keeps working), per hour of `timestamp` (quantities, billing) and per
-- hour of `ingested_at` (the customer meter's window opens at a reset's ingestion time). Exact:
-- count, numeric sum, min and max; avg is sum / count. `unique` is never rolled up.
CREATE TABLE meter_rollups (
  meter_id uuid NOT NULL REFERENCES meters (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL,
  customer_id uuid,
  external_customer_id text,
  bucket timestamptz NOT NULL,
  ingested_bucket timestamptz NOT NULL,
  events bigint NOT NULL,
  sum numeric NOT NULL,
  min numeric,
  max numeric,
  first_ingested_at timestamptz NOT NULL,
  last_ingested_at timestamptz NOT NULL,
  CONSTRAINT meter_rollups_key UNIQUE NULLS NOT DISTINCT
    (meter_id, customer_id, external_customer_id, bucket, ingested_bucket)
);
CREATE INDEX meter_rollups_external_customer_idx
  ON meter_rollups (meter_id, external_customer_id, bucket) WHERE external_customer_id IS NOT NULL;

-- The same per meter and hour of `timestamp` only: an organization-wide quantities query reads at most
-- one row per hour of its range, however many customers there are.
CREATE TABLE meter_rollup_totals (
  meter_id uuid NOT NULL REFERENCES meters (id) ON DELETE CASCADE,
  bucket timestamptz NOT NULL,
  events bigint NOT NULL,
  sum numeric NOT NULL,
  min numeric,
  max numeric,
  PRIMARY KEY (meter_id, bucket)
);
