import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { refundsList, type RefundsListRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function getRefunds(request: RefundsListRequest) {
  return (await refundsList(client, request)).result;
}

export const REFUNDS_QUERY_KEY = ['refunds'] as const;

export function getRefundsQueryOptions(request: RefundsListRequest) {
  return queryOptions({
    queryKey: [...REFUNDS_QUERY_KEY, 'list', request],
    queryFn: () => getRefunds(request),
    placeholderData: keepPreviousData,
  });
}

export function useRefunds(request: RefundsListRequest) {
  return useQuery(getRefundsQueryOptions(request));
}
