import { useMutation, useQueryClient } from '@tanstack/react-query';
import { webhooksUpdateWebhookEndpoint, type WebhookEndpointUpdate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { WEBHOOKS_QUERY_KEY } from './get-webhook-endpoints';

/** Changes URL, format, events, secret or `enabled`; keys left out stay as they are. */
export function updateWebhookEndpoint({ id, body }: { id: string; body: WebhookEndpointUpdate }) {
  return webhooksUpdateWebhookEndpoint(client, { id, body });
}

export function useUpdateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWebhookEndpoint,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_QUERY_KEY }),
  });
}
