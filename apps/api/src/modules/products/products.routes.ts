import { read, write } from '../../platform/auth/scopes.js';
import type { Subject } from '../../platform/auth/subject.js';
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

/**
 * An organization token's product reads are kept in memory under its organization's catalogue version
 * (migration 0052: it moves as any write to a product, its prices, benefits, medias, custom fields or
 * the meters of its prices commits) and their inputs. A user's reads (the dashboard) are answered afresh.
 */
function underCatalogue(subject: Subject, inputs: unknown): string | undefined {
  if (subject.kind !== 'organization' || !subject.organization) return undefined;
  return `${subject.organization.id} ${subject.organization.catalogue_version} ${JSON.stringify(inputs)}`;
}
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
    readsTokenOrganization: true,
    cachedUnder: (subject, { query }) => underCatalogue(subject, query),
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
    readsTokenOrganization: true,
    cachedUnder: (subject, { params }) => underCatalogue(subject, params),
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
