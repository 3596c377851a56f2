import { z } from 'zod/v4';
import { read, write } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { runIn } from '../../platform/jobs/queue.js';
import { withStripeTax } from '../billing/billing.stripe-tax.js';
import { IdParams } from '../../platform/http/schemas.js';
import {
  ListResourceSubscription,
  Subscription,
  SubscriptionExportQuery,
  SubscriptionListQuery,
  SubscriptionPreview,
  ListResourceSubscriptionChange,
  SubscriptionHistoryQuery,
  SubscriptionPreviewRequest,
  SubscriptionUpdate,
} from './subscriptions.schemas.js';
import { listSubscriptionHistory } from './subscriptions.history.js';
import { previewSubscriptionUpdate } from './subscriptions.preview.js';
import { collectChangeCharges, collectVisibleChangeCharges } from './subscriptions.renewal.js';
import {
  exportSubscriptions,
  getSubscription,
  listSubscriptions,
  revokeSubscription,
  updateSubscription,
} from './subscriptions.service.js';

const tags = ['subscriptions'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

export const subscriptionRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/subscriptions/',
    operationId: 'subscriptions:list',
    summary: 'List subscriptions',
    tags,
    auth: { subjects, scopes: read('subscriptions') },
    query: SubscriptionListQuery,
    status: 200,
    response: ListResourceSubscription,
    handler: (ctx, { query }) => listSubscriptions(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/subscriptions/export',
    operationId: 'subscriptions:export',
    summary: 'Export subscriptions as a CSV file (Accept: text/csv; otherwise the CSV as a JSON string)',
    tags,
    produces: 'text/csv',
    alsoJson: true,
    auth: { subjects, scopes: read('subscriptions') },
    query: SubscriptionExportQuery,
    status: 200,
    response: z.string(),
    handler: async (ctx, { query }, reply) => {
      const body = await exportSubscriptions(ctx, query);
      if (typeof body !== 'string') reply.header('content-disposition', 'attachment; filename="subscriptions.csv"');
      return body;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/subscriptions/{id}',
    operationId: 'subscriptions:get',
    summary: 'Get a subscription',
    tags,
    auth: { subjects, scopes: read('subscriptions') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: Subscription,
    handler: (ctx, { params }) => getSubscription(ctx, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/subscriptions/{id}',
    operationId: 'subscriptions:update',
    summary: 'Update a subscription',
    tags,
    auth: { subjects, scopes: write('subscriptions') },
    params: IdParams,
    body: SubscriptionUpdate,
    errors: ['ResourceNotFound', 'AlreadyCanceledSubscription', 'BadRequest'],
    status: 200,
    response: Subscription,
    // Its own transactions: an order billed at once is taxed by Stripe Tax (when the organization uses
    // it) asked before the transaction that writes it (billing.stripe-tax.ts), and charged after it
    // commits, with no transaction open; the answer shows the outcome (past due on a decline).
    transaction: false,
    handler: async (ctx, { params, body }) => {
      const run = ctx.transactions ?? runIn(ctx);
      if ('revoke' in body) await collectVisibleChangeCharges(ctx, run, params.id);
      const updated = await withStripeTax(ctx, run, (tx) => updateSubscription(tx, params.id, body));
      if ((await collectChangeCharges(ctx, run, updated.id)) === 0) return updated;
      return run.transaction((tx) => getSubscription(tx, params.id));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/subscriptions/{id}/preview',
    operationId: 'subscriptions:preview',
    summary: 'Preview a plan or discount change: what it charges now and at the next renewal; nothing changes',
    tags,
    auth: { subjects, scopes: read('subscriptions') },
    params: IdParams,
    body: SubscriptionPreviewRequest,
    errors: ['ResourceNotFound', 'AlreadyCanceledSubscription'],
    status: 200,
    response: SubscriptionPreview,
    extension: true,
    handler: (ctx, { params, body }) => previewSubscriptionUpdate(ctx, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/subscriptions/{id}',
    operationId: 'subscriptions:revoke',
    summary: 'Revoke a subscription',
    tags,
    auth: { subjects, scopes: write('subscriptions') },
    params: IdParams,
    errors: ['ResourceNotFound', 'AlreadyCanceledSubscription'],
    status: 200,
    response: Subscription,
    // A change's charge not made yet (the processor unreachable at the change) is collected first, then
    // the final order of what is pending, taxed as for updates.
    transaction: false,
    handler: async (ctx, { params }) => {
      const run = ctx.transactions ?? runIn(ctx);
      await collectVisibleChangeCharges(ctx, run, params.id);
      return withStripeTax(ctx, run, (tx) => revokeSubscription(tx, params.id));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/subscriptions/{id}/history',
    operationId: 'subscriptions:list_history',
    summary: "List a subscription's changes",
    tags,
    extension: true,
    auth: { subjects, scopes: read('subscriptions') },
    params: IdParams,
    query: SubscriptionHistoryQuery,
    errors: ['ResourceNotFound'],
    status: 200,
    response: ListResourceSubscriptionChange,
    handler: (ctx, { params, query }) => listSubscriptionHistory(ctx, params.id, query),
  }),
];
