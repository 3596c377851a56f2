import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { productsList, type ProductsListRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function getProducts(request: ProductsListRequest) {
  return (await productsList(client, request)).result;
}

export const PRODUCTS_QUERY_KEY = ['products'] as const;

export function getProductsQueryOptions(request: ProductsListRequest) {
  return queryOptions({
    queryKey: [...PRODUCTS_QUERY_KEY, 'list', request],
    queryFn: () => getProducts(request),
    placeholderData: keepPreviousData,
  });
}

export function useProducts(request: ProductsListRequest) {
  return useQuery(getProductsQueryOptions(request));
}
