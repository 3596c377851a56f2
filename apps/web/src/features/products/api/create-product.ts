import { useMutation, useQueryClient } from '@tanstack/react-query';
import { productsCreate, type ProductCreate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { PRODUCTS_QUERY_KEY } from './get-products';

export function createProduct(body: ProductCreate) {
  return productsCreate(client, { body });
}

export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProduct,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PRODUCTS_QUERY_KEY }),
  });
}
