import { queryOptions, useQuery } from '@tanstack/react-query';
import { customerPortalSubscriptionsGet } from '@tessera/sdk';
import type { PortalClient } from './portal-client';
import { usePortalSession } from '../session/portal-session';

export function getSubscription(client: PortalClient, id: string) {
  return customerPortalSubscriptionsGet(client.core, { id }, client.auth);
}

export function subscriptionQueryKey(sessionKey: readonly unknown[], id: string) {
  return [...sessionKey, 'subscriptions', 'detail', id] as const;
}

export function getSubscriptionQueryOptions(sessionKey: readonly unknown[], client: PortalClient, id: string) {
  return queryOptions({ queryKey: subscriptionQueryKey(sessionKey, id), queryFn: () => getSubscription(client, id) });
}

export function useSubscription(id: string) {
  const { queryKey, client } = usePortalSession();
  return useQuery(getSubscriptionQueryOptions(queryKey, client, id));
}
