-- Checkout links: shareable URLs that open a fresh checkout for their products.
-- The client secret is public (it is in the link's URL), so it is stored as issued, unique.

CREATE TABLE checkout_links (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  deleted_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  client_secret text NOT NULL UNIQUE,
  payment_processor text NOT NULL DEFAULT 'stripe',
  label text,
  success_url text,
  allow_discount_codes boolean NOT NULL,
  require_billing_address boolean NOT NULL,
  discount_id uuid REFERENCES discounts (id),
  metadata jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX checkout_links_organization_created_idx ON checkout_links (organization_id, created_at);

CREATE TABLE checkout_link_products (
  checkout_link_id uuid NOT NULL REFERENCES checkout_links (id) ON DELETE CASCADE,
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  "order" integer NOT NULL,
  PRIMARY KEY (checkout_link_id, product_id)
);
CREATE INDEX checkout_link_products_product_idx ON checkout_link_products (product_id);
