import { useQueryClient } from '@tanstack/react-query';
import {
  customerPortalCustomersAddPaymentMethod,
  customerPortalCustomersConfirmPaymentMethod,
  type CustomerPaymentMethodCreate,
} from '@tessera/sdk';
import type { PortalClient } from './portal-client';
import { usePortalSession } from '../session/portal-session';
import { paymentMethodsQueryKey } from './get-payment-methods';

export function addPaymentMethod(client: PortalClient, body: CustomerPaymentMethodCreate) {
  return customerPortalCustomersAddPaymentMethod(client.core, { body }, client.auth);
}

/** After the customer's bank authenticated the card (3-D Secure), the API asks the processor again. */
export function confirmPaymentMethod(client: PortalClient, id: string) {
  return customerPortalCustomersConfirmPaymentMethod(client.core, { id }, client.auth);
}

/**
 * The two calls of saving a card, and the refresh of the list (and of the subscriptions, which follow
 * a new default) once a card is saved.
 */
export function usePaymentMethodCalls() {
  const { queryKey, client } = usePortalSession();
  const queryClient = useQueryClient();
  return {
    add: (body: CustomerPaymentMethodCreate) => addPaymentMethod(client, body),
    confirm: (id: string) => confirmPaymentMethod(client, id),
    saved: () => queryClient.invalidateQueries({ queryKey: paymentMethodsQueryKey(queryKey) }),
  };
}
