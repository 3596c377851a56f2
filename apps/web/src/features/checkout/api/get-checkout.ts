import { queryOptions, useQuery } from '@tanstack/react-query';
import { checkoutsClientGet } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export const CHECKOUT_QUERY_KEY = ['checkouts', 'client'] as const;

export function checkoutQueryKey(clientSecret: string) {
  return [...CHECKOUT_QUERY_KEY, clientSecret] as const;
}

/** The buyer's view of a checkout, by its client secret (no credentials). */
export function getCheckout(clientSecret: string) {
  return checkoutsClientGet(client, { client_secret: clientSecret });
}

export function getCheckoutQueryOptions(clientSecret: string) {
  return queryOptions({ queryKey: checkoutQueryKey(clientSecret), queryFn: () => getCheckout(clientSecret) });
}

/** `refetchInterval` polls (the confirmation page waits for `succeeded`); false stops. */
export function useCheckout(clientSecret: string, options: { refetchInterval?: number | false } = {}) {
  return useQuery({ ...getCheckoutQueryOptions(clientSecret), refetchInterval: options.refetchInterval });
}
