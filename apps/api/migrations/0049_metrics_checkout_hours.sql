-- Metrics at scale (docs/metrics.md, Scale): an organization's checkouts and succeeded checkouts per
-- product and UTC hour, kept by a trigger in the transaction of every write to checkouts, so a year of
-- metrics reads at most eight rows per product and hour instead of every checkout of the year. The
-- checkouts stay the source of truth: this table holds nothing they do not.
--
-- Hours, not finer: the rows are read only when every period boundary of the request is a whole UTC
-- hour (every period of a zone whose offsets over the range are whole hours: UTC, Europe/*,
-- America/*…); a zone such as Asia/Kolkata and a customer filter read the checkouts themselves.
CREATE TABLE metrics_checkout_hours (
  organization_id uuid NOT NULL,
  hour timestamptz NOT NULL,
  product_id uuid NOT NULL,
  -- Each hour and product is spread over 8 rows (a checkout's shard follows from its id): concurrent
  -- checkouts of one product mostly lock different rows instead of queueing on one until they commit.
  shard smallint NOT NULL,
  checkouts bigint NOT NULL,
  succeeded bigint NOT NULL,
  PRIMARY KEY (organization_id, hour, product_id, shard)
);

-- A checkout counts in the hour of its `created_at`, under its current product; succeeded while its
-- status is `succeeded`. A change moves the checkout: its old contribution taken out, the new one put
-- in. The trigger fires only on changes of what is counted (the WHEN clauses): an expiry, a confirm
-- attempt or an edit of anything else writes nothing here.
CREATE FUNCTION metrics_checkout_hours_add(
  p_organization_id uuid, p_created_at timestamptz, p_product_id uuid, p_shard smallint,
  p_checkouts int, p_succeeded int
) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO metrics_checkout_hours AS h (organization_id, hour, product_id, shard, checkouts, succeeded)
  VALUES (p_organization_id, date_trunc('hour', p_created_at, 'UTC'), p_product_id, p_shard, p_checkouts,
          p_succeeded)
  ON CONFLICT (organization_id, hour, product_id, shard) DO UPDATE
    SET checkouts = h.checkouts + excluded.checkouts, succeeded = h.succeeded + excluded.succeeded
$$;

-- A change that moves a checkout writes its two rows in key order, so two transactions moving
-- checkouts in opposite directions cannot deadlock on them.
CREATE FUNCTION metrics_checkout_hours_count() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  old_key record;
  new_key record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM metrics_checkout_hours_add(NEW.organization_id, NEW.created_at, NEW.product_id,
      (hashtext(NEW.id::text) & 7)::smallint, 1, (NEW.status = 'succeeded')::int);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM metrics_checkout_hours_add(OLD.organization_id, OLD.created_at, OLD.product_id,
      (hashtext(OLD.id::text) & 7)::smallint, -1, -(OLD.status = 'succeeded')::int);
  ELSE
    old_key := (OLD.organization_id, date_trunc('hour', OLD.created_at, 'UTC'), OLD.product_id);
    new_key := (NEW.organization_id, date_trunc('hour', NEW.created_at, 'UTC'), NEW.product_id);
    IF old_key <= new_key THEN
      PERFORM metrics_checkout_hours_add(OLD.organization_id, OLD.created_at, OLD.product_id,
        (hashtext(OLD.id::text) & 7)::smallint, -1, -(OLD.status = 'succeeded')::int);
    END IF;
    PERFORM metrics_checkout_hours_add(NEW.organization_id, NEW.created_at, NEW.product_id,
      (hashtext(NEW.id::text) & 7)::smallint, 1, (NEW.status = 'succeeded')::int);
    IF old_key > new_key THEN
      PERFORM metrics_checkout_hours_add(OLD.organization_id, OLD.created_at, OLD.product_id,
        (hashtext(OLD.id::text) & 7)::smallint, -1, -(OLD.status = 'succeeded')::int);
    END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER metrics_checkout_hours_insert AFTER INSERT ON checkouts
  FOR EACH ROW EXECUTE FUNCTION metrics_checkout_hours_count();
CREATE TRIGGER metrics_checkout_hours_update AFTER UPDATE OF organization_id, created_at, product_id, status
  ON checkouts
  FOR EACH ROW
  WHEN ((OLD.organization_id, OLD.created_at, OLD.product_id, OLD.status = 'succeeded')
        IS DISTINCT FROM (NEW.organization_id, NEW.created_at, NEW.product_id, NEW.status = 'succeeded'))
  EXECUTE FUNCTION metrics_checkout_hours_count();
CREATE TRIGGER metrics_checkout_hours_delete AFTER DELETE ON checkouts
  FOR EACH ROW EXECUTE FUNCTION metrics_checkout_hours_count();

INSERT INTO metrics_checkout_hours (organization_id, hour, product_id, shard, checkouts, succeeded)
SELECT organization_id, date_trunc('hour', created_at, 'UTC'), product_id, (hashtext(id::text) & 7)::smallint,
       count(*), count(*) FILTER (WHERE status = 'succeeded')
FROM checkouts
GROUP BY 1, 2, 3, 4;
