import { useMutation, useQueryClient } from '@tanstack/react-query';
import { checkoutLinksUpdate, type CheckoutLinksUpdateRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { CHECKOUT_LINKS_QUERY_KEY } from './get-checkout-links';

export function updateCheckoutLink(request: CheckoutLinksUpdateRequest) {
  return checkoutLinksUpdate(client, request);
}

export function useUpdateCheckoutLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCheckoutLink,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CHECKOUT_LINKS_QUERY_KEY }),
  });
}
