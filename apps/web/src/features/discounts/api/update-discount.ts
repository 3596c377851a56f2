import { useMutation, useQueryClient } from '@tanstack/react-query';
import { discountsUpdate, type DiscountUpdate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { DISCOUNTS_QUERY_KEY } from './get-discounts';

export function updateDiscount({ id, body }: { id: string; body: DiscountUpdate }) {
  return discountsUpdate(client, { id, body });
}

export function useUpdateDiscount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDiscount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: DISCOUNTS_QUERY_KEY }),
  });
}
