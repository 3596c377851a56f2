import { useMutation, useQueryClient } from '@tanstack/react-query';
import { taxRegistrationsUpdate, type TaxRegistrationUpdate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { TAX_QUERY_KEY } from './get-tax-settings';

/** A new rate applies from now on (checkouts, renewals); orders keep the rate they were taxed at. */
export function updateTaxRegistration({ id, body }: { id: string; body: TaxRegistrationUpdate }) {
  return taxRegistrationsUpdate(client, { id, body });
}

export function useUpdateTaxRegistration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTaxRegistration,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TAX_QUERY_KEY }),
  });
}
