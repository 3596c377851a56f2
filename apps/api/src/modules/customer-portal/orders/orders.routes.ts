import { read } from '../../../platform/auth/scopes.js';
import { defineRoute } from '../../../platform/http/route.js';
import { IdParams } from '../../../platform/http/schemas.js';
import { CustomerOrder, CustomerOrderListQuery, ListResourceCustomerOrder } from './orders.schemas.js';
import { getCustomerOrder, listCustomerOrders } from './orders.service.js';

const tags = ['customer_portal'];

export const portalOrderRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/customer-portal/orders/',
    operationId: 'customer_portal:orders:list',
    summary: "List the customer's orders",
    tags,
    auth: { subjects: ['customer'], scopes: read('customer_portal') },
    query: CustomerOrderListQuery,
    status: 200,
    response: ListResourceCustomerOrder,
    handler: (ctx, { query }) => listCustomerOrders(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/customer-portal/orders/{id}',
    operationId: 'customer_portal:orders:get',
    summary: "Get one of the customer's orders",
    tags,
    auth: { subjects: ['customer'], scopes: read('customer_portal') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: CustomerOrder,
    handler: (ctx, { params }) => getCustomerOrder(ctx, params.id),
  }),
];
