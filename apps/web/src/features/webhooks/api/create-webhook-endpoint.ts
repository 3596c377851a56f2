import { useMutation, useQueryClient } from '@tanstack/react-query';
import { webhooksCreateWebhookEndpoint, type WebhookEndpointCreate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { WEBHOOKS_QUERY_KEY } from './get-webhook-endpoints';

export function createWebhookEndpoint(body: WebhookEndpointCreate) {
  return webhooksCreateWebhookEndpoint(client, { body });
}

export function useCreateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhookEndpoint,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_QUERY_KEY }),
  });
}
