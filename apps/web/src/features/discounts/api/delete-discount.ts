import { useMutation, useQueryClient } from '@tanstack/react-query';
import { discountsDelete } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { DISCOUNTS_QUERY_KEY } from './get-discounts';

export function deleteDiscount(id: string) {
  return discountsDelete(client, { id });
}

export function useDeleteDiscount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDiscount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: DISCOUNTS_QUERY_KEY }),
  });
}
