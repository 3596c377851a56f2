import { useMutation, useQueryClient } from '@tanstack/react-query';
import { webhooksRedeliverWebhookEvent } from '@tessera/sdk';
import { client } from '../../../lib/api-client';
import { WEBHOOKS_QUERY_KEY } from './get-webhook-endpoints';

/** Queues the endpoint's event again (same `webhook-id`); the worker sends it next. */
export function redeliverWebhookEvent(eventId: string) {
  return webhooksRedeliverWebhookEvent(client, { id: eventId });
}

export function useRedeliverWebhookEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: redeliverWebhookEvent,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...WEBHOOKS_QUERY_KEY, 'deliveries'] }),
  });
}
