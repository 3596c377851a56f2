import { z } from 'zod/v4';
import { read, write } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { mapPage } from '../../platform/http/query.js';
import { IdParams } from '../../platform/http/schemas.js';
import {
  CustomField,
  CustomFieldCreate,
  CustomFieldListQuery,
  CustomFieldUpdate,
  ListResourceCustomField,
} from './custom-fields.schemas.js';
import { serializeCustomField } from './custom-fields.serializer.js';
import {
  createCustomField,
  deleteCustomField,
  getCustomField,
  listCustomFields,
  updateCustomField,
} from './custom-fields.service.js';

const tags = ['custom-fields'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

export const customFieldRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/custom-fields/',
    operationId: 'custom-fields:list',
    summary: 'List custom fields',
    tags,
    auth: { subjects, scopes: read('custom_fields') },
    query: CustomFieldListQuery,
    status: 200,
    response: ListResourceCustomField,
    handler: async (ctx, { query }) => mapPage(await listCustomFields(ctx, query), serializeCustomField),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/custom-fields/',
    operationId: 'custom-fields:create',
    summary: 'Create a custom field',
    tags,
    auth: { subjects, scopes: write('custom_fields') },
    body: CustomFieldCreate,
    status: 201,
    response: CustomField,
    handler: async (ctx, { body }) => serializeCustomField(await createCustomField(ctx, body)),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/custom-fields/{id}',
    operationId: 'custom-fields:get',
    summary: 'Get a custom field',
    tags,
    auth: { subjects, scopes: read('custom_fields') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: CustomField,
    handler: async (ctx, { params }) => serializeCustomField(await getCustomField(ctx, params.id)),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/custom-fields/{id}',
    operationId: 'custom-fields:update',
    summary: 'Update a custom field',
    tags,
    auth: { subjects, scopes: write('custom_fields') },
    params: IdParams,
    body: CustomFieldUpdate,
    errors: ['ResourceNotFound'],
    status: 200,
    response: CustomField,
    handler: async (ctx, { params, body }) => serializeCustomField(await updateCustomField(ctx, params.id, body)),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/custom-fields/{id}',
    operationId: 'custom-fields:delete',
    summary: 'Delete a custom field',
    tags,
    auth: { subjects, scopes: write('custom_fields') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 204,
    response: z.undefined(),
    handler: async (ctx, { params }) => {
      await deleteCustomField(ctx, params.id);
    },
  }),
];
