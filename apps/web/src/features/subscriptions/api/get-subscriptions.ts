import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { subscriptionsList, type SubscriptionsListRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

export async function getSubscriptions(request: SubscriptionsListRequest) {
  return (await subscriptionsList(client, request)).result;
}

export const SUBSCRIPTIONS_QUERY_KEY = ['subscriptions'] as const;

export function getSubscriptionsQueryOptions(request: SubscriptionsListRequest) {
  return queryOptions({
    queryKey: [...SUBSCRIPTIONS_QUERY_KEY, 'list', request],
    queryFn: () => getSubscriptions(request),
    placeholderData: keepPreviousData,
  });
}

export function useSubscriptions(request: SubscriptionsListRequest) {
  return useQuery(getSubscriptionsQueryOptions(request));
}
