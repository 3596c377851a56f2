import { useMutation, useQueryClient } from '@tanstack/react-query';
import { subscriptionsUpdate, type Subscription, type SubscriptionUpdate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { getSubscriptionQueryOptions } from './get-subscription';
import { SUBSCRIPTIONS_QUERY_KEY } from './get-subscriptions';

/** Cancels at period end, resumes, or changes the product: the body says which. */
export function updateSubscription({ id, body }: { id: string; body: SubscriptionUpdate }) {
  return subscriptionsUpdate(client, { id, body });
}

export function useUpdateSubscription({ onChanged }: { onChanged?(subscription: Subscription): void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSubscription,
    onSuccess: async (subscription) => {
      queryClient.setQueryData(getSubscriptionQueryOptions(subscription.id).queryKey, subscription);
      onChanged?.(subscription);
      await queryClient.invalidateQueries({ queryKey: SUBSCRIPTIONS_QUERY_KEY });
    },
  });
}
