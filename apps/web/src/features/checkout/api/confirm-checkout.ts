import { useMutation, useQueryClient } from '@tanstack/react-query';
import { checkoutsClientConfirm, type CheckoutConfirmStripe } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { nextAction } from '../logic/payment';
import { checkoutQueryKey } from './get-checkout';

export interface ConfirmCheckoutInput {
  clientSecret: string;
  body: CheckoutConfirmStripe;
}

/**
 * Pays (or saves the payment method) and completes the checkout; a decline is a `PaymentError`. A
 * payment waiting for the buyer's authentication keeps the form on screen (the cache is left as it is).
 */
export function confirmCheckout({ clientSecret, body }: ConfirmCheckoutInput) {
  return checkoutsClientConfirm(client, { client_secret: clientSecret, body });
}

export function useConfirmCheckout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmCheckout,
    onSuccess: (checkout, { clientSecret }) => {
      if (!nextAction(checkout)) queryClient.setQueryData(checkoutQueryKey(clientSecret), checkout);
    },
  });
}
