import { useMutation, useQueryClient } from '@tanstack/react-query';
import { taxSettingsUpdate, type TaxSettingsUpdate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { TAX_QUERY_KEY } from './get-tax-settings';

/** Stripe Tax without Stripe configured is refused with a 422 at `stripe_tax_enabled`. */
export function updateTaxSettings(body: TaxSettingsUpdate) {
  return taxSettingsUpdate(client, { body });
}

export function useUpdateTaxSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTaxSettings,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TAX_QUERY_KEY }),
  });
}
