import { queryOptions, useQuery } from '@tanstack/react-query';
import { subscriptionsGet } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { SUBSCRIPTIONS_QUERY_KEY } from './get-subscriptions';

export function getSubscription(id: string) {
  return subscriptionsGet(client, { id });
}

export function getSubscriptionQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...SUBSCRIPTIONS_QUERY_KEY, 'detail', id],
    queryFn: () => getSubscription(id),
  });
}

export function useSubscription(id: string) {
  return useQuery(getSubscriptionQueryOptions(id));
}
