import { useMutation, useQueryClient } from '@tanstack/react-query';
import { benefitsUpdate, type BenefitUpdate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { BENEFITS_QUERY_KEY } from './get-benefits';

/** Edits a benefit: `type` must be its type; `properties`, when sent, replace the stored ones whole. */
export function updateBenefit({ id, body }: { id: string; body: BenefitUpdate }) {
  return benefitsUpdate(client, { id, body });
}

export function useUpdateBenefit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBenefit,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: BENEFITS_QUERY_KEY }),
  });
}
