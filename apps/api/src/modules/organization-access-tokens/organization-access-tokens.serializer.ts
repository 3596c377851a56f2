import type { z } from 'zod/v4';
import { iso } from '../../platform/http/schemas.js';
import type { OrganizationAccessTokenRow } from './organization-access-tokens.repository.js';
import type { OrganizationAccessToken } from './organization-access-tokens.schemas.js';

export function serializeOrganizationAccessToken(
  row: OrganizationAccessTokenRow,
): z.input<typeof OrganizationAccessToken> {
  return {
    id: row.id,
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    scopes: row.scopes as z.input<typeof OrganizationAccessToken>['scopes'],
    expires_at: iso(row.expires_at),
    comment: row.comment,
    last_used_at: iso(row.last_used_at),
    organization_id: row.organization_id,
  };
}
