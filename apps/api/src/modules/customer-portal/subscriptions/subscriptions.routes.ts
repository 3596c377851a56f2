import { read, write } from '../../../platform/auth/scopes.js';
import { defineRoute } from '../../../platform/http/route.js';
import { IdParams } from '../../../platform/http/schemas.js';
import { runIn } from '../../../platform/jobs/queue.js';
import { withStripeTax } from '../../billing/billing.stripe-tax.js';
import { collectChangeCharges } from '../../subscriptions/subscriptions.renewal.js';
import {
  CustomerSubscription,
  CustomerSubscriptionListQuery,
  CustomerSubscriptionUpdate,
  CustomerSubscriptionPreviewRequest,
  ListResourceCustomerSubscription,
} from './subscriptions.schemas.js';
import { SubscriptionPreview } from '../../subscriptions/subscriptions.schemas.js';
import {
  cancelCustomerSubscription,
  getCustomerSubscription,
  listCustomerSubscriptions,
  previewCustomerSubscription,
  updateCustomerSubscription,
} from './subscriptions.service.js';

const tags = ['customer_portal'];

export const portalSubscriptionRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/customer-portal/subscriptions/',
    operationId: 'customer_portal:subscriptions:list',
    summary: "List the customer's subscriptions",
    tags,
    auth: { subjects: ['customer'], scopes: read('customer_portal') },
    query: CustomerSubscriptionListQuery,
    status: 200,
    response: ListResourceCustomerSubscription,
    handler: (ctx, { query }) => listCustomerSubscriptions(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/customer-portal/subscriptions/{id}',
    operationId: 'customer_portal:subscriptions:get',
    summary: "Get one of the customer's subscriptions",
    tags,
    auth: { subjects: ['customer'], scopes: read('customer_portal') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: CustomerSubscription,
    handler: (ctx, { params }) => getCustomerSubscription(ctx, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/customer-portal/subscriptions/{id}',
    operationId: 'customer_portal:subscriptions:update',
    summary: "Cancel, uncancel or change the plan of one of the customer's subscriptions",
    tags,
    auth: { subjects: ['customer'], scopes: write('customer_portal') },
    params: IdParams,
    body: CustomerSubscriptionUpdate,
    errors: ['ResourceNotFound', 'AlreadyCanceledSubscription', 'BadRequest'],
    status: 200,
    response: CustomerSubscription,
    // As the seller's update: its own transactions, Stripe Tax asked before the one that writes an order
    // billed at once, which is charged after it commits (subscriptions.routes.ts).
    transaction: false,
    handler: async (ctx, { params, body }) => {
      const run = ctx.transactions ?? runIn(ctx);
      const updated = await withStripeTax(ctx, run, (tx) => updateCustomerSubscription(tx, params.id, body));
      if ((await collectChangeCharges(ctx, run, params.id)) === 0) return updated;
      return run.transaction((tx) => getCustomerSubscription(tx, params.id));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/customer-portal/subscriptions/{id}/preview',
    operationId: 'customer_portal:subscriptions:preview',
    summary: "Preview a plan change of one of the customer's subscriptions (nothing changes)",
    tags,
    auth: { subjects: ['customer'], scopes: read('customer_portal') },
    params: IdParams,
    body: CustomerSubscriptionPreviewRequest,
    errors: ['ResourceNotFound', 'AlreadyCanceledSubscription'],
    status: 200,
    response: SubscriptionPreview,
    extension: true,
    handler: (ctx, { params, body }) => previewCustomerSubscription(ctx, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/customer-portal/subscriptions/{id}',
    operationId: 'customer_portal:subscriptions:cancel',
    summary: "Cancel one of the customer's subscriptions at the end of its period",
    tags,
    auth: { subjects: ['customer'], scopes: write('customer_portal') },
    params: IdParams,
    errors: ['ResourceNotFound', 'AlreadyCanceledSubscription'],
    status: 200,
    response: CustomerSubscription,
    handler: (ctx, { params }) => cancelCustomerSubscription(ctx, params.id),
  }),
];
