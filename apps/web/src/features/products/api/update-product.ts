import { useMutation, useQueryClient } from '@tanstack/react-query';
import { productsUpdate, type ProductUpdate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { PRODUCTS_QUERY_KEY } from './get-products';

/** Edits a product; archiving is `{ is_archived: true }`. */
export function updateProduct({ id, body }: { id: string; body: ProductUpdate }) {
  return productsUpdate(client, { id, body });
}

export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProduct,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PRODUCTS_QUERY_KEY }),
  });
}
