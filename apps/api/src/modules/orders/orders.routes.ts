import { read, write } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { IdParams } from '../../platform/http/schemas.js';
import {
  InvoiceGenerationAccepted,
  ListResourceOrder,
  Order,
  OrderInvoice,
  OrderExportQuery,
  OrderListQuery,
  OrderReceipt,
  OrderUpdate,
} from './orders.schemas.js';
import { getOrderInvoice, requestOrderInvoice } from './orders.invoice.js';
import { getOrderReceipt } from './orders.receipt.js';
import { exportOrders, getOrder, listOrders, updateOrder } from './orders.service.js';
import { z } from 'zod/v4';

const tags = ['orders'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

export const orderRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/orders/',
    operationId: 'orders:list',
    summary: 'List orders',
    tags,
    auth: { subjects, scopes: read('orders') },
    query: OrderListQuery,
    status: 200,
    response: ListResourceOrder,
    handler: (ctx, { query }) => listOrders(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/orders/export',
    operationId: 'orders:export',
    summary: 'Export orders as a CSV file',
    tags,
    produces: 'text/csv',
    auth: { subjects, scopes: read('orders') },
    query: OrderExportQuery,
    status: 200,
    response: z.string(),
    handler: async (ctx, { query }, reply) => {
      reply.header('content-disposition', 'attachment; filename="orders.csv"');
      return exportOrders(ctx, query);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/orders/{id}',
    operationId: 'orders:get',
    summary: 'Get an order',
    tags,
    auth: { subjects, scopes: read('orders') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: Order,
    handler: (ctx, { params }) => getOrder(ctx, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/orders/{id}',
    operationId: 'orders:update',
    summary: 'Update an order',
    tags,
    auth: { subjects, scopes: write('orders') },
    params: IdParams,
    body: OrderUpdate,
    errors: ['ResourceNotFound'],
    status: 200,
    response: Order,
    handler: (ctx, { params, body }) => updateOrder(ctx, params.id, body),
  }),
  // The reference asks only for the read scope here: generating the invoice changes no order data.
  defineRoute({
    method: 'POST',
    path: '/v1/orders/{id}/invoice',
    operationId: 'orders:generate_invoice',
    summary: 'Trigger the invoice generation of an order',
    tags,
    auth: { subjects, scopes: read('orders') },
    params: IdParams,
    errors: ['ResourceNotFound', 'InvoiceAlreadyExists', 'MissingInvoiceBillingDetails', 'NotPaidOrder'],
    status: 202,
    response: InvoiceGenerationAccepted,
    handler: (ctx, { params }) => requestOrderInvoice(ctx, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/orders/{id}/invoice',
    operationId: 'orders:invoice',
    summary: 'Get the invoice of an order',
    tags,
    auth: { subjects, scopes: read('orders') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: OrderInvoice,
    handler: (ctx, { params }) => getOrderInvoice(ctx, params.id),
  }),

  // 200 with the link of the stored receipt, or 202 while the worker renders it.
  defineRoute({
    method: 'GET',
    path: '/v1/orders/{id}/receipt',
    operationId: 'orders:receipt',
    summary: 'Get the receipt of an order',
    tags,
    auth: { subjects, scopes: read('orders') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    accepted: true,
    response: OrderReceipt,
    handler: async (ctx, { params }, reply) => (await getOrderReceipt(ctx, params.id)) ?? reply.accepted(),
  }),
];
