-- The payment methods a customer saved (at a checkout of a recurring product, or in the portal), as
-- Tessera knows them: the processor keeps the card, Tessera keeps its id, brand, last four digits and
-- expiry, and which one is the customer's default (the one renewals charge).
CREATE TABLE customer_payment_methods (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  processor text NOT NULL,
  -- pending: committed before the processor is called; requires_action: waits for the customer's
  -- authentication (3-D Secure); active: usable; failed: the processor refused it; removed: deleted.
  status text NOT NULL CHECK (status IN ('pending', 'requires_action', 'active', 'failed', 'removed')),
  idempotency_key text NOT NULL UNIQUE,
  -- The processor's payment method (pm_…), known once the setup succeeded.
  processor_payment_method_id text,
  -- The processor's setup (SetupIntent) while it waits for authentication.
  processor_setup_id text,
  type text NOT NULL DEFAULT 'card',
  brand text,
  last4 text,
  exp_month integer,
  exp_year integer,
  wallet text,
  -- What the customer asked when adding it; applied once the setup succeeds.
  set_default boolean NOT NULL DEFAULT false,
  is_default boolean NOT NULL DEFAULT false,
  decline_reason text,
  removed_at timestamptz,
  CHECK (NOT is_default OR status = 'active')
);
CREATE INDEX customer_payment_methods_customer_idx ON customer_payment_methods (customer_id, created_at);
CREATE UNIQUE INDEX customer_payment_methods_default_key ON customer_payment_methods (customer_id) WHERE is_default;
CREATE UNIQUE INDEX customer_payment_methods_processor_key
  ON customer_payment_methods (customer_id, processor_payment_method_id)
  WHERE status = 'active';

-- Methods saved by checkouts before this migration: each customer's newest becomes the default. The
-- simulated processor's own records give the card; a Stripe card shows as a generic method until then.
INSERT INTO customer_payment_methods (
  id, created_at, organization_id, customer_id, processor, status, idempotency_key,
  processor_payment_method_id, brand, last4, exp_month, exp_year, is_default
)
SELECT gen_random_uuid(), saved.first_seen, saved.organization_id, saved.customer_id,
       CASE WHEN sim.id IS NULL THEN 'stripe' ELSE 'simulated' END, 'active',
       'backfill:' || saved.customer_id || ':' || saved.payment_method_id, saved.payment_method_id,
       sim.brand, sim.last4, sim.exp_month, sim.exp_year,
       row_number() OVER (PARTITION BY saved.customer_id ORDER BY saved.first_seen DESC) = 1
FROM (
  SELECT organization_id, customer_id, payment_method_id, min(created_at) AS first_seen
  FROM subscriptions
  WHERE payment_method_id IS NOT NULL
  GROUP BY organization_id, customer_id, payment_method_id
) saved
LEFT JOIN simulated_payment_methods sim ON sim.id = saved.payment_method_id;

-- The simulated card processor's SetupIntents: a card saved without a charge, which may wait for the
-- customer's authentication (test card 4000 0025 0000 3155).
CREATE TABLE simulated_setup_intents (
  id text PRIMARY KEY,
  created_at timestamptz NOT NULL,
  customer_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('requires_action', 'succeeded', 'failed')),
  client_secret text UNIQUE,
  payment_method_id text,
  decline_reason text,
  brand text NOT NULL,
  last4 text NOT NULL,
  exp_month integer NOT NULL,
  exp_year integer NOT NULL,
  outcome text NOT NULL
);

