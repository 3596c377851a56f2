import { read, write } from '../../platform/auth/scopes.js';
import { z } from 'zod/v4';
import { defineRoute } from '../../platform/http/route.js';
import { mapPage } from '../../platform/http/query.js';
import { IdParams } from '../../platform/http/schemas.js';
import {
  ListResourceTaxRegistration,
  TaxRegistration,
  TaxRegistrationCreate,
  TaxRegistrationListQuery,
  TaxRegistrationUpdate,
} from './tax-registrations.schemas.js';
import { serializeTaxRegistration } from './tax-registrations.serializer.js';
import {
  createTaxRegistration,
  deleteTaxRegistrationById,
  getTaxRegistration,
  listTaxRegistrations,
  updateTaxRegistrationById,
} from './tax-registrations.service.js';

const tags = ['tax'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

/** Where an organization collects tax and at what rate (an extension: docs/tax.md). */
export const taxRegistrationRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/tax-registrations/',
    operationId: 'tax_registrations:list',
    summary: 'List tax registrations',
    tags,
    extension: true,
    auth: { subjects, scopes: read('organizations') },
    query: TaxRegistrationListQuery,
    status: 200,
    response: ListResourceTaxRegistration,
    handler: async (ctx, { query }) => mapPage(await listTaxRegistrations(ctx, query), serializeTaxRegistration),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/tax-registrations/',
    operationId: 'tax_registrations:create',
    summary: 'Register a place where tax is collected, with its rate',
    tags,
    extension: true,
    auth: { subjects, scopes: write('organizations') },
    body: TaxRegistrationCreate,
    status: 201,
    response: TaxRegistration,
    handler: async (ctx, { body }) => serializeTaxRegistration(await createTaxRegistration(ctx, body)),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/tax-registrations/{id}',
    operationId: 'tax_registrations:get',
    summary: 'Get a tax registration',
    tags,
    extension: true,
    auth: { subjects, scopes: read('organizations') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: TaxRegistration,
    handler: async (ctx, { params }) => serializeTaxRegistration(await getTaxRegistration(ctx, params.id)),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/tax-registrations/{id}',
    operationId: 'tax_registrations:update',
    summary: "Change a registration's rate or label (from now on; orders keep theirs)",
    tags,
    extension: true,
    auth: { subjects, scopes: write('organizations') },
    params: IdParams,
    body: TaxRegistrationUpdate,
    errors: ['ResourceNotFound'],
    status: 200,
    response: TaxRegistration,
    handler: async (ctx, { params, body }) =>
      serializeTaxRegistration(await updateTaxRegistrationById(ctx, params.id, body)),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/tax-registrations/{id}',
    operationId: 'tax_registrations:delete',
    summary: 'Stop collecting tax in a place',
    tags,
    extension: true,
    auth: { subjects, scopes: write('organizations') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 204,
    response: z.undefined(),
    handler: async (ctx, { params }) => deleteTaxRegistrationById(ctx, params.id),
  }),
];
