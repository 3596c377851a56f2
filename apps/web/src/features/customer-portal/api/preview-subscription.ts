import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { customerPortalSubscriptionsPreview, type CustomerSubscriptionPreviewRequest } from '@tessera/sdk';
import type { PortalClient } from './portal-client';
import { usePortalSession } from '../session/portal-session';

/** What a plan change would charge now and at the next renewal; `{}`: the next renewal as it stands. */
export function previewSubscription(client: PortalClient, id: string, body: CustomerSubscriptionPreviewRequest) {
  return customerPortalSubscriptionsPreview(client.core, { id, body }, client.auth);
}

/** The preview of `body` (null: nothing to preview yet). */
export function usePreviewSubscription(id: string, body: CustomerSubscriptionPreviewRequest | null) {
  const { queryKey, client } = usePortalSession();
  return useQuery({
    queryKey: [...queryKey, 'subscriptions', 'preview', id, body],
    queryFn: () => previewSubscription(client, id, body!),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
