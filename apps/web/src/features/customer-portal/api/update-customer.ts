import { useMutation, useQueryClient } from '@tanstack/react-query';
import { customerPortalCustomersUpdate, type CustomerPortalCustomerUpdate } from '@tessera/sdk';
import type { PortalClient } from './portal-client';
import { usePortalSession } from '../session/portal-session';
import { customerQueryKey } from './get-customer';

export function updateCustomer(client: PortalClient, body: CustomerPortalCustomerUpdate) {
  return customerPortalCustomersUpdate(client.core, { body }, client.auth);
}

/** The customer edits its own profile; grants embed the customer, so they are read again too. */
export function useUpdateCustomer() {
  const { queryKey, client } = usePortalSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CustomerPortalCustomerUpdate) => updateCustomer(client, body),
    onSuccess: async (customer) => {
      queryClient.setQueryData(customerQueryKey(queryKey), customer);
      await queryClient.invalidateQueries({ queryKey });
    },
  });
}
