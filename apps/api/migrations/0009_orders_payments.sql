-- Orders and their items, per-organization invoice numbering, invoice requests, payments, and the state of
-- the built-in simulated card processor. Timestamps come from the application clock; ids from the app.

-- The invoice number sequence of each organization: `last_number` is the number given to the latest
-- order. Allocation is one upsert that takes the row lock, so concurrent orders get distinct,
-- consecutive numbers.
CREATE TABLE organization_invoice_sequences (
  organization_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  last_number bigint NOT NULL CHECK (last_number >= 1)
);

CREATE TABLE orders (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  customer_id uuid NOT NULL REFERENCES customers (id),
  product_id uuid NOT NULL REFERENCES products (id),
  product_price_id uuid REFERENCES product_prices (id),
  discount_id uuid REFERENCES discounts (id),
  -- The subscriptions and checkouts tables come later; the links are plain ids until then.
  subscription_id uuid,
  checkout_id uuid,
  status text NOT NULL CHECK (status IN ('pending', 'paid', 'refunded', 'partially_refunded')),
  billing_reason text NOT NULL
    CHECK (billing_reason IN ('purchase', 'subscription_create', 'subscription_cycle', 'subscription_update')),
  currency text NOT NULL,
  subtotal_amount bigint NOT NULL CHECK (subtotal_amount >= 0),
  discount_amount bigint NOT NULL CHECK (discount_amount >= 0),
  net_amount bigint NOT NULL CHECK (net_amount >= 0),
  tax_amount bigint NOT NULL CHECK (tax_amount >= 0),
  total_amount bigint NOT NULL CHECK (total_amount >= 0),
  refunded_amount bigint NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0 AND refunded_amount <= net_amount),
  refunded_tax_amount bigint NOT NULL DEFAULT 0 CHECK (refunded_tax_amount >= 0 AND refunded_tax_amount <= tax_amount),
  billing_name text,
  -- {line1, line2, postal_code, city, state, country}
  billing_address jsonb,
  invoice_number text NOT NULL,
  -- Set when the invoice PDF exists (`is_invoice_generated`).
  invoice_path text,
  metadata jsonb NOT NULL DEFAULT '{}',
  custom_field_data jsonb NOT NULL DEFAULT '{}',
  CHECK (net_amount = subtotal_amount - discount_amount),
  CHECK (total_amount = net_amount + tax_amount)
);
CREATE UNIQUE INDEX orders_invoice_number_key ON orders (organization_id, invoice_number);
CREATE INDEX orders_organization_created_idx ON orders (organization_id, created_at);
CREATE INDEX orders_customer_idx ON orders (customer_id);
CREATE INDEX orders_product_idx ON orders (product_id);
CREATE INDEX orders_checkout_idx ON orders (checkout_id) WHERE checkout_id IS NOT NULL;
CREATE INDEX orders_subscription_idx ON orders (subscription_id) WHERE subscription_id IS NOT NULL;
CREATE INDEX orders_discount_idx ON orders (discount_id) WHERE discount_id IS NOT NULL;

CREATE TABLE order_items (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  position integer NOT NULL,
  label text NOT NULL,
  -- Proration credits may be negative.
  amount bigint NOT NULL,
  tax_amount bigint NOT NULL,
  proration boolean NOT NULL DEFAULT false,
  product_price_id uuid REFERENCES product_prices (id),
  UNIQUE (order_id, position)
);

-- Invoice generation requests (`POST /v1/orders/{id}/invoice`); the renderer fills `generated_at` and
-- the order's `invoice_path`.
CREATE TABLE order_invoice_requests (
  order_id uuid PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  generated_at timestamptz
);
CREATE INDEX order_invoice_requests_pending_idx ON order_invoice_requests (created_at) WHERE generated_at IS NULL;

CREATE TABLE payments (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  checkout_id uuid,
  order_id uuid REFERENCES orders (id),
  -- Which processor took it (simulated or stripe); the wire always says "stripe".
  processor text NOT NULL CHECK (processor IN ('simulated', 'stripe')),
  processor_payment_id text,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  amount bigint NOT NULL CHECK (amount >= 0),
  currency text NOT NULL,
  method text NOT NULL,
  -- {brand, last4}
  method_metadata jsonb,
  decline_reason text,
  decline_message text,
  customer_email text,
  CHECK (checkout_id IS NOT NULL OR order_id IS NOT NULL)
);
CREATE INDEX payments_organization_created_idx ON payments (organization_id, created_at);
CREATE INDEX payments_checkout_idx ON payments (checkout_id) WHERE checkout_id IS NOT NULL;
CREATE INDEX payments_order_idx ON payments (order_id) WHERE order_id IS NOT NULL;

-- The simulated card processor. Only brand, last four digits and expiry of a card are kept (never the
-- number or the CVC), plus the simulated outcome the test card asked for.
CREATE TABLE simulated_confirmation_tokens (
  id text PRIMARY KEY,
  created_at timestamptz NOT NULL,
  used_at timestamptz,
  brand text NOT NULL,
  last4 text NOT NULL,
  exp_month integer NOT NULL,
  exp_year integer NOT NULL,
  outcome text NOT NULL
);

CREATE TABLE simulated_payment_methods (
  id text PRIMARY KEY,
  created_at timestamptz NOT NULL,
  customer_id text NOT NULL,
  brand text NOT NULL,
  last4 text NOT NULL,
  exp_month integer NOT NULL,
  exp_year integer NOT NULL,
  outcome text NOT NULL
);
CREATE INDEX simulated_payment_methods_customer_idx ON simulated_payment_methods (customer_id);

CREATE TABLE simulated_charges (
  id text PRIMARY KEY,
  created_at timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('succeeded', 'failed')),
  amount bigint NOT NULL CHECK (amount >= 0),
  currency text NOT NULL,
  amount_refunded bigint NOT NULL DEFAULT 0,
  payment_method_id text,
  decline_reason text,
  CHECK (amount_refunded >= 0 AND amount_refunded <= amount)
);

CREATE TABLE simulated_refunds (
  id text PRIMARY KEY,
  created_at timestamptz NOT NULL,
  charge_id text NOT NULL REFERENCES simulated_charges (id),
  amount bigint NOT NULL CHECK (amount > 0)
);

-- Results by idempotency key: a retried call answers the stored result and moves no money.
CREATE TABLE simulated_idempotency_keys (
  key text PRIMARY KEY,
  created_at timestamptz NOT NULL,
  operation text NOT NULL,
  result jsonb NOT NULL
);
