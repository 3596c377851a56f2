import { useMutation, useQueryClient } from '@tanstack/react-query';
import { discountsCreate, type DiscountCreate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { DISCOUNTS_QUERY_KEY } from './get-discounts';

export function createDiscount(body: DiscountCreate) {
  return discountsCreate(client, { body });
}

export function useCreateDiscount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDiscount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: DISCOUNTS_QUERY_KEY }),
  });
}
