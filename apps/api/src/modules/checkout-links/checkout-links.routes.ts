import { z } from 'zod/v4';
import { read, write } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { IdParams } from '../../platform/http/schemas.js';
import {
  CheckoutLink,
  CheckoutLinkCreate,
  CheckoutLinkListQuery,
  CheckoutLinkUpdate,
  ListResourceCheckoutLink,
} from './checkout-links.schemas.js';
import {
  createCheckoutLink,
  deleteCheckoutLink,
  getCheckoutLink,
  listCheckoutLinks,
  updateCheckoutLink,
} from './checkout-links.service.js';

const tags = ['checkout-links'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

export const checkoutLinkRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/checkout-links/',
    operationId: 'checkout-links:list',
    summary: 'List checkout links',
    tags,
    auth: { subjects, scopes: read('checkout_links') },
    query: CheckoutLinkListQuery,
    status: 200,
    response: ListResourceCheckoutLink,
    handler: (ctx, { query }) => listCheckoutLinks(ctx, query),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/checkout-links/',
    operationId: 'checkout-links:create',
    summary: 'Create a checkout link',
    tags,
    auth: { subjects, scopes: write('checkout_links') },
    body: CheckoutLinkCreate,
    status: 201,
    response: CheckoutLink,
    handler: (ctx, { body }) => createCheckoutLink(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/checkout-links/{id}',
    operationId: 'checkout-links:get',
    summary: 'Get a checkout link',
    tags,
    auth: { subjects, scopes: read('checkout_links') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: CheckoutLink,
    handler: (ctx, { params }) => getCheckoutLink(ctx, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/checkout-links/{id}',
    operationId: 'checkout-links:update',
    summary: 'Update a checkout link',
    tags,
    auth: { subjects, scopes: write('checkout_links') },
    params: IdParams,
    body: CheckoutLinkUpdate,
    errors: ['ResourceNotFound'],
    status: 200,
    response: CheckoutLink,
    handler: (ctx, { params, body }) => updateCheckoutLink(ctx, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/checkout-links/{id}',
    operationId: 'checkout-links:delete',
    summary: 'Delete a checkout link',
    tags,
    auth: { subjects, scopes: write('checkout_links') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 204,
    response: z.undefined(),
    handler: (ctx, { params }) => deleteCheckoutLink(ctx, params.id),
  }),
];
