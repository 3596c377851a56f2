import { useMutation, useQueryClient } from '@tanstack/react-query';
import { customerPortalCustomersSetDefaultPaymentMethod } from '@tessera/sdk';
import type { PortalClient } from './portal-client';
import { usePortalSession } from '../session/portal-session';
import { paymentMethodsQueryKey } from './get-payment-methods';

export function setDefaultPaymentMethod(client: PortalClient, id: string) {
  return customerPortalCustomersSetDefaultPaymentMethod(client.core, { id }, client.auth);
}

/** Makes a saved card the default: the customer's subscriptions are billed to it from now on. */
export function useSetDefaultPaymentMethod() {
  const { queryKey, client } = usePortalSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => setDefaultPaymentMethod(client, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentMethodsQueryKey(queryKey) }),
  });
}
