import { z } from 'zod/v4';
import { defineRoute } from '../../platform/http/route.js';
import { mapPage } from '../../platform/http/query.js';
import { IdParams } from '../../platform/http/schemas.js';
import {
  ListResourceOrganizationAccessToken,
  OrganizationAccessToken,
  OrganizationAccessTokenCreate,
  OrganizationAccessTokenCreateResponse,
  OrganizationAccessTokenListQuery,
  OrganizationAccessTokenUpdate,
} from './organization-access-tokens.schemas.js';
import { serializeOrganizationAccessToken } from './organization-access-tokens.serializer.js';
import {
  createOrganizationAccessToken,
  listOrganizationAccessTokens,
  revokeOrganizationAccessToken,
  updateOrganizationAccessToken,
} from './organization-access-tokens.service.js';

const tags = ['organization-access-tokens'];
// Managing tokens is a dashboard act: a token cannot mint or widen tokens.
const auth = { subjects: ['user' as const], scopes: [] };

export const organizationAccessTokenRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/organization-access-tokens/',
    operationId: 'organization_access_tokens:list',
    summary: 'List organization access tokens',
    tags,
    auth,
    query: OrganizationAccessTokenListQuery,
    status: 200,
    response: ListResourceOrganizationAccessToken,
    handler: async (ctx, { query }) =>
      mapPage(await listOrganizationAccessTokens(ctx, query), serializeOrganizationAccessToken),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/organization-access-tokens/',
    operationId: 'organization_access_tokens:create',
    summary: 'Create an organization access token (the token is shown once)',
    tags,
    auth,
    body: OrganizationAccessTokenCreate,
    status: 201,
    response: OrganizationAccessTokenCreateResponse,
    handler: async (ctx, { body }) => {
      const { row, token } = await createOrganizationAccessToken(ctx, body);
      return { organization_access_token: serializeOrganizationAccessToken(row), token };
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/organization-access-tokens/{id}',
    operationId: 'organization_access_tokens:update',
    summary: 'Update an organization access token',
    tags,
    auth,
    params: IdParams,
    body: OrganizationAccessTokenUpdate,
    errors: ['ResourceNotFound'],
    status: 200,
    response: OrganizationAccessToken,
    handler: async (ctx, { params, body }) =>
      serializeOrganizationAccessToken(await updateOrganizationAccessToken(ctx, params.id, body)),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/organization-access-tokens/{id}',
    operationId: 'organization_access_tokens:delete',
    summary: 'Revoke an organization access token',
    tags,
    auth,
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 204,
    response: z.undefined(),
    handler: async (ctx, { params }) => {
      await revokeOrganizationAccessToken(ctx, params.id);
    },
  }),
];
