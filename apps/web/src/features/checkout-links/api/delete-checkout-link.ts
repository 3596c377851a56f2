import { useMutation, useQueryClient } from '@tanstack/react-query';
import { checkoutLinksDelete } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { CHECKOUT_LINKS_QUERY_KEY } from './get-checkout-links';

export function deleteCheckoutLink(id: string) {
  return checkoutLinksDelete(client, { id });
}

export function useDeleteCheckoutLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCheckoutLink,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CHECKOUT_LINKS_QUERY_KEY }),
  });
}
