import { read } from '../../../platform/auth/scopes.js';
import { defineRoute } from '../../../platform/http/route.js';
import { IdParams } from '../../../platform/http/schemas.js';
import { getPortalCustomerMeter, listPortalCustomerMeters } from '../../customer-meters/customer-meters.service.js';
import {
  CustomerCustomerMeter,
  CustomerCustomerMeterListQuery,
  ListResourceCustomerCustomerMeter,
} from './meters.schemas.js';

const tags = ['customer_portal'];

/** The customer's own meters (balance and consumption of the current window), read by its session. */
export const portalMeterRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/customer-portal/meters/',
    operationId: 'customer_portal:customer_meters:list',
    summary: "List the customer's meters",
    tags,
    auth: { subjects: ['customer'], scopes: read('customer_portal') },
    query: CustomerCustomerMeterListQuery,
    status: 200,
    response: ListResourceCustomerCustomerMeter,
    handler: (ctx, { query }) => listPortalCustomerMeters(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/customer-portal/meters/{id}',
    operationId: 'customer_portal:customer_meters:get',
    summary: "Get one of the customer's meters",
    tags,
    auth: { subjects: ['customer'], scopes: read('customer_portal') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: CustomerCustomerMeter,
    handler: (ctx, { params }) => getPortalCustomerMeter(ctx, params.id),
  }),
];
