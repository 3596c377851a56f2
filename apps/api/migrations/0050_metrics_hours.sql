-- Metrics at scale (docs/metrics.md, "Hours"): an organization's metrics per UTC hour, in three parts
-- (orders, subscriptions, checkouts), so that a year by day or by hour reads one row per part and hour
-- instead of every order, subscription and checkout of the year.
--
-- The base tables stay the source of truth. A write to them does not touch these rows: a trigger records
-- which hours of which part the write made stale (metrics_stale_hours, a plain insert that waits on
-- nobody), the `metrics.hours` job computes those hours again from the base tables and clears the marks
-- in one transaction, and a read computes the hours still marked stale from the base tables itself. So
-- every read is exact, whether the job has run or not; the job only makes it fast.
--
-- Why not counters kept by the triggers: some order metrics are distinct counts (customers, renewed
-- subscriptions) whose value in an hour depends on the orders of the 24 hours before it, which a delta
-- of one row cannot keep; and one row per hour written by every purchase would queue concurrent
-- purchases on it.

-- Two changes of one subscription at one instant (one moment of a test clock) are in the order they were
-- recorded: the first one's previous amount is the subscription's initial MRR.
ALTER TABLE subscription_amount_changes ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;

CREATE TABLE metrics_stale_hours (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id uuid NOT NULL,
  part text NOT NULL CHECK (part IN ('orders', 'subscriptions', 'checkouts')),
  -- The stale UTC hours: from_hour included, to_hour excluded, both whole hours.
  from_hour timestamptz NOT NULL,
  to_hour timestamptz NOT NULL CHECK (to_hour > from_hour)
);
CREATE INDEX metrics_stale_hours_organization_idx ON metrics_stale_hours (organization_id, part);

-- Paid, refunded and partially refunded orders (the revenue statuses), per hour of `created_at`.
-- An array element [j + 1] (j = 0..24) answers for a period that started j hours before this hour: a
-- day period holding this hour started at most 24 hours before it (25-hour days included).
CREATE TABLE metrics_order_hours (
  organization_id uuid NOT NULL,
  hour timestamptz NOT NULL,
  orders bigint NOT NULL,
  revenue bigint NOT NULL,
  net_revenue bigint NOT NULL,
  one_time_products bigint NOT NULL,
  one_time_products_revenue bigint NOT NULL,
  -- Σ net_amount of the orders of subscriptions that started (new and renewed revenue together).
  subscription_revenue bigint NOT NULL,
  -- Orders whose customer had no counted order from j hours before this hour up to the order: summed
  -- over a period's hours, its distinct ordering customers.
  customers bigint[] NOT NULL,
  -- Orders of a subscription that started more than j hours before this hour and had no counted order
  -- from then up to this one: summed, the period's renewed subscriptions.
  renewed bigint[] NOT NULL,
  -- Σ net_amount of the orders whose subscription started at most j hours before this hour.
  new_revenue bigint[] NOT NULL,
  -- Orders created an hour or more before their subscription started: no order the application writes,
  -- but the definitions answer them, so a range with any is read from the rows.
  irregular bigint NOT NULL,
  PRIMARY KEY (organization_id, hour)
);

-- Subscriptions counted by the metrics (started, not trialing, not ended with an unpaid trial), with their
-- start (the end of a trial, else started_at), end and MRR; and every trial.
CREATE TABLE metrics_subscription_hours (
  organization_id uuid NOT NULL,
  hour timestamptz NOT NULL,
  starts bigint NOT NULL,
  starts_mrr bigint NOT NULL,
  -- Ends at greatest(start, ended_at): the −1 of the running count of active subscriptions.
  ends bigint NOT NULL,
  ends_mrr bigint NOT NULL,
  -- Subscriptions whose ended_at is in this hour.
  churned bigint NOT NULL,
  -- [j + 1]: MRR of those that started more than j hours before this hour.
  churned_mrr bigint[] NOT NULL,
  -- [k] (k = 1..25): initial MRR of the subscriptions started in this hour and not ended k hours after it.
  new_mrr bigint[] NOT NULL,
  expansion_mrr bigint NOT NULL,
  contraction_mrr bigint NOT NULL,
  trial_starts bigint NOT NULL,
  trial_overs bigint NOT NULL,
  trial_conversions bigint NOT NULL,
  trials_decided bigint NOT NULL,
  -- A subscription ended an hour or more before it started, or an amount change an hour or more before
  -- its subscription started or after it ended: read from the rows, as above.
  irregular bigint NOT NULL,
  PRIMARY KEY (organization_id, hour)
);

CREATE TABLE metrics_checkout_totals (
  organization_id uuid NOT NULL,
  hour timestamptz NOT NULL,
  checkouts bigint NOT NULL,
  succeeded bigint NOT NULL,
  PRIMARY KEY (organization_id, hour)
);

CREATE FUNCTION metrics_mark_stale(p_organization_id uuid, p_part text, p_at timestamptz, p_hours int)
RETURNS void
LANGUAGE sql AS $$
  INSERT INTO metrics_stale_hours (organization_id, part, from_hour, to_hour)
  SELECT p_organization_id, p_part, date_trunc('hour', p_at, 'UTC'),
         date_trunc('hour', p_at, 'UTC') + p_hours * interval '1 hour'
  WHERE p_at IS NOT NULL
$$;

-- An order counts in its own hour, and its customer's and subscription's next orders of the following
-- 24 hours count after it: a change of whether it counts, of when, or of whose marks 25 hours; a change
-- of its amounts only its own hour.
CREATE FUNCTION metrics_orders_stale() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  old_counts boolean := TG_OP <> 'INSERT' AND OLD.status IN ('paid', 'refunded', 'partially_refunded');
  new_counts boolean := TG_OP <> 'DELETE' AND NEW.status IN ('paid', 'refunded', 'partially_refunded');
BEGIN
  IF TG_OP = 'UPDATE' AND old_counts = new_counts
     AND (OLD.organization_id, OLD.created_at, OLD.customer_id, OLD.subscription_id)
         IS NOT DISTINCT FROM (NEW.organization_id, NEW.created_at, NEW.customer_id, NEW.subscription_id) THEN
    IF new_counts THEN
      PERFORM metrics_mark_stale(NEW.organization_id, 'orders', NEW.created_at, 1);
    END IF;
    RETURN NULL;
  END IF;
  IF old_counts THEN
    PERFORM metrics_mark_stale(OLD.organization_id, 'orders', OLD.created_at, 25);
  END IF;
  IF new_counts THEN
    PERFORM metrics_mark_stale(NEW.organization_id, 'orders', NEW.created_at, 25);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER metrics_orders_stale_insert AFTER INSERT ON orders
  FOR EACH ROW EXECUTE FUNCTION metrics_orders_stale();
CREATE TRIGGER metrics_orders_stale_update
  AFTER UPDATE OF organization_id, created_at, customer_id, subscription_id, status, net_amount, refunded_amount
  ON orders
  FOR EACH ROW
  WHEN ((OLD.organization_id, OLD.created_at, OLD.customer_id, OLD.subscription_id, OLD.status, OLD.net_amount,
         OLD.refunded_amount)
        IS DISTINCT FROM (NEW.organization_id, NEW.created_at, NEW.customer_id, NEW.subscription_id, NEW.status,
                          NEW.net_amount, NEW.refunded_amount))
  EXECUTE FUNCTION metrics_orders_stale();
CREATE TRIGGER metrics_orders_stale_delete AFTER DELETE ON orders
  FOR EACH ROW EXECUTE FUNCTION metrics_orders_stale();

-- A subscription counts at its start, its end and its trial's start and end; its amount changes count
-- only while it is counted; its orders' new or renewed revenue follows its start.
CREATE FUNCTION metrics_subscription_marks(s subscriptions, starts_changed boolean) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  st timestamptz := coalesce(s.trial_end, s.started_at);
BEGIN
  PERFORM metrics_mark_stale(s.organization_id, 'subscriptions', st, 1);
  PERFORM metrics_mark_stale(s.organization_id, 'subscriptions', s.ended_at, 1);
  PERFORM metrics_mark_stale(s.organization_id, 'subscriptions', greatest(st, s.ended_at), 1);
  PERFORM metrics_mark_stale(s.organization_id, 'subscriptions', s.trial_start, 1);
  PERFORM metrics_mark_stale(s.organization_id, 'subscriptions',
    greatest(s.trial_start, least(s.trial_end, coalesce(s.ended_at, s.trial_end))), 1);
  INSERT INTO metrics_stale_hours (organization_id, part, from_hour, to_hour)
  SELECT s.organization_id, 'subscriptions', date_trunc('hour', ch.changed_at, 'UTC'),
         date_trunc('hour', ch.changed_at, 'UTC') + interval '1 hour'
  FROM subscription_amount_changes ch
  WHERE ch.subscription_id = s.id;
  IF starts_changed THEN
    INSERT INTO metrics_stale_hours (organization_id, part, from_hour, to_hour)
    SELECT o.organization_id, 'orders', date_trunc('hour', o.created_at, 'UTC'),
           date_trunc('hour', o.created_at, 'UTC') + interval '1 hour'
    FROM orders o
    WHERE o.subscription_id = s.id;
  END IF;
END
$$;

CREATE FUNCTION metrics_subscriptions_stale() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  starts_changed boolean := TG_OP <> 'UPDATE'
    OR (OLD.organization_id, OLD.started_at IS NULL, coalesce(OLD.trial_end, OLD.started_at))
       IS DISTINCT FROM (NEW.organization_id, NEW.started_at IS NULL, coalesce(NEW.trial_end, NEW.started_at));
BEGIN
  -- Its orders' hours once (with the old row): they follow the subscription's current start.
  IF TG_OP <> 'INSERT' THEN
    PERFORM metrics_subscription_marks(OLD, starts_changed);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM metrics_subscription_marks(NEW, false);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER metrics_subscriptions_stale_insert AFTER INSERT ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION metrics_subscriptions_stale();
CREATE TRIGGER metrics_subscriptions_stale_update
  AFTER UPDATE OF organization_id, started_at, ended_at, trial_start, trial_end, status, amount, recurring_interval
  ON subscriptions
  FOR EACH ROW
  WHEN ((OLD.organization_id, OLD.started_at, OLD.ended_at, OLD.trial_start, OLD.trial_end, OLD.status = 'trialing',
         OLD.amount, OLD.recurring_interval)
        IS DISTINCT FROM (NEW.organization_id, NEW.started_at, NEW.ended_at, NEW.trial_start, NEW.trial_end,
                          NEW.status = 'trialing', NEW.amount, NEW.recurring_interval))
  EXECUTE FUNCTION metrics_subscriptions_stale();
CREATE TRIGGER metrics_subscriptions_stale_delete AFTER DELETE ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION metrics_subscriptions_stale();

-- A change counts in its hour; the first change of a subscription also sets its initial MRR (new MRR, at
-- the subscription's start).
CREATE FUNCTION metrics_amount_changes_stale() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM metrics_mark_stale(OLD.organization_id, 'subscriptions', OLD.changed_at, 1);
    PERFORM metrics_mark_stale(s.organization_id, 'subscriptions', coalesce(s.trial_end, s.started_at), 1)
    FROM subscriptions s
    WHERE s.id = OLD.subscription_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM metrics_mark_stale(NEW.organization_id, 'subscriptions', NEW.changed_at, 1);
    PERFORM metrics_mark_stale(s.organization_id, 'subscriptions', coalesce(s.trial_end, s.started_at), 1)
    FROM subscriptions s
    WHERE s.id = NEW.subscription_id;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER metrics_amount_changes_stale AFTER INSERT OR UPDATE OR DELETE ON subscription_amount_changes
  FOR EACH ROW EXECUTE FUNCTION metrics_amount_changes_stale();

CREATE FUNCTION metrics_checkouts_stale() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM metrics_mark_stale(OLD.organization_id, 'checkouts', OLD.created_at, 1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM metrics_mark_stale(NEW.organization_id, 'checkouts', NEW.created_at, 1);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER metrics_checkouts_stale_insert AFTER INSERT ON checkouts
  FOR EACH ROW EXECUTE FUNCTION metrics_checkouts_stale();
CREATE TRIGGER metrics_checkouts_stale_update AFTER UPDATE OF organization_id, created_at, status ON checkouts
  FOR EACH ROW
  WHEN ((OLD.organization_id, OLD.created_at, OLD.status = 'succeeded')
        IS DISTINCT FROM (NEW.organization_id, NEW.created_at, NEW.status = 'succeeded'))
  EXECUTE FUNCTION metrics_checkouts_stale();
CREATE TRIGGER metrics_checkouts_stale_delete AFTER DELETE ON checkouts
  FOR EACH ROW EXECUTE FUNCTION metrics_checkouts_stale();

-- Everything written before: every hour of every organization's data is stale until the job has
-- computed it (reads meanwhile compute it themselves, as without these tables).
INSERT INTO metrics_stale_hours (organization_id, part, from_hour, to_hour)
SELECT organization_id, part, date_trunc('hour', min(at), 'UTC'), date_trunc('hour', max(at), 'UTC') + interval '25 hours'
FROM (
  SELECT organization_id, 'orders' AS part, created_at AS at FROM orders
  UNION ALL
  SELECT organization_id, 'checkouts', created_at FROM checkouts
  UNION ALL
  SELECT organization_id, 'subscriptions', unnest(ARRAY[started_at, trial_start, trial_end, ended_at]) FROM subscriptions
  UNION ALL
  SELECT organization_id, 'subscriptions', changed_at FROM subscription_amount_changes
) t
WHERE at IS NOT NULL
GROUP BY organization_id, part;
