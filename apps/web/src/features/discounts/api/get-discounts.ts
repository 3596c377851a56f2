import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { discountsList, type DiscountsListRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function getDiscounts(request: DiscountsListRequest) {
  return (await discountsList(client, request)).result;
}

export const DISCOUNTS_QUERY_KEY = ['discounts'] as const;

export function getDiscountsQueryOptions(request: DiscountsListRequest) {
  return queryOptions({
    queryKey: [...DISCOUNTS_QUERY_KEY, 'list', request],
    queryFn: () => getDiscounts(request),
    placeholderData: keepPreviousData,
  });
}

export function useDiscounts(request: DiscountsListRequest) {
  return useQuery(getDiscountsQueryOptions(request));
}
