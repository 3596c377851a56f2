import { useMutation, useQueryClient } from '@tanstack/react-query';
import { checkoutLinksCreate, type CheckoutLinkCreate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { CHECKOUT_LINKS_QUERY_KEY } from './get-checkout-links';

export function createCheckoutLink(body: CheckoutLinkCreate) {
  return checkoutLinksCreate(client, { body });
}

export function useCreateCheckoutLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCheckoutLink,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CHECKOUT_LINKS_QUERY_KEY }),
  });
}
