import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { subscriptionsPreview, type SubscriptionPreviewRequest } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { SUBSCRIPTIONS_QUERY_KEY } from './get-subscriptions';

/** What a change would charge now and at the next renewal (the API's dry run; nothing changes). */
export function previewSubscription(id: string, body: SubscriptionPreviewRequest) {
  return subscriptionsPreview(client, { id, body });
}

/** The preview of `body` (null: nothing to preview yet). */
export function usePreviewSubscription(id: string, body: SubscriptionPreviewRequest | null) {
  return useQuery({
    queryKey: [...SUBSCRIPTIONS_QUERY_KEY, 'preview', id, body],
    queryFn: () => previewSubscription(id, body!),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
