import { useMutation, useQueryClient } from '@tanstack/react-query';
import { customerPortalCustomersDeletePaymentMethod } from '@tessera/sdk';
import type { PortalClient } from './portal-client';
import { usePortalSession } from '../session/portal-session';
import { paymentMethodsQueryKey } from './get-payment-methods';

export function deletePaymentMethod(client: PortalClient, id: string) {
  return customerPortalCustomersDeletePaymentMethod(client.core, { id }, client.auth);
}

/** Removes a saved card (refused while it is the last one billing a subscription). */
export function useDeletePaymentMethod() {
  const { queryKey, client } = usePortalSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deletePaymentMethod(client, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentMethodsQueryKey(queryKey) }),
  });
}
