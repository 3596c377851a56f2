import { useMutation, useQueryClient } from '@tanstack/react-query';
import { customersUpdate, type CustomerUpdate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { CUSTOMERS_QUERY_KEY } from './get-customers';

export function updateCustomer({ id, body }: { id: string; body: CustomerUpdate }) {
  return customersUpdate(client, { id, body });
}

export function useUpdateCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCustomer,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CUSTOMERS_QUERY_KEY }),
  });
}
