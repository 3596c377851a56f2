-- Files uploaded by sellers (downloadables, product media, organization avatars) and what they reach:
-- product medias in order, and the downloadables a `downloadables` benefit grants a customer.
CREATE TABLE files (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  deleted_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  service text NOT NULL CHECK (service IN ('downloadable', 'product_media', 'organization_avatar')),
  name text NOT NULL,
  version text,
  path text NOT NULL,
  mime_type text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  storage_version text,
  checksum_etag text,
  checksum_sha256_base64 text,
  checksum_sha256_hex text,
  last_modified_at timestamptz,
  is_uploaded boolean NOT NULL DEFAULT false,
  is_enabled boolean NOT NULL DEFAULT true,
  -- The storage's multipart upload and the parts declared at creation, until it is completed.
  upload_id text,
  upload_parts jsonb NOT NULL DEFAULT '[]'
);
CREATE INDEX files_organization_idx ON files (organization_id, created_at) WHERE deleted_at IS NULL;
-- The cleanup of abandoned uploads reads these.
CREATE INDEX files_pending_idx ON files (created_at) WHERE is_uploaded = false AND deleted_at IS NULL;

CREATE TABLE product_medias (
  product_id uuid NOT NULL REFERENCES products (id),
  file_id uuid NOT NULL REFERENCES files (id),
  "order" integer NOT NULL,
  PRIMARY KEY (product_id, file_id)
);
CREATE INDEX product_medias_file_idx ON product_medias (file_id);

CREATE TABLE downloadables (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  deleted_at timestamptz,
  customer_id uuid NOT NULL REFERENCES customers (id),
  file_id uuid NOT NULL REFERENCES files (id),
  benefit_id uuid NOT NULL REFERENCES benefits (id),
  status text NOT NULL CHECK (status IN ('granted', 'revoked')),
  downloaded integer NOT NULL DEFAULT 0,
  last_downloaded_at timestamptz,
  UNIQUE (customer_id, file_id, benefit_id)
);
CREATE INDEX downloadables_customer_idx ON downloadables (customer_id, created_at);
