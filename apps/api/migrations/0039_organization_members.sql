-- Teams of sellers: a member's role, and invitations by email (docs/members.md).

-- Everyone who belonged to an organization before teams existed created it: they are its owners.
ALTER TABLE user_organizations ADD COLUMN role text NOT NULL DEFAULT 'owner';
ALTER TABLE user_organizations ALTER COLUMN role SET DEFAULT 'member';
ALTER TABLE user_organizations ADD CONSTRAINT user_organizations_role_check CHECK (role IN ('owner', 'member'));

-- An invitation is a single-use link sent by email; only the HMAC of its token is stored. It is
-- pending until accepted, revoked (by a member, or by a newer invitation of the same address) or past
-- expires_at.
CREATE TABLE organization_invites (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  email text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  invited_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  revoked_at timestamptz
);
CREATE INDEX organization_invites_organization_idx ON organization_invites (organization_id, created_at);
-- One open invitation per address and organization: a new one revokes the previous one first.
CREATE UNIQUE INDEX organization_invites_open_key ON organization_invites (organization_id, lower(email))
  WHERE accepted_at IS NULL AND revoked_at IS NULL;
