-- Event hierarchies (the reference's `parent_id`): an event may name a parent event of its organization.
-- A parent that goes (its customer deleted) leaves its children as roots. The partial index serves
-- child counts and tree walks, and costs nothing for the events without a parent.
ALTER TABLE events ADD COLUMN parent_id uuid REFERENCES events (id) ON DELETE SET NULL;
CREATE INDEX events_parent_idx ON events (parent_id) WHERE parent_id IS NOT NULL;
