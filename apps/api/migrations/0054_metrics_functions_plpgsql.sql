-- The two functions the metrics triggers call for every row they mark (an order, a subscription, a
-- checkout) were written in SQL. PostgreSQL keeps no plan of a SQL function that is not inlined: each
-- call parsed, analysed and planned its statement again (a renewal's subscription update alone calls
-- metrics_mark_stale five times), about a twentieth of the database's CPU in a purchase. A PL/pgSQL
-- function's statements are planned once per session and kept. The same statements, the same effects.
CREATE OR REPLACE FUNCTION metrics_mark_stale(p_organization_id uuid, p_part text, p_at timestamptz, p_hours int)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF p_at IS NOT NULL THEN
    INSERT INTO metrics_stale_hours (organization_id, part, from_hour, to_hour)
    VALUES (p_organization_id, p_part, date_trunc('hour', p_at, 'UTC'),
            date_trunc('hour', p_at, 'UTC') + p_hours * interval '1 hour');
  END IF;
END
$$;

CREATE OR REPLACE FUNCTION metrics_checkout_hours_add(
  p_organization_id uuid, p_created_at timestamptz, p_product_id uuid, p_shard smallint,
  p_checkouts int, p_succeeded int
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO metrics_checkout_hours AS h (organization_id, hour, product_id, shard, checkouts, succeeded)
  VALUES (p_organization_id, date_trunc('hour', p_created_at, 'UTC'), p_product_id, p_shard, p_checkouts,
          p_succeeded)
  ON CONFLICT (organization_id, hour, product_id, shard) DO UPDATE
    SET checkouts = h.checkouts + excluded.checkouts, succeeded = h.succeeded + excluded.succeeded;
END
$$;
