import { read, write } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { mapPage } from '../../platform/http/query.js';
import { IdParams } from '../../platform/http/schemas.js';
import {
  ListResourceOrganization,
  Organization,
  OrganizationCreate,
  OrganizationListQuery,
  OrganizationUpdate,
} from './organizations.schemas.js';
import { serializeOrganization } from './organizations.serializer.js';
import { createOrganization, getOrganization, listOrganizations, updateOrganization } from './organizations.service.js';

const tags = ['organizations'];

export const organizationRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/organizations/',
    operationId: 'organizations:list',
    summary: 'List organizations',
    tags,
    auth: { subjects: ['user', 'organization'], scopes: read('organizations') },
    query: OrganizationListQuery,
    status: 200,
    response: ListResourceOrganization,
    handler: async (ctx, { query }) => mapPage(await listOrganizations(ctx, query), serializeOrganization),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/organizations/',
    operationId: 'organizations:create',
    summary: 'Create an organization',
    tags,
    // An organization token belongs to one organization; creating others is a user's act.
    auth: { subjects: ['user'], scopes: write('organizations') },
    body: OrganizationCreate,
    status: 201,
    response: Organization,
    handler: async (ctx, { body }) => serializeOrganization(await createOrganization(ctx, body)),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/organizations/{id}',
    operationId: 'organizations:get',
    summary: 'Get an organization',
    tags,
    auth: { subjects: ['user', 'organization'], scopes: read('organizations') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: Organization,
    readsTokenOrganization: true,
    handler: async (ctx, { params }) => serializeOrganization(await getOrganization(ctx, params.id)),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/organizations/{id}',
    operationId: 'organizations:update',
    summary: 'Update an organization',
    tags,
    auth: { subjects: ['user', 'organization'], scopes: write('organizations') },
    params: IdParams,
    body: OrganizationUpdate,
    errors: ['ResourceNotFound', 'NotPermitted'],
    status: 200,
    response: Organization,
    handler: async (ctx, { params, body }) => serializeOrganization(await updateOrganization(ctx, params.id, body)),
  }),
];
