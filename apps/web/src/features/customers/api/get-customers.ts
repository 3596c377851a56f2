import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { customersList, type CustomersListRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function getCustomers(request: CustomersListRequest) {
  return (await customersList(client, request)).result;
}

export const CUSTOMERS_QUERY_KEY = ['customers'] as const;

export function getCustomersQueryOptions(request: CustomersListRequest) {
  return queryOptions({
    queryKey: [...CUSTOMERS_QUERY_KEY, 'list', request],
    queryFn: () => getCustomers(request),
    placeholderData: keepPreviousData,
  });
}

export function useCustomers(request: CustomersListRequest) {
  return useQuery(getCustomersQueryOptions(request));
}
