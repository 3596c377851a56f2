-- Checkouts (the hosted purchase session), the products a checkout offers, and the subscriptions a
-- checkout of a recurring product starts (their lifecycle belongs to the subscriptions module).
-- The client secret is the public capability of a checkout (it is in its URL), stored as issued.

CREATE TABLE checkouts (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  client_secret text NOT NULL UNIQUE,
  status text NOT NULL CHECK (status IN ('open', 'expired', 'confirmed', 'succeeded', 'failed')),
  expires_at timestamptz NOT NULL,
  -- Null means the default confirmation page.
  success_url text,
  embed_origin text,
  payment_processor text NOT NULL DEFAULT 'stripe',
  payment_processor_metadata jsonb NOT NULL DEFAULT '{}',
  product_id uuid NOT NULL REFERENCES products (id),
  product_price_id uuid NOT NULL REFERENCES product_prices (id),
  -- The amount of the selected price (the chosen one for pay what you want), in minor units.
  amount bigint NOT NULL CHECK (amount >= 0),
  currency text NOT NULL,
  -- Null until tax can be computed (no billing country yet).
  tax_amount bigint CHECK (tax_amount IS NULL OR tax_amount >= 0),
  discount_id uuid REFERENCES discounts (id),
  allow_discount_codes boolean NOT NULL,
  require_billing_address boolean NOT NULL,
  is_business_customer boolean NOT NULL,
  customer_id uuid REFERENCES customers (id),
  customer_external_id text,
  customer_name text,
  customer_email text,
  customer_ip_address text,
  customer_billing_name text,
  -- {line1, line2, postal_code, city, state, country}
  customer_billing_address jsonb,
  -- [value, format]
  customer_tax_id jsonb,
  customer_metadata jsonb NOT NULL DEFAULT '{}',
  metadata jsonb NOT NULL DEFAULT '{}',
  custom_field_data jsonb NOT NULL DEFAULT '{}',
  -- A free subscription this checkout upgrades.
  subscription_id uuid,
  checkout_link_id uuid REFERENCES checkout_links (id)
);
CREATE INDEX checkouts_organization_created_idx ON checkouts (organization_id, created_at);
CREATE INDEX checkouts_open_expiry_idx ON checkouts (expires_at) WHERE status = 'open';
CREATE INDEX checkouts_customer_idx ON checkouts (customer_id) WHERE customer_id IS NOT NULL;

CREATE TABLE checkout_products (
  checkout_id uuid NOT NULL REFERENCES checkouts (id) ON DELETE CASCADE,
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  "order" integer NOT NULL,
  PRIMARY KEY (checkout_id, product_id)
);
CREATE INDEX checkout_products_product_idx ON checkout_products (product_id);

CREATE TABLE subscriptions (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  customer_id uuid NOT NULL REFERENCES customers (id),
  product_id uuid NOT NULL REFERENCES products (id),
  -- Sum of the price snapshot minus the discount, in minor units.
  amount bigint NOT NULL CHECK (amount >= 0),
  currency text NOT NULL,
  recurring_interval text NOT NULL CHECK (recurring_interval IN ('month', 'year')),
  status text NOT NULL
    CHECK (status IN ('incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid')),
  current_period_start timestamptz NOT NULL,
  current_period_end timestamptz,
  -- Day of month of the first period start: periods keep it (Jan 31 → Feb 28 → Mar 31).
  anchor_day integer NOT NULL CHECK (anchor_day BETWEEN 1 AND 31),
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  canceled_at timestamptz,
  started_at timestamptz,
  ends_at timestamptz,
  ended_at timestamptz,
  discount_id uuid REFERENCES discounts (id),
  checkout_id uuid REFERENCES checkouts (id),
  customer_cancellation_reason text,
  customer_cancellation_comment text,
  metadata jsonb NOT NULL DEFAULT '{}',
  custom_field_data jsonb NOT NULL DEFAULT '{}',
  -- The processor's saved payment method, charged off-session at renewal.
  payment_method_id text
);
CREATE INDEX subscriptions_organization_created_idx ON subscriptions (organization_id, created_at);
CREATE INDEX subscriptions_customer_status_idx ON subscriptions (customer_id, status);
CREATE INDEX subscriptions_period_end_idx ON subscriptions (current_period_end) WHERE status IN ('active', 'trialing', 'past_due');

-- The prices a subscription charges, snapshotted at creation (later price changes do not touch it).
CREATE TABLE subscription_prices (
  subscription_id uuid NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
  product_price_id uuid NOT NULL REFERENCES product_prices (id),
  position integer NOT NULL,
  amount bigint NOT NULL CHECK (amount >= 0),
  PRIMARY KEY (subscription_id, product_price_id)
);
