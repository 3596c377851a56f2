import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { subscriptionsListHistory, type SubscriptionsListHistoryRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { SUBSCRIPTIONS_QUERY_KEY } from './get-subscriptions';

export async function getSubscriptionHistory(request: SubscriptionsListHistoryRequest) {
  return (await subscriptionsListHistory(client, request)).result;
}

export function getSubscriptionHistoryQueryOptions(request: SubscriptionsListHistoryRequest) {
  return queryOptions({
    queryKey: [...SUBSCRIPTIONS_QUERY_KEY, 'history', request],
    queryFn: () => getSubscriptionHistory(request),
    placeholderData: keepPreviousData,
  });
}

export function useSubscriptionHistory(request: SubscriptionsListHistoryRequest) {
  return useQuery(getSubscriptionHistoryQueryOptions(request));
}
