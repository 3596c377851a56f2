import { useMutation, useQueryClient } from '@tanstack/react-query';
import { customerPortalCustomersUpdate, type CustomerPortalCustomerUpdate, type TesseraCore } from '@tessera/sdk';
import { usePortalSession } from '../session/portal-session';
import { customerQueryKey } from './get-customer';

export function updateCustomer(client: TesseraCore, body: CustomerPortalCustomerUpdate) {
  return customerPortalCustomersUpdate(client, { body });
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
