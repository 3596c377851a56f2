import { useMutation, useQueryClient } from '@tanstack/react-query';
import { taxRegistrationsDelete } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { TAX_QUERY_KEY } from './get-tax-settings';

export function deleteTaxRegistration(id: string) {
  return taxRegistrationsDelete(client, { id });
}

export function useDeleteTaxRegistration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTaxRegistration,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TAX_QUERY_KEY }),
  });
}
