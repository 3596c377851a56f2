-- Products, their prices, the benefits and custom fields attached to them.
-- Ids come from the application; timestamps from the application clock (never now()).

-- price_sort_type and price_sort_amount are the list sort keys of the product's first non-archived
-- price by creation (products.prices.ts computes them; the service rewrites them whenever prices change).
CREATE TABLE products (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text,
  recurring_interval text CHECK (recurring_interval IN ('month', 'year')),
  is_archived boolean NOT NULL DEFAULT false,
  metadata jsonb NOT NULL DEFAULT '{}',
  price_sort_type smallint,
  price_sort_amount bigint
);
CREATE INDEX products_organization_created_idx ON products (organization_id, created_at);
CREATE INDEX products_organization_name_idx ON products (organization_id, name);
CREATE INDEX products_organization_price_type_idx ON products (organization_id, price_sort_type);
CREATE INDEX products_organization_price_amount_idx ON products (organization_id, price_sort_amount);

-- Prices are never deleted: a price left out of an update is archived, and orders and subscriptions
-- keep pointing at it. `position` orders prices created in the same instant (one request).
-- unit_amount is numeric(17,12) as the reference stores it; amounts are integers in minor units.
CREATE TABLE product_prices (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  position integer NOT NULL,
  amount_type text NOT NULL CHECK (amount_type IN ('fixed', 'custom', 'free', 'metered_unit')),
  is_archived boolean NOT NULL DEFAULT false,
  price_currency text CHECK (price_currency ~ '^[a-z]{3}$'),
  price_amount bigint CHECK (price_amount >= 0),
  minimum_amount bigint CHECK (minimum_amount >= 0),
  maximum_amount bigint CHECK (maximum_amount >= 0),
  preset_amount bigint CHECK (preset_amount >= 0),
  unit_amount numeric(17, 12) CHECK (unit_amount > 0),
  cap_amount bigint CHECK (cap_amount >= 0),
  meter_id uuid REFERENCES meters (id),
  CHECK ((amount_type = 'free') = (price_currency IS NULL)),
  CHECK ((amount_type = 'fixed') = (price_amount IS NOT NULL)),
  CHECK (amount_type = 'custom' OR (minimum_amount IS NULL AND maximum_amount IS NULL AND preset_amount IS NULL)),
  CHECK ((amount_type = 'metered_unit') = (unit_amount IS NOT NULL AND meter_id IS NOT NULL)),
  CHECK (amount_type = 'metered_unit' OR cap_amount IS NULL)
);
CREATE INDEX product_prices_product_idx ON product_prices (product_id, position);
CREATE INDEX product_prices_meter_idx ON product_prices (meter_id) WHERE meter_id IS NOT NULL;

CREATE TABLE product_benefits (
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  benefit_id uuid NOT NULL REFERENCES benefits (id) ON DELETE CASCADE,
  "order" integer NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (product_id, benefit_id)
);
-- The list's benefit_id filter.
CREATE INDEX product_benefits_benefit_idx ON product_benefits (benefit_id);

CREATE TABLE product_custom_fields (
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  custom_field_id uuid NOT NULL REFERENCES custom_fields (id) ON DELETE CASCADE,
  "order" integer NOT NULL,
  required boolean NOT NULL,
  PRIMARY KEY (product_id, custom_field_id)
);
CREATE INDEX product_custom_fields_custom_field_idx ON product_custom_fields (custom_field_id);
