-- Test clocks (outside production): how far an organization's clock runs ahead of the server's. Renewals,
-- dunning and expiry of that organization run on the shifted time; requests acting for it read it too.
CREATE TABLE test_clocks (
  organization_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  offset_seconds bigint NOT NULL DEFAULT 0 CHECK (offset_seconds >= 0)
);
