import { queryOptions, useQuery } from '@tanstack/react-query';
import { customersGetState } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { CUSTOMERS_QUERY_KEY } from './get-customers';

export function getCustomerState(id: string) {
  return customersGetState(client, { id });
}

export function getCustomerStateQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...CUSTOMERS_QUERY_KEY, 'state', id],
    queryFn: () => getCustomerState(id),
    // Benefits are granted and revoked by background jobs after a purchase or a cancellation: the state
    // is read afresh on every visit rather than trusted from the cache.
    staleTime: 0,
  });
}

export function useCustomerState(id: string) {
  return useQuery(getCustomerStateQueryOptions(id));
}
