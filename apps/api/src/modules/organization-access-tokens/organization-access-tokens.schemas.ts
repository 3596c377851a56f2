import { z } from 'zod/v4';
import { GRANTABLE_SCOPES, SCOPES } from '../../platform/auth/scopes.js';
import { oneOrList, paginationQuery, sortingQuery } from '../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../platform/http/schemas.js';

export const OrganizationAccessToken = z
  .object({
    id: z.uuid(),
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    scopes: z.array(z.enum(SCOPES)),
    expires_at: DateTime().nullable(),
    comment: z.string(),
    last_used_at: DateTime().nullable(),
    organization_id: z.uuid(),
  })
  .meta({ id: 'OrganizationAccessToken' });

export const ListResourceOrganizationAccessToken = ListResource(
  OrganizationAccessToken,
  'ListResourceOrganizationAccessToken',
);

const grantableScope = z.enum(GRANTABLE_SCOPES as [string, ...string[]], {
  message: `Input should be one of the grantable scopes`,
});

/** Seconds, or an ISO 8601 duration such as `P30D` or `PT12H`. */
export const Duration = z.union([
  z
    .int()
    .min(60)
    .max(10 * 366 * 86400),
  z
    .string()
    .regex(
      /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/,
      'Input should be a valid ISO 8601 duration',
    ),
]);

export const OrganizationAccessTokenCreate = z
  .object({
    organization_id: Id(),
    comment: z.string().max(200).default(''),
    scopes: z.array(grantableScope).min(1).max(GRANTABLE_SCOPES.length),
    expires_in: Duration.nullable().optional(),
  })
  .meta({ id: 'OrganizationAccessTokenCreate' });

export const OrganizationAccessTokenCreateResponse = z
  .object({ organization_access_token: OrganizationAccessToken, token: z.string() })
  .meta({ id: 'OrganizationAccessTokenCreateResponse' });

export const OrganizationAccessTokenUpdate = z
  .object({
    comment: z.string().max(200).nullable().optional(),
    scopes: z.array(grantableScope).min(1).nullable().optional(),
  })
  .meta({ id: 'OrganizationAccessTokenUpdate' });

export const OrganizationAccessTokenListQuery = z.object({
  organization_id: oneOrList(Id()),
  ...paginationQuery,
  sorting: sortingQuery(['created_at', 'comment', 'last_used_at', 'organization_id'], ['created_at']),
});

export type OrganizationAccessTokenListParams = z.output<typeof OrganizationAccessTokenListQuery>;
