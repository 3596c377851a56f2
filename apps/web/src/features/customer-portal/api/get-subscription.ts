import { queryOptions, useQuery } from '@tanstack/react-query';
import { customerPortalSubscriptionsGet, type TesseraCore } from '@tessera/sdk';
import { usePortalSession } from '../session/portal-session';

export function getSubscription(client: TesseraCore, id: string) {
  return customerPortalSubscriptionsGet(client, { id });
}

export function subscriptionQueryKey(sessionKey: readonly unknown[], id: string) {
  return [...sessionKey, 'subscriptions', 'detail', id] as const;
}

export function getSubscriptionQueryOptions(sessionKey: readonly unknown[], client: TesseraCore, id: string) {
  return queryOptions({ queryKey: subscriptionQueryKey(sessionKey, id), queryFn: () => getSubscription(client, id) });
}

export function useSubscription(id: string) {
  const { queryKey, client } = usePortalSession();
  return useQuery(getSubscriptionQueryOptions(queryKey, client, id));
}
