-- Each change of a subscription's amount or interval (a product or discount change), for the MRR
-- expansion and contraction metrics (docs/metrics.md).
CREATE TABLE subscription_amount_changes (
  id uuid PRIMARY KEY,
  subscription_id uuid NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL,
  changed_at timestamptz NOT NULL,
  previous_amount integer NOT NULL,
  previous_interval text NOT NULL,
  amount integer NOT NULL,
  recurring_interval text NOT NULL
);
CREATE INDEX subscription_amount_changes_organization_idx ON subscription_amount_changes (organization_id, changed_at);
CREATE INDEX subscription_amount_changes_subscription_idx ON subscription_amount_changes (subscription_id, changed_at);
