import { queryOptions, useQuery } from '@tanstack/react-query';
import { productsGet } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { PRODUCTS_QUERY_KEY } from './get-products';

export function getProduct(id: string) {
  return productsGet(client, { id });
}

export function getProductQueryOptions(id: string) {
  return queryOptions({ queryKey: [...PRODUCTS_QUERY_KEY, 'detail', id], queryFn: () => getProduct(id) });
}

export function useProduct(id: string) {
  return useQuery(getProductQueryOptions(id));
}
