-- Checkout link visits: one counter per link and day (the organization's clock), bumped when the link is
-- opened. No IP, user agent or other detail of the visitor is kept.
CREATE TABLE checkout_link_visits (
  checkout_link_id uuid NOT NULL REFERENCES checkout_links (id) ON DELETE CASCADE,
  day date NOT NULL,
  visits integer NOT NULL,
  PRIMARY KEY (checkout_link_id, day)
);
-- Checkouts started and completed per link are counted from checkouts.
CREATE INDEX checkouts_checkout_link_idx ON checkouts (checkout_link_id) WHERE checkout_link_id IS NOT NULL;

-- A subscription's history: one row per change (created, plan or discount change, cancellation with its
-- reason and comment, uncancel, revoke, trial start and conversion, dunning), written in the
-- transaction of the change itself. `details` holds what changed (ids, amounts, reasons).
CREATE TABLE subscription_changes (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  subscription_id uuid NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
  customer_id uuid NOT NULL,
  kind text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX subscription_changes_subscription_idx ON subscription_changes (subscription_id, created_at);
CREATE INDEX subscription_changes_customer_idx ON subscription_changes (customer_id, created_at);
