-- Event types (the reference's `EventType`): one row per distinct event name an organization has, with
-- the label the seller gives it (the name until then), which events show as their `label`. A row is
-- written by the statement that inserts the first event of its name, through a statement-level trigger:
-- every insert path (the API's ingest, bulk loads, system events) records its names in its own
-- transaction, in one statement per insert, and a batch of known names writes nothing (the NOT EXISTS
-- reads the unique index only). The statistics of the list (occurrences, first and last seen) are read
-- from the events, under the list's filters.
CREATE TABLE event_types (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now(),
  modified_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  label text NOT NULL,
  label_property_selector text,
  CONSTRAINT event_types_organization_name_key UNIQUE (organization_id, name)
);

-- The events already stored: their types, created when their first event was ingested.
INSERT INTO event_types (organization_id, name, label, created_at)
SELECT organization_id, name, name, min(ingested_at)
FROM events
GROUP BY organization_id, name;

CREATE FUNCTION event_types_record() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_types (organization_id, name, label)
  SELECT DISTINCT inserted.organization_id, inserted.name, inserted.name
  FROM inserted
  WHERE NOT EXISTS (
    SELECT 1 FROM event_types
    WHERE event_types.organization_id = inserted.organization_id AND event_types.name = inserted.name
  )
  ON CONFLICT (organization_id, name) DO NOTHING;
  RETURN NULL;
END
$$;

CREATE TRIGGER events_event_types AFTER INSERT ON events
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION event_types_record();
