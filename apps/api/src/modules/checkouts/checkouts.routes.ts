import { z } from 'zod/v4';
import { read, write } from '../../platform/auth/scopes.js';
import { PUBLIC } from '../../platform/auth/subject.js';
import { defineRoute } from '../../platform/http/route.js';
import { IdParams } from '../../platform/http/schemas.js';
import {
  clientUpdateCheckoutWithTax,
  confirmCheckoutWithTax,
  createCheckoutWithTax,
  updateCheckoutWithTax,
} from './checkouts.external-tax.js';
import { openCheckoutFromLink } from './checkouts.links.js';
import {
  Checkout,
  CheckoutConfirmStripe,
  CheckoutCreate,
  CheckoutListQuery,
  CheckoutPublic,
  CheckoutPublicConfirmed,
  CheckoutUpdate,
  CheckoutUpdatePublic,
  ClientSecretParams,
  ListResourceCheckout,
} from './checkouts.schemas.js';
import { clientGetCheckout, getCheckout, listCheckouts } from './checkouts.service.js';

const tags = ['checkouts'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

export const checkoutRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/checkouts/',
    operationId: 'checkouts:list',
    summary: 'List checkout sessions',
    tags,
    auth: { subjects, scopes: read('checkouts') },
    query: CheckoutListQuery,
    status: 200,
    response: ListResourceCheckout,
    handler: (ctx, { query }) => listCheckouts(ctx, query),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/checkouts/',
    operationId: 'checkouts:create',
    summary: 'Create a checkout session',
    tags,
    auth: { subjects, scopes: write('checkouts') },
    body: CheckoutCreate,
    status: 201,
    response: Checkout,
    // Short transactions of its own: Stripe Tax (when the organization uses it) is asked between them.
    transaction: false,
    // The organization and its catalogue version (products kept in memory: products.kept.ts), read
    // before the checkout's transaction as they would be otherwise.
    readsTokenOrganization: true,
    handler: (ctx, { body }) => createCheckoutWithTax(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/checkouts/{id}',
    operationId: 'checkouts:get',
    summary: 'Get a checkout session',
    tags,
    auth: { subjects, scopes: read('checkouts') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: Checkout,
    handler: (ctx, { params }) => getCheckout(ctx, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/checkouts/{id}',
    operationId: 'checkouts:update',
    summary: 'Update a checkout session',
    tags,
    auth: { subjects, scopes: write('checkouts') },
    params: IdParams,
    body: CheckoutUpdate,
    errors: ['ResourceNotFound', 'AlreadyActiveSubscriptionError', 'NotOpenCheckout'],
    status: 200,
    response: Checkout,
    // As create.
    transaction: false,
    handler: (ctx, { params, body }) => updateCheckoutWithTax(ctx, params.id, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/checkouts/client/{client_secret}',
    operationId: 'checkouts:client_get',
    summary: 'Get a checkout session by client secret',
    tags,
    auth: PUBLIC,
    params: ClientSecretParams,
    errors: ['ResourceNotFound', 'ExpiredCheckoutError'],
    status: 200,
    response: CheckoutPublic,
    handler: (ctx, { params }) => clientGetCheckout(ctx, params.client_secret),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/checkouts/client/{client_secret}',
    operationId: 'checkouts:client_update',
    summary: 'Update a checkout session by client secret',
    tags,
    auth: PUBLIC,
    params: ClientSecretParams,
    body: CheckoutUpdatePublic,
    errors: ['ResourceNotFound', 'ExpiredCheckoutError', 'AlreadyActiveSubscriptionError', 'NotOpenCheckout'],
    status: 200,
    response: CheckoutPublic,
    // Short transactions of its own: Stripe Tax (when the organization uses it) is asked between them.
    transaction: false,
    handler: (ctx, { params, body }) => clientUpdateCheckoutWithTax(ctx, params.client_secret, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/checkouts/client/{client_secret}/confirm',
    operationId: 'checkouts:client_confirm',
    summary: 'Confirm a checkout session by client secret',
    tags,
    // The SDK sends the organization token when it has one: accepted, never required.
    auth: { subjects: ['organization'], scopes: [], optional: true },
    params: ClientSecretParams,
    body: CheckoutConfirmStripe,
    errors: [
      'ResourceNotFound',
      'ExpiredCheckoutError',
      'AlreadyActiveSubscriptionError',
      'NotOpenCheckout',
      'PaymentError',
    ],
    status: 200,
    response: CheckoutPublicConfirmed,
    // Short transactions of its own: none may be open while the payment processor is called.
    transaction: false,
    handler: (ctx, { params, body }) => confirmCheckoutWithTax(ctx, params.client_secret, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/checkout-links/{client_secret}/redirect',
    operationId: 'checkout_links:redirect',
    summary: 'Open a checkout link: create a checkout and redirect to it',
    tags: ['checkout-links'],
    auth: PUBLIC,
    internal: true,
    // It creates a checkout: a write, in a transaction.
    transaction: true,
    params: ClientSecretParams,
    query: z.object({}).catchall(z.union([z.string(), z.array(z.string())])),
    errors: ['ResourceNotFound'],
    status: 200,
    response: z.undefined(),
    handler: async (ctx, { params, query }, reply) => {
      reply.redirect(await openCheckoutFromLink(ctx, params.client_secret, query), 307);
    },
  }),
];
