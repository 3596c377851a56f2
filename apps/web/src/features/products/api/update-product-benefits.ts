import { useMutation, useQueryClient } from '@tanstack/react-query';
import { productsUpdateBenefits } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { PRODUCTS_QUERY_KEY } from './get-products';

/** Replaces the benefits of a product with `benefits`, in that order. */
export function updateProductBenefits({ id, benefits }: { id: string; benefits: string[] }) {
  return productsUpdateBenefits(client, { id, body: { benefits } });
}

export function useUpdateProductBenefits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProductBenefits,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PRODUCTS_QUERY_KEY }),
  });
}
