import { useMutation, useQueryClient } from '@tanstack/react-query';
import { subscriptionsRevoke, type Subscription } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { getSubscriptionQueryOptions } from './get-subscription';
import { SUBSCRIPTIONS_QUERY_KEY } from './get-subscriptions';

/** Ends the subscription now: no further charges, benefits revoked. */
export function revokeSubscription(id: string) {
  return subscriptionsRevoke(client, { id });
}

export function useRevokeSubscription({ onChanged }: { onChanged?(subscription: Subscription): void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSubscription,
    onSuccess: async (subscription) => {
      queryClient.setQueryData(getSubscriptionQueryOptions(subscription.id).queryKey, subscription);
      onChanged?.(subscription);
      await queryClient.invalidateQueries({ queryKey: SUBSCRIPTIONS_QUERY_KEY });
    },
  });
}
