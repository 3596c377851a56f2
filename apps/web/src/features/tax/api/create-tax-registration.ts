import { useMutation, useQueryClient } from '@tanstack/react-query';
import { taxRegistrationsCreate, type TaxRegistrationCreate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { TAX_QUERY_KEY } from './get-tax-settings';

/** A second registration for one place, a rate outside 0–100 % or an unknown region: 422 at its field. */
export function createTaxRegistration(body: TaxRegistrationCreate) {
  return taxRegistrationsCreate(client, { body });
}

export function useCreateTaxRegistration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTaxRegistration,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TAX_QUERY_KEY }),
  });
}
