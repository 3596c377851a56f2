import { z } from 'zod/v4';
import { read, write } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { IdParams } from '../../platform/http/schemas.js';
import {
  Discount,
  DiscountCreate,
  DiscountListQuery,
  DiscountUpdate,
  ListResourceDiscount,
} from './discounts.schemas.js';
import { createDiscount, deleteDiscount, getDiscount, listDiscounts, updateDiscount } from './discounts.service.js';

const tags = ['discounts'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

export const discountRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/discounts/',
    operationId: 'discounts:list',
    summary: 'List discounts',
    tags,
    auth: { subjects, scopes: read('discounts') },
    query: DiscountListQuery,
    status: 200,
    response: ListResourceDiscount,
    handler: (ctx, { query }) => listDiscounts(ctx, query),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/discounts/',
    operationId: 'discounts:create',
    summary: 'Create a discount',
    tags,
    auth: { subjects, scopes: write('discounts') },
    body: DiscountCreate,
    status: 201,
    response: Discount,
    handler: (ctx, { body }) => createDiscount(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/discounts/{id}',
    operationId: 'discounts:get',
    summary: 'Get a discount',
    tags,
    auth: { subjects, scopes: read('discounts') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: Discount,
    handler: (ctx, { params }) => getDiscount(ctx, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/discounts/{id}',
    operationId: 'discounts:update',
    summary: 'Update a discount',
    tags,
    auth: { subjects, scopes: write('discounts') },
    params: IdParams,
    body: DiscountUpdate,
    errors: ['ResourceNotFound'],
    status: 200,
    response: Discount,
    handler: (ctx, { params, body }) => updateDiscount(ctx, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/discounts/{id}',
    operationId: 'discounts:delete',
    summary: 'Delete a discount',
    tags,
    auth: { subjects, scopes: write('discounts') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 204,
    response: z.undefined(),
    handler: (ctx, { params }) => deleteDiscount(ctx, params.id),
  }),
];
