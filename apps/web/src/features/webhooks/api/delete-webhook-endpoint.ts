import { useMutation, useQueryClient } from '@tanstack/react-query';
import { webhooksDeleteWebhookEndpoint } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { WEBHOOKS_QUERY_KEY } from './get-webhook-endpoints';

export function deleteWebhookEndpoint(id: string) {
  return webhooksDeleteWebhookEndpoint(client, { id });
}

/**
 * Only the lists are refreshed: the deleted endpoint's own page is being left, and refetching it would
 * show "not found" for a moment first.
 */
export function useDeleteWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhookEndpoint,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...WEBHOOKS_QUERY_KEY, 'endpoints'] }),
  });
}
