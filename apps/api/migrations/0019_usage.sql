-- Usage: ingestion of user events, their queries, meters' quantities and customers' meters.
-- Events are immutable rows; the meters table of 0003 already holds everything a meter is.

-- A seller's own id for an event: a batch sent again (after a timeout) inserts nothing twice. NULLs
-- are distinct, so events without one never conflict.
ALTER TABLE events ADD COLUMN external_id text;
CREATE UNIQUE INDEX events_organization_external_id_key ON events (organization_id, external_id);

-- Meter queries (quantities, the events list with a meter or a name) narrow by name and time.
CREATE INDEX events_organization_name_timestamp_idx ON events (organization_id, name, timestamp);
-- A customer's events, through our id or the seller's external id (attached lazily, by join).
CREATE INDEX events_customer_timestamp_idx ON events (customer_id, timestamp) WHERE customer_id IS NOT NULL;
CREATE INDEX events_organization_external_customer_timestamp_idx
  ON events (organization_id, external_customer_id, timestamp) WHERE external_customer_id IS NOT NULL;

-- Meters are listed by name within an organization.
CREATE INDEX meters_organization_name_idx ON meters (organization_id, name);
