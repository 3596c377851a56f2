import { useMutation, useQueryClient } from '@tanstack/react-query';
import { checkoutsClientConfirm, type CheckoutConfirmStripe } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { checkoutQueryKey } from './get-checkout';

export interface ConfirmCheckoutInput {
  clientSecret: string;
  body: CheckoutConfirmStripe;
}

/** Pays (or saves the payment method) and completes the checkout; a decline is a `PaymentError`. */
export function confirmCheckout({ clientSecret, body }: ConfirmCheckoutInput) {
  return checkoutsClientConfirm(client, { client_secret: clientSecret, body });
}

export function useConfirmCheckout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmCheckout,
    onSuccess: (checkout, { clientSecret }) => queryClient.setQueryData(checkoutQueryKey(clientSecret), checkout),
  });
}
