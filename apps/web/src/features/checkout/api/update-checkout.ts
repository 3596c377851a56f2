import { useMutation, useQueryClient } from '@tanstack/react-query';
import { checkoutsClientUpdate, type CheckoutUpdatePublic } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { checkoutQueryKey } from './get-checkout';

export interface UpdateCheckoutInput {
  clientSecret: string;
  body: CheckoutUpdatePublic;
}

/** Saves what the buyer typed; the answer carries the amounts the API computed from it. */
export function updateCheckout({ clientSecret, body }: UpdateCheckoutInput) {
  return checkoutsClientUpdate(client, { client_secret: clientSecret, body });
}

export function useUpdateCheckout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCheckout,
    onSuccess: (checkout, { clientSecret }) => queryClient.setQueryData(checkoutQueryKey(clientSecret), checkout),
  });
}
