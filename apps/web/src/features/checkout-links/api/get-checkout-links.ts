import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { checkoutLinksList, type CheckoutLinksListRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function getCheckoutLinks(request: CheckoutLinksListRequest) {
  return (await checkoutLinksList(client, request)).result;
}

export const CHECKOUT_LINKS_QUERY_KEY = ['checkout-links'] as const;

export function getCheckoutLinksQueryOptions(request: CheckoutLinksListRequest) {
  return queryOptions({
    queryKey: [...CHECKOUT_LINKS_QUERY_KEY, 'list', request],
    queryFn: () => getCheckoutLinks(request),
    placeholderData: keepPreviousData,
  });
}

export function useCheckoutLinks(request: CheckoutLinksListRequest) {
  return useQuery(getCheckoutLinksQueryOptions(request));
}
