import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  customerPortalSubscriptionsList,
  type CustomerPortalSubscriptionsListRequest,
  type TesseraCore,
} from '@tessera/sdk';
import { usePortalSession } from '../session/portal-session';

export async function getSubscriptions(client: TesseraCore, request: CustomerPortalSubscriptionsListRequest) {
  return (await customerPortalSubscriptionsList(client, request)).result;
}

export function getSubscriptionsQueryOptions(
  sessionKey: readonly unknown[],
  client: TesseraCore,
  request: CustomerPortalSubscriptionsListRequest,
) {
  return queryOptions({
    queryKey: [...sessionKey, 'subscriptions', 'list', request],
    queryFn: () => getSubscriptions(client, request),
    placeholderData: keepPreviousData,
  });
}

export function useSubscriptions(request: CustomerPortalSubscriptionsListRequest) {
  const { queryKey, client } = usePortalSession();
  return useQuery(getSubscriptionsQueryOptions(queryKey, client, request));
}
