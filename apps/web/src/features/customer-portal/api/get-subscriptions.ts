import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { customerPortalSubscriptionsList, type CustomerPortalSubscriptionsListRequest } from '@tessera/sdk';
import type { PortalClient } from './portal-client';
import { usePortalSession } from '../session/portal-session';

export async function getSubscriptions(client: PortalClient, request: CustomerPortalSubscriptionsListRequest) {
  return (await customerPortalSubscriptionsList(client.core, request, client.auth)).result;
}

export function getSubscriptionsQueryOptions(
  sessionKey: readonly unknown[],
  client: PortalClient,
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
