import { defineRoute } from '../../platform/http/route.js';
import { IdParams } from '../../platform/http/schemas.js';
import { CustomerMeter, CustomerMeterListQuery, ListResourceCustomerMeter } from './customer-meters.schemas.js';
import { getCustomerMeter, listCustomerMeters } from './customer-meters.service.js';

const tags = ['customer_meters'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];
/** As the reference: only `customer_meters:read` (and the dashboard's own scope). */
const scopes = ['web_default', 'customer_meters:read'] as const;

export const customerMeterRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/customer-meters/',
    operationId: 'customer_meters:list',
    summary: 'List customer meters',
    tags,
    auth: { subjects, scopes: [...scopes] },
    query: CustomerMeterListQuery,
    status: 200,
    response: ListResourceCustomerMeter,
    handler: (ctx, { query }) => listCustomerMeters(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/customer-meters/{id}',
    operationId: 'customer_meters:get',
    summary: 'Get a customer meter',
    tags,
    auth: { subjects, scopes: [...scopes] },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: CustomerMeter,
    handler: (ctx, { params }) => getCustomerMeter(ctx, params.id),
  }),
];
