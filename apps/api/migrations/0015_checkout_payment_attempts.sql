-- Checkout payments in three steps (commit the attempt, call the processor outside any transaction,
-- record the outcome), Stripe webhooks received once, disputes on orders, and the simulated processor's
-- authentication step (3-D Secure test card).

-- One row per attempt at paying a checkout, committed before the processor is called. `attempt` numbers
-- the attempts of a checkout and names the processor idempotency key (`checkout:{id}:attempt:{n}`): it
-- moves on only after a recorded decline, so a retry after a crash or a timeout asks the processor the
-- same question again and never charges twice.
--   pending          a request is calling the processor
--   interrupted      the call failed without an answer (timeout, network): the next confirm asks again
--   requires_action  the buyer must authenticate (3-D Secure); the page completes it, then confirms again
--   processing       the processor has not settled it yet (Stripe webhook or reconciliation settles it)
--   succeeded/failed settled; the checkout was fulfilled or reopened
CREATE TABLE checkout_payment_attempts (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  checkout_id uuid NOT NULL REFERENCES checkouts (id) ON DELETE CASCADE,
  attempt integer NOT NULL CHECK (attempt >= 1),
  kind text NOT NULL CHECK (kind IN ('charge', 'setup')),
  status text NOT NULL
    CHECK (status IN ('pending', 'interrupted', 'requires_action', 'processing', 'succeeded', 'failed')),
  idempotency_key text NOT NULL UNIQUE,
  processor text NOT NULL CHECK (processor IN ('simulated', 'stripe')),
  confirmation_token_id text NOT NULL,
  customer_id uuid NOT NULL REFERENCES customers (id),
  -- The customer was created by this checkout or linked by the seller: the buyer gets a portal session.
  issue_customer_session boolean NOT NULL,
  amount bigint NOT NULL CHECK (amount >= 0),
  currency text NOT NULL,
  save_payment_method boolean NOT NULL,
  processor_payment_id text,
  payment_id uuid REFERENCES payments (id),
  UNIQUE (checkout_id, attempt)
);
-- At most one unsettled attempt per checkout: two concurrent confirms cannot both start one.
CREATE UNIQUE INDEX checkout_payment_attempts_open_key ON checkout_payment_attempts (checkout_id)
  WHERE status IN ('pending', 'interrupted', 'requires_action', 'processing');
CREATE INDEX checkout_payment_attempts_unsettled_idx ON checkout_payment_attempts (modified_at)
  WHERE status IN ('pending', 'interrupted', 'requires_action', 'processing');
CREATE INDEX checkout_payment_attempts_processor_payment_idx ON checkout_payment_attempts (processor_payment_id)
  WHERE processor_payment_id IS NOT NULL;

-- Stripe webhook events already handled (Stripe delivers at least once).
CREATE TABLE stripe_webhook_events (
  id text PRIMARY KEY,
  created_at timestamptz NOT NULL,
  type text NOT NULL
);

-- Disputes (chargebacks) opened by the cardholder's bank on a paid order.
CREATE TABLE order_disputes (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  payment_id uuid REFERENCES payments (id),
  processor_dispute_id text NOT NULL UNIQUE,
  amount bigint NOT NULL CHECK (amount >= 0),
  currency text NOT NULL,
  reason text NOT NULL,
  status text NOT NULL
);
CREATE INDEX order_disputes_order_idx ON order_disputes (order_id);

-- The simulated processor: a charge may wait for the buyer's authentication (test card
-- 4000 0025 0000 3155); it keeps what is needed to finish it then.
ALTER TABLE simulated_charges DROP CONSTRAINT simulated_charges_status_check;
ALTER TABLE simulated_charges ADD CONSTRAINT simulated_charges_status_check
  CHECK (status IN ('requires_action', 'succeeded', 'failed'));
ALTER TABLE simulated_charges
  ADD COLUMN client_secret text,
  ADD COLUMN customer_id text,
  ADD COLUMN save_payment_method boolean NOT NULL DEFAULT false,
  ADD COLUMN brand text,
  ADD COLUMN last4 text,
  ADD COLUMN exp_month integer,
  ADD COLUMN exp_year integer,
  ADD COLUMN outcome text;
CREATE UNIQUE INDEX simulated_charges_client_secret_key ON simulated_charges (client_secret)
  WHERE client_secret IS NOT NULL;

-- Email-code sign-in to the customer portal: a buyer proves an address by a short code sent to it. Only
-- the code's HMAC is kept; a code works once, until it expires.
CREATE TABLE customer_session_codes (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  code_hash text NOT NULL UNIQUE,
  customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE
);
CREATE INDEX customer_session_codes_customer_idx ON customer_session_codes (customer_id);
