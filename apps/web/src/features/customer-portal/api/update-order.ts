import { useMutation, useQueryClient } from '@tanstack/react-query';
import { customerPortalOrdersUpdate, type CustomerOrderUpdate } from '@tessera/sdk';
import type { PortalClient } from './portal-client';
import { usePortalSession } from '../session/portal-session';
import { getOrderQueryOptions } from './get-order';

export function updateOrder(client: PortalClient, id: string, body: CustomerOrderUpdate) {
  return customerPortalOrdersUpdate(client.core, { id, body }, client.auth);
}

/** The customer corrects the billing details printed on an order's invoice (before it exists). */
export function useUpdateOrder(id: string) {
  const { queryKey, client } = usePortalSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CustomerOrderUpdate) => updateOrder(client, id, body),
    onSuccess: async (order) => {
      queryClient.setQueryData(getOrderQueryOptions(queryKey, client, id).queryKey, order);
      await queryClient.invalidateQueries({ queryKey: [...queryKey, 'orders', 'list'] });
    },
  });
}
