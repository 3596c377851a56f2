import { read, write } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { mapPage } from '../../platform/http/query.js';
import { IdParams } from '../../platform/http/schemas.js';
import {
  ListResourceMeter,
  Meter,
  MeterCreate,
  MeterListQuery,
  MeterQuantities,
  MeterQuantitiesQuery,
  MeterUpdate,
} from './meters.schemas.js';
import { serializeMeter } from './meters.serializer.js';
import { createMeter, getMeter, getMeterQuantities, listMeters, updateMeter } from './meters.service.js';

const tags = ['meters'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

export const meterRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/meters/',
    operationId: 'meters:list',
    summary: 'List meters',
    tags,
    auth: { subjects, scopes: read('meters') },
    query: MeterListQuery,
    status: 200,
    response: ListResourceMeter,
    handler: async (ctx, { query }) => mapPage(await listMeters(ctx, query), serializeMeter),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/meters/',
    operationId: 'meters:create',
    summary: 'Create a meter',
    tags,
    auth: { subjects, scopes: write('meters') },
    body: MeterCreate,
    status: 201,
    response: Meter,
    handler: async (ctx, { body }) => serializeMeter(await createMeter(ctx, body)),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/meters/{id}',
    operationId: 'meters:get',
    summary: 'Get a meter',
    tags,
    auth: { subjects, scopes: read('meters') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: Meter,
    handler: async (ctx, { params }) => serializeMeter(await getMeter(ctx, params.id)),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/meters/{id}',
    operationId: 'meters:update',
    summary: 'Update a meter',
    tags,
    auth: { subjects, scopes: write('meters') },
    params: IdParams,
    body: MeterUpdate,
    errors: ['ResourceNotFound'],
    status: 200,
    response: Meter,
    handler: async (ctx, { params, body }) => serializeMeter(await updateMeter(ctx, params.id, body)),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/meters/{id}/quantities',
    operationId: 'meters:quantities',
    summary: "Get a meter's quantities",
    tags,
    auth: { subjects, scopes: read('meters') },
    params: IdParams,
    query: MeterQuantitiesQuery,
    errors: ['ResourceNotFound'],
    status: 200,
    response: MeterQuantities,
    handler: async (ctx, { params, query }) => getMeterQuantities(ctx, params.id, query),
  }),
];
