import { read, write } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { ListResourceRefund, Refund, RefundCreate, RefundListQuery } from './refunds.schemas.js';
import { createRefund, listRefunds } from './refunds.service.js';

const tags = ['refunds'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

export const refundRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/refunds/',
    operationId: 'refunds:list',
    summary: 'List refunds',
    tags,
    auth: { subjects, scopes: read('refunds') },
    query: RefundListQuery,
    status: 200,
    response: ListResourceRefund,
    handler: (ctx, { query }) => listRefunds(ctx, query),
  }),
  // 200 with the refund, as the reference of the spec's era. RevokeSubscriptionBenefitsProhibited is a
  // 400 too (the document keys responses by status: RefundAmountTooHigh names it); a paid order with no
  // refundable payment is the reference's 404 RefundUnknownPayment.
  defineRoute({
    method: 'POST',
    path: '/v1/refunds/',
    operationId: 'refunds:create',
    summary: 'Create a refund',
    tags,
    auth: { subjects, scopes: write('refunds') },
    body: RefundCreate,
    errors: ['RefundAmountTooHigh', 'RefundedAlready', 'ResourceNotFound'],
    // The processor is called between two short transactions (refunds.service.ts).
    transaction: false,
    status: 200,
    response: Refund,
    handler: (ctx, { body }) => createRefund(ctx, body),
  }),
];
