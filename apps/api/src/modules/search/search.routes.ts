import { read } from '../../platform/auth/scopes.js';
import { defineRoute } from '../../platform/http/route.js';
import { SearchQuery, SearchResults } from './search.schemas.js';
import { search } from './search.service.js';

const SEARCHED = ['customers', 'orders', 'products', 'subscriptions', 'license_keys'];

/** The dashboard's global search (an extension: docs/search.md). Any read scope of a searched type admits. */
export const searchRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/search/',
    operationId: 'search:get',
    summary: 'Search customers, orders, products, subscriptions and license keys',
    tags: ['search'],
    extension: true,
    auth: { subjects: ['user', 'organization'], scopes: [...new Set(SEARCHED.flatMap((resource) => read(resource)))] },
    query: SearchQuery,
    errors: ['Unauthorized'],
    status: 200,
    response: SearchResults,
    handler: async (ctx, { query }) => ({ items: await search(ctx, query) }),
  }),
];
