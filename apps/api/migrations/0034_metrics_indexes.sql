-- Metrics (docs/metrics.md): the orders and checkouts of an organization's range read from the index
-- alone (an index-only scan), without visiting the rows. They replace the plain
-- (organization_id, created_at) indexes, which they cover.
CREATE INDEX orders_organization_created_covering_idx ON orders (organization_id, created_at)
  INCLUDE (status, net_amount, refunded_amount, subscription_id, customer_id, product_id);
DROP INDEX orders_organization_created_idx;
CREATE INDEX checkouts_organization_created_covering_idx ON checkouts (organization_id, created_at)
  INCLUDE (status, product_id, customer_id);
DROP INDEX checkouts_organization_created_idx;
CREATE INDEX subscriptions_organization_started_idx ON subscriptions (organization_id, started_at)
  INCLUDE (ended_at, amount, recurring_interval, product_id, customer_id);
