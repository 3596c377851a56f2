import { read, write } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { IdParams } from '../../platform/http/schemas.js';
import { Dispute, DisputeListQuery, DisputeSimulate, ListResourceDispute } from './disputes.schemas.js';
import { acceptDispute, getDispute, listDisputes, simulateDispute } from './disputes.service.js';

const tags = ['disputes'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

export const disputeRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/disputes/',
    operationId: 'disputes:list',
    summary: 'List disputes',
    tags,
    auth: { subjects, scopes: read('disputes') },
    query: DisputeListQuery,
    status: 200,
    response: ListResourceDispute,
    handler: (ctx, { query }) => listDisputes(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/disputes/{id}',
    operationId: 'disputes:get',
    summary: 'Get a dispute',
    tags,
    auth: { subjects, scopes: read('disputes') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: Dispute,
    handler: (ctx, { params }) => getDispute(ctx, params.id),
  }),
  // The processor is called between two short transactions (disputes.service.ts).
  defineRoute({
    method: 'POST',
    path: '/v1/disputes/{id}/accept',
    operationId: 'disputes:accept',
    summary: 'Accept a dispute, conceding the chargeback',
    tags,
    auth: { subjects, scopes: write('disputes') },
    params: IdParams,
    errors: ['ResourceNotFound', 'DisputeNotOpenError'],
    transaction: false,
    status: 200,
    response: Dispute,
    handler: (ctx, { params }) => acceptDispute(ctx, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/disputes/simulate',
    operationId: 'disputes:simulate',
    summary: "Open a dispute on an order's payment as the simulated processor would report one",
    tags,
    auth: { subjects, scopes: write('disputes') },
    body: DisputeSimulate,
    errors: ['ResourceNotFound'],
    developmentOnly: true,
    extension: true,
    status: 201,
    response: Dispute,
    handler: (ctx, { body }) => simulateDispute(ctx, body),
  }),
];
