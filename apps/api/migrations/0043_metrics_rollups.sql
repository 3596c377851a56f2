-- Metrics rollups (docs/metrics.md, Scale): per organization, UTC hour and product, the sums the
-- metrics statement reads for whole hours instead of the orders and checkouts themselves. Kept by
-- statement-level triggers in the transaction of every write to orders and checkouts (an insert, a
-- status change, a refund, a delete: the rows' contributions move from their old values to their new
-- ones), and filled from the rows that exist below.
CREATE TABLE metrics_hours (
  organization_id uuid NOT NULL,
  hour timestamptz NOT NULL,
  product_id uuid NOT NULL,
  -- Orders that brought money (paid, refunded, partially refunded), by the hour they were created.
  orders bigint NOT NULL DEFAULT 0,
  revenue bigint NOT NULL DEFAULT 0,
  net_revenue bigint NOT NULL DEFAULT 0,
  one_time_orders bigint NOT NULL DEFAULT 0,
  one_time_revenue bigint NOT NULL DEFAULT 0,
  -- Of the subscription orders: the orders that started a subscription (billing_reason
  -- subscription_create), renewals (subscription_cycle), and the revenue of all the others.
  new_subscription_revenue bigint NOT NULL DEFAULT 0,
  renewals bigint NOT NULL DEFAULT 0,
  renewal_revenue bigint NOT NULL DEFAULT 0,
  -- Checkouts by the hour they were created, and those of them that succeeded.
  checkouts bigint NOT NULL DEFAULT 0,
  succeeded_checkouts bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, hour, product_id)
);

-- The changed rows of the statement, signed: +1 for the new values, -1 for the old ones.
CREATE FUNCTION metrics_hours_changes(op text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE op
    WHEN 'INSERT' THEN 'SELECT 1 AS n, r.* FROM metrics_new r'
    WHEN 'DELETE' THEN 'SELECT -1 AS n, r.* FROM metrics_old r'
    ELSE 'SELECT 1 AS n, r.* FROM metrics_new r UNION ALL SELECT -1 AS n, r.* FROM metrics_old r'
  END
$$;

CREATE FUNCTION metrics_hours_orders() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    INSERT INTO metrics_hours AS m (organization_id, hour, product_id, orders, revenue, net_revenue,
                                    one_time_orders, one_time_revenue, new_subscription_revenue, renewals,
                                    renewal_revenue)
    SELECT organization_id, hour, product_id, sum(n), sum(n * net), sum(n * (net - refunded)),
           coalesce(sum(n) FILTER (WHERE one_time), 0), coalesce(sum(n * net) FILTER (WHERE one_time), 0),
           coalesce(sum(n * net) FILTER (WHERE NOT one_time AND reason = 'subscription_create'), 0),
           coalesce(sum(n) FILTER (WHERE NOT one_time AND reason = 'subscription_cycle'), 0),
           coalesce(sum(n * net) FILTER (WHERE NOT one_time AND reason <> 'subscription_create'), 0)
    FROM (
      SELECT n, organization_id, product_id, subscription_id IS NULL AS one_time, billing_reason AS reason,
             date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00') AS hour,
             net_amount::bigint AS net, refunded_amount::bigint AS refunded
      FROM (%s) c
      WHERE status IN ('paid', 'refunded', 'partially_refunded')
    ) d
    GROUP BY organization_id, hour, product_id
    HAVING sum(n) <> 0 OR sum(n * net) <> 0 OR sum(n * refunded) <> 0
        OR coalesce(sum(n) FILTER (WHERE one_time), 0) <> 0
        OR coalesce(sum(n * net) FILTER (WHERE one_time), 0) <> 0
        OR coalesce(sum(n * net) FILTER (WHERE NOT one_time AND reason = 'subscription_create'), 0) <> 0
        OR coalesce(sum(n) FILTER (WHERE NOT one_time AND reason = 'subscription_cycle'), 0) <> 0
        OR coalesce(sum(n * net) FILTER (WHERE NOT one_time AND reason <> 'subscription_create'), 0) <> 0
    ON CONFLICT (organization_id, hour, product_id) DO UPDATE
      SET orders = m.orders + excluded.orders, revenue = m.revenue + excluded.revenue,
          net_revenue = m.net_revenue + excluded.net_revenue,
          one_time_orders = m.one_time_orders + excluded.one_time_orders,
          one_time_revenue = m.one_time_revenue + excluded.one_time_revenue,
          new_subscription_revenue = m.new_subscription_revenue + excluded.new_subscription_revenue,
          renewals = m.renewals + excluded.renewals,
          renewal_revenue = m.renewal_revenue + excluded.renewal_revenue
  $q$, metrics_hours_changes(TG_OP));
  RETURN NULL;
END $$;

CREATE FUNCTION metrics_hours_checkouts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    INSERT INTO metrics_hours AS m (organization_id, hour, product_id, checkouts, succeeded_checkouts)
    SELECT organization_id, hour, product_id, sum(n), coalesce(sum(n) FILTER (WHERE succeeded), 0)
    FROM (
      SELECT n, organization_id, product_id, status = 'succeeded' AS succeeded,
             date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00') AS hour
      FROM (%s) c
    ) d
    GROUP BY organization_id, hour, product_id
    HAVING sum(n) <> 0 OR coalesce(sum(n) FILTER (WHERE succeeded), 0) <> 0
    ON CONFLICT (organization_id, hour, product_id) DO UPDATE
      SET checkouts = m.checkouts + excluded.checkouts,
          succeeded_checkouts = m.succeeded_checkouts + excluded.succeeded_checkouts
  $q$, metrics_hours_changes(TG_OP));
  RETURN NULL;
END $$;

-- A trigger with transition tables has one event.
CREATE TRIGGER metrics_hours_orders_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS metrics_new FOR EACH STATEMENT EXECUTE FUNCTION metrics_hours_orders();
CREATE TRIGGER metrics_hours_orders_update AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS metrics_old NEW TABLE AS metrics_new
  FOR EACH STATEMENT EXECUTE FUNCTION metrics_hours_orders();
CREATE TRIGGER metrics_hours_orders_delete AFTER DELETE ON orders
  REFERENCING OLD TABLE AS metrics_old FOR EACH STATEMENT EXECUTE FUNCTION metrics_hours_orders();
CREATE TRIGGER metrics_hours_checkouts_insert AFTER INSERT ON checkouts
  REFERENCING NEW TABLE AS metrics_new FOR EACH STATEMENT EXECUTE FUNCTION metrics_hours_checkouts();
CREATE TRIGGER metrics_hours_checkouts_update AFTER UPDATE ON checkouts
  REFERENCING OLD TABLE AS metrics_old NEW TABLE AS metrics_new
  FOR EACH STATEMENT EXECUTE FUNCTION metrics_hours_checkouts();
CREATE TRIGGER metrics_hours_checkouts_delete AFTER DELETE ON checkouts
  REFERENCING OLD TABLE AS metrics_old FOR EACH STATEMENT EXECUTE FUNCTION metrics_hours_checkouts();

-- The backfill: the rows written before this migration. `SELECT metrics_hours_rebuild(NULL)` (or one
-- organization's id) rebuilds them from the rows at any time, in one transaction.
CREATE FUNCTION metrics_hours_rebuild(organization uuid) RETURNS void LANGUAGE sql AS $$
  DELETE FROM metrics_hours WHERE organization IS NULL OR organization_id = organization;
  INSERT INTO metrics_hours (organization_id, hour, product_id, orders, revenue, net_revenue, one_time_orders,
                             one_time_revenue, new_subscription_revenue, renewals, renewal_revenue, checkouts,
                             succeeded_checkouts)
  SELECT organization_id, hour, product_id, sum(orders), sum(revenue), sum(net_revenue), sum(one_time_orders),
         sum(one_time_revenue), sum(new_subscription_revenue), sum(renewals), sum(renewal_revenue), sum(checkouts),
         sum(succeeded_checkouts)
  FROM (
    SELECT organization_id, date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00') AS hour,
           product_id, count(*) AS orders, sum(net_amount) AS revenue, sum(net_amount - refunded_amount) AS net_revenue,
           count(*) FILTER (WHERE subscription_id IS NULL) AS one_time_orders,
           coalesce(sum(net_amount) FILTER (WHERE subscription_id IS NULL), 0) AS one_time_revenue,
           coalesce(sum(net_amount) FILTER (WHERE subscription_id IS NOT NULL
                                              AND billing_reason = 'subscription_create'), 0) AS new_subscription_revenue,
           count(*) FILTER (WHERE subscription_id IS NOT NULL AND billing_reason = 'subscription_cycle') AS renewals,
           coalesce(sum(net_amount) FILTER (WHERE subscription_id IS NOT NULL
                                              AND billing_reason <> 'subscription_create'), 0) AS renewal_revenue,
           0 AS checkouts, 0 AS succeeded_checkouts
    FROM orders
    WHERE status IN ('paid', 'refunded', 'partially_refunded') AND (organization IS NULL OR organization_id = organization)
    GROUP BY 1, 2, 3
    UNION ALL
    SELECT organization_id, date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'), product_id,
           0, 0, 0, 0, 0, 0, 0, 0, count(*), count(*) FILTER (WHERE status = 'succeeded')
    FROM checkouts
    WHERE organization IS NULL OR organization_id = organization
    GROUP BY 1, 2, 3
  ) s
  GROUP BY 1, 2, 3;
$$;
SELECT metrics_hours_rebuild(NULL);

-- The subscriptions the statement reads (started before the range's end, not ended before its start)
-- from the index alone: 0034's index did not hold the columns of the trial rules.
CREATE INDEX subscriptions_organization_started_covering_idx ON subscriptions (organization_id, started_at)
  INCLUDE (ended_at, amount, recurring_interval, product_id, customer_id, status, trial_end);
DROP INDEX subscriptions_organization_started_idx;
