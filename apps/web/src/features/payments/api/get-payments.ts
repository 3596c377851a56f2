import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { paymentsList, type PaymentsListRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function getPayments(request: PaymentsListRequest) {
  return (await paymentsList(client, request)).result;
}

export const PAYMENTS_QUERY_KEY = ['payments'] as const;

export function getPaymentsQueryOptions(request: PaymentsListRequest) {
  return queryOptions({
    queryKey: [...PAYMENTS_QUERY_KEY, 'list', request],
    queryFn: () => getPayments(request),
    placeholderData: keepPreviousData,
  });
}

export function usePayments(request: PaymentsListRequest) {
  return useQuery(getPaymentsQueryOptions(request));
}
