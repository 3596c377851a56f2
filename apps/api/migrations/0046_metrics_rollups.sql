-- Metrics rollups (docs/metrics.md, Scale): per organization, UTC hour and product, the sums of the
-- orders and checkouts the metrics count, kept by statement triggers in the transaction of every write.
-- An hour is date_bin('1 hour', created_at, the epoch), whatever the session's time zone. Orders count
-- when paid, refunded or partially refunded, as the definitions say; an insert adds the rows, a delete
-- takes them out, an update takes out the old row and adds the new one when a counted column changed.
-- `shard` is the writing connection's (pg_backend_pid() % 4), as in the meter rollups of 0032: writers on
-- different connections add to different rows of the same hour and product instead of waiting for each
-- other's commit; reads sum the shards.
CREATE TABLE metrics_order_hours (
  organization_id uuid NOT NULL,
  hour timestamptz NOT NULL,
  product_id uuid NOT NULL,
  shard smallint NOT NULL DEFAULT 0,
  orders bigint NOT NULL,
  revenue bigint NOT NULL,
  net_revenue bigint NOT NULL,
  one_time_orders bigint NOT NULL,
  one_time_revenue bigint NOT NULL,
  PRIMARY KEY (organization_id, hour, product_id, shard)
);

CREATE TABLE metrics_checkout_hours (
  organization_id uuid NOT NULL,
  hour timestamptz NOT NULL,
  product_id uuid NOT NULL,
  shard smallint NOT NULL DEFAULT 0,
  checkouts bigint NOT NULL,
  succeeded_checkouts bigint NOT NULL,
  PRIMARY KEY (organization_id, hour, product_id, shard)
);

-- The rows a statement changed, signed: +1 for the new version, -1 for the old (transition tables).
CREATE FUNCTION metrics_changed_rows(operation text, columns text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE operation
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, n.* FROM metrics_new n'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, o.* FROM metrics_old o'
    ELSE 'SELECT 1 AS sign, n.* FROM metrics_new n JOIN metrics_old o USING (id)
            WHERE (' || replace(columns, '%', 'n') || ') IS DISTINCT FROM (' || replace(columns, '%', 'o') || ')
          UNION ALL
          SELECT -1, o.* FROM metrics_old o JOIN metrics_new n USING (id)
            WHERE (' || replace(columns, '%', 'n') || ') IS DISTINCT FROM (' || replace(columns, '%', 'o') || ')'
  END
$$;

CREATE FUNCTION metrics_order_hours_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($sql$
    INSERT INTO metrics_order_hours AS m
      (organization_id, hour, product_id, shard, orders, revenue, net_revenue, one_time_orders, one_time_revenue)
    SELECT d.organization_id, date_bin(interval '1 hour', d.created_at, timestamptz '2000-01-01 00:00:00+00'),
           d.product_id, pg_backend_pid() %% 4, sum(d.sign), sum(d.sign * d.net_amount),
           sum(d.sign * (d.net_amount - d.refunded_amount)),
           coalesce(sum(d.sign) FILTER (WHERE d.subscription_id IS NULL), 0),
           coalesce(sum(d.sign * d.net_amount) FILTER (WHERE d.subscription_id IS NULL), 0)
    FROM (%s) d
    WHERE d.status IN ('paid', 'refunded', 'partially_refunded')
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3
    ON CONFLICT (organization_id, hour, product_id, shard) DO UPDATE
      SET orders = m.orders + excluded.orders,
          revenue = m.revenue + excluded.revenue,
          net_revenue = m.net_revenue + excluded.net_revenue,
          one_time_orders = m.one_time_orders + excluded.one_time_orders,
          one_time_revenue = m.one_time_revenue + excluded.one_time_revenue
    $sql$,
    metrics_changed_rows(TG_OP, '%.organization_id, %.created_at, %.product_id, %.status, %.net_amount,
                                 %.refunded_amount, %.subscription_id IS NULL'));
  RETURN NULL;
END $$;

CREATE FUNCTION metrics_checkout_hours_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($sql$
    INSERT INTO metrics_checkout_hours AS m
      (organization_id, hour, product_id, shard, checkouts, succeeded_checkouts)
    SELECT d.organization_id, date_bin(interval '1 hour', d.created_at, timestamptz '2000-01-01 00:00:00+00'),
           d.product_id, pg_backend_pid() %% 4, sum(d.sign), coalesce(sum(d.sign) FILTER (WHERE d.status = 'succeeded'), 0)
    FROM (%s) d
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3
    ON CONFLICT (organization_id, hour, product_id, shard) DO UPDATE
      SET checkouts = m.checkouts + excluded.checkouts,
          succeeded_checkouts = m.succeeded_checkouts + excluded.succeeded_checkouts
    $sql$,
    metrics_changed_rows(TG_OP, '%.organization_id, %.created_at, %.product_id, %.status = ''succeeded'''));
  RETURN NULL;
END $$;

CREATE TRIGGER metrics_order_hours_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS metrics_new FOR EACH STATEMENT EXECUTE FUNCTION metrics_order_hours_apply();
CREATE TRIGGER metrics_order_hours_update AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS metrics_old NEW TABLE AS metrics_new
  FOR EACH STATEMENT EXECUTE FUNCTION metrics_order_hours_apply();
CREATE TRIGGER metrics_order_hours_delete AFTER DELETE ON orders
  REFERENCING OLD TABLE AS metrics_old FOR EACH STATEMENT EXECUTE FUNCTION metrics_order_hours_apply();
CREATE TRIGGER metrics_checkout_hours_insert AFTER INSERT ON checkouts
  REFERENCING NEW TABLE AS metrics_new FOR EACH STATEMENT EXECUTE FUNCTION metrics_checkout_hours_apply();
CREATE TRIGGER metrics_checkout_hours_update AFTER UPDATE ON checkouts
  REFERENCING OLD TABLE AS metrics_old NEW TABLE AS metrics_new
  FOR EACH STATEMENT EXECUTE FUNCTION metrics_checkout_hours_apply();
CREATE TRIGGER metrics_checkout_hours_delete AFTER DELETE ON checkouts
  REFERENCING OLD TABLE AS metrics_old FOR EACH STATEMENT EXECUTE FUNCTION metrics_checkout_hours_apply();

-- The rows written before this migration.
INSERT INTO metrics_order_hours
  (organization_id, hour, product_id, orders, revenue, net_revenue, one_time_orders, one_time_revenue)
SELECT organization_id, date_bin(interval '1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'), product_id,
       count(*), sum(net_amount), sum(net_amount - refunded_amount),
       count(*) FILTER (WHERE subscription_id IS NULL),
       coalesce(sum(net_amount) FILTER (WHERE subscription_id IS NULL), 0)
FROM orders
WHERE status IN ('paid', 'refunded', 'partially_refunded')
GROUP BY 1, 2, 3;
INSERT INTO metrics_checkout_hours (organization_id, hour, product_id, checkouts, succeeded_checkouts)
SELECT organization_id, date_bin(interval '1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'), product_id,
       count(*), count(*) FILTER (WHERE status = 'succeeded')
FROM checkouts
GROUP BY 1, 2, 3;
ANALYZE metrics_order_hours;
ANALYZE metrics_checkout_hours;
