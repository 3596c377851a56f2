import { read } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { IdParams } from '../../platform/http/schemas.js';
import { ListResourcePayment, Payment, PaymentListQuery } from './payments.schemas.js';
import { getPayment, listPayments } from './payments.service.js';

const tags = ['payments'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];
/** Payments are read-only: `payments:read` (there is no write scope) or the dashboard's. */
const scopes = read('payments');

export const paymentRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/payments/',
    operationId: 'payments:list',
    summary: 'List payments',
    tags,
    auth: { subjects, scopes },
    query: PaymentListQuery,
    status: 200,
    response: ListResourcePayment,
    handler: (ctx, { query }) => listPayments(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/payments/{id}',
    operationId: 'payments:get',
    summary: 'Get a payment',
    tags,
    auth: { subjects, scopes },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: Payment,
    handler: (ctx, { params }) => getPayment(ctx, params.id),
  }),
];
