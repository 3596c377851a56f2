-- The dashboard's global search (docs/search.md) reads prefixes of emails, names and license keys in
-- order from these indexes, so a query stops after a few rows whatever the table's size. In the C
-- collation `x LIKE 'abc%'` is a range of the index and `ORDER BY x` its order, whatever the database's
-- collation (a text_pattern_ops index gives the range but not the order). License keys of a customer
-- are read by customer.
CREATE INDEX customers_search_email_idx
  ON customers (organization_id, (lower(email) COLLATE "C")) WHERE deleted_at IS NULL;
CREATE INDEX customers_search_name_idx
  ON customers (organization_id, (lower(name) COLLATE "C")) WHERE deleted_at IS NULL;
CREATE INDEX products_search_name_idx ON products (organization_id, (lower(name) COLLATE "C"));
CREATE INDEX license_keys_search_key_idx
  ON license_keys (organization_id, (key COLLATE "C")) WHERE deleted_at IS NULL;
CREATE INDEX license_keys_customer_idx ON license_keys (customer_id) WHERE deleted_at IS NULL;

-- Checkout and portal branding (docs/branding.md): brand colour, light or dark theme, whether the logo
-- and product images show. A missing key takes its default.
ALTER TABLE organizations ADD COLUMN branding_settings jsonb NOT NULL DEFAULT '{}';
