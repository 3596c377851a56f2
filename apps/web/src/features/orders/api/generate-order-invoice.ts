import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ordersGenerateInvoice } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { ORDERS_QUERY_KEY } from './get-orders';

export function generateOrderInvoice(id: string) {
  return ordersGenerateInvoice(client, { id });
}

export function useGenerateOrderInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateOrderInvoice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ORDERS_QUERY_KEY }),
  });
}
