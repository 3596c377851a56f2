import { useMutation, useQueryClient } from '@tanstack/react-query';
import { benefitsCreate, type BenefitCreate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { BENEFITS_QUERY_KEY } from './get-benefits';

export function createBenefit(body: BenefitCreate) {
  return benefitsCreate(client, { body });
}

export function useCreateBenefit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBenefit,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: BENEFITS_QUERY_KEY }),
  });
}
