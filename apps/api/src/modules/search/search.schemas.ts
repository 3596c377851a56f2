import { z } from 'zod/v4';
import { queryDocs, queryUuid } from '../../platform/http/query.js';

/** The longest query accepted: ids, emails, names and license keys all fit well within it. */
export const MAX_SEARCH_QUERY = 100;

/** How many results each kind of resource contributes at most. */
export const RESULTS_PER_TYPE = 5;

export const SEARCH_TYPES = ['customer', 'order', 'product', 'subscription', 'license_key'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

const queryText = z
  .string()
  .trim()
  .min(1, 'Query must not be empty')
  .max(MAX_SEARCH_QUERY, `Query must be at most ${MAX_SEARCH_QUERY} characters`);
const singleQuery = z.preprocess((value) => (Array.isArray(value) ? { __repeated: value } : value), queryText);
queryDocs.set(singleQuery, queryText);

export const SearchQuery = z.object({
  query: singleQuery,
  organization_id: queryUuid(),
});
export type SearchParams = z.output<typeof SearchQuery>;

export const SearchResult = z
  .object({
    type: z.enum(SEARCH_TYPES),
    id: z.uuid(),
    organization_id: z.uuid(),
    title: z.string(),
    description: z.string().nullable(),
  })
  .meta({ id: 'SearchResult' });

export const SearchResults = z.object({ items: z.array(SearchResult) }).meta({
  id: 'SearchResults',
  description:
    'Extension: what matches a query, at most five of each type, in the order customers, orders, products, ' +
    'subscriptions, license keys. Only the types the caller may read are searched.',
});
