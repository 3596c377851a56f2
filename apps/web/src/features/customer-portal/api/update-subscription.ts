import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  customerPortalSubscriptionsUpdate,
  type CustomerSubscription,
  type CustomerSubscriptionUpdate,
} from '@tessera/sdk';
import type { PortalClient } from './portal-client';
import { usePortalSession } from '../session/portal-session';
import { subscriptionQueryKey } from './get-subscription';

/** Cancels at period end, takes a cancellation back, or changes the plan: the body says which. */
export async function updateSubscription(client: PortalClient, id: string, body: CustomerSubscriptionUpdate) {
  const updated = await customerPortalSubscriptionsUpdate(client.core, { id, body }, client.auth);
  // A plan change answered with the old product was not applied (the request lost its product on the
  // way): it must not be reported as done.
  if ('product_id' in body && updated.product_id !== body.product_id)
    throw new Error(
      'Your plan was not changed. Reload the page and try again; if it keeps failing, contact the seller.',
    );
  return updated;
}

export function useUpdateSubscription({ onChanged }: { onChanged?(subscription: CustomerSubscription): void } = {}) {
  const { queryKey, client } = usePortalSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: CustomerSubscriptionUpdate }) =>
      updateSubscription(client, id, body),
    onSuccess: async (subscription) => {
      queryClient.setQueryData(subscriptionQueryKey(queryKey, subscription.id), subscription);
      onChanged?.(subscription);
      // A plan change bills an order and swaps benefits; a cancellation changes the overview.
      await queryClient.invalidateQueries({ queryKey });
    },
  });
}
