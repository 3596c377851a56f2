import { read, write } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { mapPage } from '../../platform/http/query.js';
import { IdParams } from '../../platform/http/schemas.js';
import {
  ListResourceProduct,
  Product,
  ProductBenefitsUpdate,
  ProductCreate,
  ProductListQuery,
  ProductUpdate,
} from './products.schemas.js';
import { serializeProduct } from './products.serializer.js';
import { createProduct, getProduct, listProducts, updateProduct, updateProductBenefits } from './products.service.js';

const tags = ['products'];
const subjects: ('user' | 'organization')[] = ['user', 'organization'];

export const productRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/products/',
    operationId: 'products:list',
    summary: 'List products',
    tags,
    auth: { subjects, scopes: read('products') },
    query: ProductListQuery,
    status: 200,
    response: ListResourceProduct,
    handler: async (ctx, { query }) => mapPage(await listProducts(ctx, query), serializeProduct),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/products/',
    operationId: 'products:create',
    summary: 'Create a product',
    tags,
    auth: { subjects, scopes: write('products') },
    body: ProductCreate,
    status: 201,
    response: Product,
    handler: async (ctx, { body }) => serializeProduct(await createProduct(ctx, body)),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/products/{id}',
    operationId: 'products:get',
    summary: 'Get a product',
    tags,
    auth: { subjects, scopes: read('products') },
    params: IdParams,
    errors: ['ResourceNotFound'],
    status: 200,
    response: Product,
    handler: async (ctx, { params }) => serializeProduct(await getProduct(ctx, params.id)),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/products/{id}',
    operationId: 'products:update',
    summary: 'Update a product',
    tags,
    auth: { subjects, scopes: write('products') },
    params: IdParams,
    body: ProductUpdate,
    errors: ['ResourceNotFound', 'NotPermitted'],
    status: 200,
    response: Product,
    handler: async (ctx, { params, body }) => serializeProduct(await updateProduct(ctx, params.id, body)),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/products/{id}/benefits',
    operationId: 'products:update_benefits',
    summary: 'Replace the benefits of a product',
    tags,
    auth: { subjects, scopes: write('products') },
    params: IdParams,
    body: ProductBenefitsUpdate,
    errors: ['ResourceNotFound', 'NotPermitted'],
    status: 200,
    response: Product,
    handler: async (ctx, { params, body }) => serializeProduct(await updateProductBenefits(ctx, params.id, body)),
  }),
];
