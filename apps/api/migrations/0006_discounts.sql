-- Discounts, the products they are restricted to, and their redemptions (written at checkout confirm).

CREATE TABLE discounts (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  deleted_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  code text,
  type text NOT NULL CHECK (type IN ('fixed', 'percentage')),
  duration text NOT NULL CHECK (duration IN ('once', 'forever', 'repeating')),
  duration_in_months integer CHECK (duration_in_months IS NULL OR duration_in_months >= 1),
  amount bigint CHECK (amount IS NULL OR amount >= 0),
  currency text,
  basis_points integer CHECK (basis_points IS NULL OR basis_points BETWEEN 1 AND 10000),
  starts_at timestamptz,
  ends_at timestamptz,
  max_redemptions integer CHECK (max_redemptions IS NULL OR max_redemptions >= 1),
  metadata jsonb NOT NULL DEFAULT '{}',
  CHECK ((type = 'fixed') = (amount IS NOT NULL AND currency IS NOT NULL)),
  CHECK ((type = 'percentage') = (basis_points IS NOT NULL)),
  CHECK ((duration = 'repeating') = (duration_in_months IS NOT NULL))
);
-- Codes are case-insensitive and unique among an organization's live discounts.
CREATE UNIQUE INDEX discounts_code_key ON discounts (organization_id, lower(code)) WHERE deleted_at IS NULL AND code IS NOT NULL;
CREATE INDEX discounts_organization_created_idx ON discounts (organization_id, created_at);

CREATE TABLE discount_products (
  discount_id uuid NOT NULL REFERENCES discounts (id) ON DELETE CASCADE,
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (discount_id, product_id)
);
CREATE INDEX discount_products_product_idx ON discount_products (product_id);

CREATE TABLE discount_redemptions (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  discount_id uuid NOT NULL REFERENCES discounts (id) ON DELETE CASCADE,
  checkout_id uuid,
  subscription_id uuid
);
CREATE INDEX discount_redemptions_discount_idx ON discount_redemptions (discount_id);
