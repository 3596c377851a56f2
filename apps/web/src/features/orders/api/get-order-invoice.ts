import { queryOptions, useQuery } from '@tanstack/react-query';
import { ordersInvoice } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { ORDERS_QUERY_KEY } from './get-orders';

export function getOrderInvoice(id: string) {
  return ordersInvoice(client, { id });
}

export function getOrderInvoiceQueryOptions(id: string) {
  return queryOptions({ queryKey: [...ORDERS_QUERY_KEY, 'invoice', id], queryFn: () => getOrderInvoice(id) });
}

/** The invoice's URL; asked only once the order says its invoice exists (before, the API answers 404). */
export function useOrderInvoice(id: string, { enabled }: { enabled: boolean }) {
  return useQuery({ ...getOrderInvoiceQueryOptions(id), enabled });
}
