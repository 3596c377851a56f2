import { useMutation, useQueryClient } from '@tanstack/react-query';
import { webhooksSendTestEvent } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { WEBHOOKS_QUERY_KEY } from './get-webhook-endpoints';

/** Queues a `webhook.test` event for the endpoint; its attempt shows in the deliveries list. */
export function sendTestEvent(endpointId: string) {
  return webhooksSendTestEvent(client, { id: endpointId });
}

export function useSendTestEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendTestEvent,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...WEBHOOKS_QUERY_KEY, 'deliveries'] }),
  });
}
