import { hasAnyScope, read } from '../../platform/auth/scopes.js';
import type { Context } from '../../platform/context.js';
import {
  searchCustomers,
  searchLicenseKeys,
  searchOrders,
  searchProducts,
  searchSubscriptions,
  type SearchTerms,
} from './search.repository.js';
import type { SearchParams, SearchType } from './search.schemas.js';
import {
  customerResult,
  licenseKeyResult,
  orderResult,
  productResult,
  subscriptionResult,
  type SearchResultWire,
} from './search.serializer.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The scope resource each type is read under: a token sees only the types its scopes let it read. */
const SCOPE_OF: Record<SearchType, string> = {
  customer: 'customers',
  order: 'orders',
  product: 'products',
  subscription: 'subscriptions',
  license_key: 'license_keys',
};

/** LIKE's wildcards and its escape character, taken literally. Pure. */
export function likePrefix(query: string): string {
  return `${query.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

export function searchTerms(query: string, organizationId: string | undefined): SearchTerms {
  return {
    id: UUID.test(query) ? query.toLowerCase() : null,
    prefix: likePrefix(query),
    exact: query,
    organizationId,
  };
}

/**
 * Customers, orders, products, subscriptions and license keys matching a query by id, by the start of
 * an email, a name or a license key, or by invoice number; orders, subscriptions and license keys also
 * by their customer's match. Customers are looked up for those even when the caller may not read
 * customers, but are then not answered.
 */
export async function search(ctx: Context, params: SearchParams): Promise<SearchResultWire[]> {
  const scopes = 'scopes' in ctx.subject ? ctx.subject.scopes : new Set<string>();
  const may = (type: SearchType) => hasAnyScope(scopes, read(SCOPE_OF[type]));
  const terms = searchTerms(params.query, params.organization_id);
  const customers = await searchCustomers(ctx.db, ctx.subject, terms);
  const customerIds = customers.map((customer) => customer.id);
  const [orders, products, subscriptions, licenseKeys] = await Promise.all([
    may('order') ? searchOrders(ctx.db, ctx.subject, terms, customerIds) : [],
    may('product') ? searchProducts(ctx.db, ctx.subject, terms) : [],
    may('subscription') ? searchSubscriptions(ctx.db, ctx.subject, terms, customerIds) : [],
    may('license_key') ? searchLicenseKeys(ctx.db, ctx.subject, terms, customerIds) : [],
  ]);
  return [
    ...(may('customer') ? customers.map(customerResult) : []),
    ...orders.map(orderResult),
    ...products.map(productResult),
    ...subscriptions.map(subscriptionResult),
    ...licenseKeys.map(licenseKeyResult),
  ];
}
