import { read, write } from '../../../platform/auth/scopes.js';
import { defineRoute } from '../../../platform/http/route.js';
import { IdParams } from '../../../platform/http/schemas.js';
import {
  CustomerOrder,
  CustomerOrderInvoice,
  CustomerOrderInvoiceAccepted,
  CustomerOrderListQuery,
  CustomerOrderUpdate,
  ListResourceCustomerOrder,
} from './orders.schemas.js';
import {
  getCustomerOrder,
  getCustomerOrderInvoice,
  listCustomerOrders,
  requestCustomerOrderInvoice,
  updateCustomerOrder,
} from './orders.service.js';

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
  defineRoute({
    method: 'PATCH',
    path: '/v1/customer-portal/orders/{id}',
    operationId: 'customer_portal:orders:update',
    summary: "Update the billing details of one of the customer's orders",
    tags,
    auth: { subjects: ['customer'], scopes: write('customer_portal') },
    params: IdParams,
    body: CustomerOrderUpdate,
    errors: ['ResourceNotFound'],
    status: 200,
    response: CustomerOrder,
    handler: (ctx, { params, body }) => updateCustomerOrder(ctx, params.id, body),
  }),
  // Read scope, as the reference: generating the invoice changes no order data.
  defineRoute({
    method: 'POST',
    path: '/v1/customer-portal/orders/{id}/invoice',
    operationId: 'customer_portal:orders:generate_invoice',
    summary: "Trigger the invoice generation of one of the customer's orders",
    tags,
    auth: { subjects: ['customer'], scopes: read('customer_portal') },
    params: IdParams,
    errors: ['ResourceNotFound', 'InvoiceAlreadyExists', 'MissingInvoiceBillingDetails', 'NotPaidOrder'],
    status: 202,
    response: CustomerOrderInvoiceAccepted,
    handler: (ctx, { params }) => requestCustomerOrderInvoice(ctx, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/customer-portal/orders/{id}/invoice',
    operationId: 'customer_portal:orders:invoice',
    summary: "Get the invoice of one of the customer's orders",
    tags,
    auth: { subjects: ['customer'], scopes: read('customer_portal') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: CustomerOrderInvoice,
    handler: (ctx, { params }) => getCustomerOrderInvoice(ctx, params.id),
  }),
];
