-- The subscription lifecycle: charges of renewal and update orders (with their dunning state), proration
-- entries waiting for the next renewal order, and the per-organization offset of the test clock.

-- When the subscription first went past due (dunning counts from it); null when paid up.
ALTER TABLE subscriptions ADD COLUMN past_due_at timestamptz;

-- One row per order the engine charges off-session (renewals, immediate plan changes). The row is the
-- charge's state machine: attempts made, the next one (null once settled), and how it ended.
CREATE TABLE subscription_charges (
  order_id uuid PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  subscription_id uuid NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
  -- The period the order pays for: one renewal order per period, ever.
  period_start timestamptz NOT NULL,
  billing_reason text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'paid', 'failed')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at timestamptz
);
CREATE UNIQUE INDEX subscription_charges_cycle_idx
  ON subscription_charges (subscription_id, period_start) WHERE billing_reason = 'subscription_cycle';
CREATE INDEX subscription_charges_due_idx ON subscription_charges (next_attempt_at) WHERE status = 'pending';

-- Proration credits (negative) and debits (positive) of plan changes, in minor units; pending until an
-- order item carries them (order_id set).
CREATE TABLE subscription_billing_entries (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  subscription_id uuid NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
  label text NOT NULL,
  amount bigint NOT NULL,
  product_price_id uuid REFERENCES product_prices (id),
  order_id uuid REFERENCES orders (id) ON DELETE SET NULL
);
CREATE INDEX subscription_billing_entries_pending_idx ON subscription_billing_entries (subscription_id) WHERE order_id IS NULL;
