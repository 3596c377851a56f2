import { useMutation, useQueryClient } from '@tanstack/react-query';
import { benefitsDelete } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { BENEFITS_QUERY_KEY } from './get-benefits';

export function deleteBenefit(id: string) {
  return benefitsDelete(client, { id });
}

export function useDeleteBenefit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBenefit,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: BENEFITS_QUERY_KEY }),
  });
}
