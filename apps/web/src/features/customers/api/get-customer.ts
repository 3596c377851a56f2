import { queryOptions, useQuery } from '@tanstack/react-query';
import { customersGet } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { CUSTOMERS_QUERY_KEY } from './get-customers';

export function getCustomer(id: string) {
  return customersGet(client, { id });
}

export function getCustomerQueryOptions(id: string) {
  return queryOptions({ queryKey: [...CUSTOMERS_QUERY_KEY, 'detail', id], queryFn: () => getCustomer(id) });
}

export function useCustomer(id: string) {
  return useQuery(getCustomerQueryOptions(id));
}
