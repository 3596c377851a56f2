import { queryOptions, useQuery } from '@tanstack/react-query';
import { ordersGet } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { ORDERS_QUERY_KEY } from './get-orders';

export function getOrder(id: string) {
  return ordersGet(client, { id });
}

export function getOrderQueryOptions(id: string) {
  return queryOptions({ queryKey: [...ORDERS_QUERY_KEY, 'detail', id], queryFn: () => getOrder(id) });
}

export function useOrder(id: string) {
  return useQuery(getOrderQueryOptions(id));
}
