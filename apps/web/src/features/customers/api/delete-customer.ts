import { useMutation, useQueryClient } from '@tanstack/react-query';
import { customersDelete } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { CUSTOMERS_QUERY_KEY } from './get-customers';

/** Deletes the customer: its active and trialing subscriptions are revoked and its benefits revoked. */
export function deleteCustomer(id: string) {
  return customersDelete(client, { id });
}

export function useDeleteCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCustomer,
    // Only the lists are read again: refetching the deleted customer would answer 404 and unmount the
    // page (and the caller's onSuccess, which leaves it) before it can navigate away.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...CUSTOMERS_QUERY_KEY, 'list'] }),
  });
}
