-- Tax a seller configures (docs/tax.md). Settings per organization: whether prices include tax and
-- whether Stripe Tax computes it instead of the registrations. A registration is one place the seller
-- collects tax (a country, and a state or province in the US and Canada) with a rate in basis points
-- and the label its lines show. Products may be exempt. Checkouts and orders keep the details of the
-- calculation that taxed them (rate, label, jurisdiction, reverse charge), so invoices, refunds and the
-- tax report read what was charged, never today's rates.
ALTER TABLE organizations ADD COLUMN tax_settings jsonb NOT NULL DEFAULT '{}'::jsonb;

CREATE TABLE tax_registrations (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  country text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  -- '' for a whole country: one registration per place, enforced by the unique index below.
  state text NOT NULL DEFAULT '',
  rate_basis_points integer NOT NULL CHECK (rate_basis_points BETWEEN 0 AND 10000),
  label text NOT NULL
);
CREATE UNIQUE INDEX tax_registrations_place ON tax_registrations (organization_id, country, state);

ALTER TABLE products ADD COLUMN is_tax_applicable boolean NOT NULL DEFAULT true;

ALTER TABLE checkouts ADD COLUMN tax_details jsonb;
ALTER TABLE orders ADD COLUMN tax_details jsonb;
CREATE INDEX orders_tax_report ON orders (organization_id, created_at) WHERE tax_details IS NOT NULL;
