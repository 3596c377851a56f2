import { read, write } from '../../platform/auth/scopes.js';
import { NoContent, defineRoute } from '../../platform/http/route.js';
import { mapPage } from '../../platform/http/query.js';
import { IdParams } from '../../platform/http/schemas.js';
import {
  Benefit,
  BenefitCreate,
  BenefitGrantListQuery,
  BenefitListQuery,
  BenefitUpdate,
  ListResourceBenefit,
  ListResourceBenefitGrant,
} from './benefits.schemas.js';
import { serializeBenefit } from './benefits.serializer.js';
import {
  createBenefit,
  deleteBenefit,
  getBenefit,
  listBenefits,
  listGrants,
  updateBenefit,
} from './benefits.service.js';

const tags = ['benefits'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

export const benefitRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/benefits/',
    operationId: 'benefits:list',
    summary: 'List benefits',
    tags,
    auth: { subjects, scopes: read('benefits') },
    query: BenefitListQuery,
    status: 200,
    response: ListResourceBenefit,
    handler: async (ctx, { query }) => mapPage(await listBenefits(ctx, query), serializeBenefit),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/benefits/',
    operationId: 'benefits:create',
    summary: 'Create a benefit',
    tags,
    auth: { subjects, scopes: write('benefits') },
    // A Discord benefit's role is checked with Discord before the benefit's transaction opens.
    transaction: false,
    body: BenefitCreate,
    errors: ['BadRequest'],
    status: 201,
    response: Benefit,
    handler: async (ctx, { body }) => serializeBenefit(await createBenefit(ctx, body)),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/benefits/{id}',
    operationId: 'benefits:get',
    summary: 'Get a benefit',
    tags,
    auth: { subjects, scopes: read('benefits') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: Benefit,
    handler: async (ctx, { params }) => serializeBenefit(await getBenefit(ctx, params.id)),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/benefits/{id}',
    operationId: 'benefits:update',
    summary: 'Update a benefit',
    tags,
    auth: { subjects, scopes: write('benefits') },
    params: IdParams,
    // A Discord benefit's new role is checked with Discord before the benefit's transaction opens.
    transaction: false,
    body: BenefitUpdate,
    errors: ['ResourceNotFound', 'BadRequest'],
    status: 200,
    response: Benefit,
    handler: async (ctx, { params, body }) => serializeBenefit(await updateBenefit(ctx, params.id, body)),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/benefits/{id}',
    operationId: 'benefits:delete',
    summary: 'Delete a benefit',
    tags,
    auth: { subjects, scopes: write('benefits') },
    params: IdParams,
    errors: ['ResourceNotFound', 'NotPermitted'],
    status: 204,
    response: NoContent,
    handler: async (ctx, { params }) => deleteBenefit(ctx, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/benefits/{id}/grants',
    operationId: 'benefits:grants',
    summary: 'List the grants of a benefit',
    tags,
    auth: { subjects, scopes: read('benefits') },
    params: IdParams,
    query: BenefitGrantListQuery,
    errors: ['ResourceNotFound'],
    status: 200,
    response: ListResourceBenefitGrant,
    handler: async (ctx, { params, query }) => listGrants(ctx, params.id, query),
  }),
];
