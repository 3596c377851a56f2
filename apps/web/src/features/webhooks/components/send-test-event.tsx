import type { WebhookEndpoint } from '@tessera/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { useToast } from '../../../components/ui/toast';
import { WEBHOOKS_QUERY_KEY } from '../api/get-webhook-endpoints';
import { useSendTestEvent } from '../api/send-test-event';

/**
 * Sends a `webhook.test` event through the normal delivery (signed, retried). The attempt is made by
 * the worker shortly after, so the deliveries list is refreshed again a moment later.
 */
export function SendTestEvent({ endpoint }: { endpoint: WebhookEndpoint }) {
  const mutation = useSendTestEvent();
  const queryClient = useQueryClient();
  const toast = useToast();
  return (
    <Card>
      <CardTitle>Test the endpoint</CardTitle>
      <div className="space-y-3 text-sm text-slate-700">
        <p>
          Sends a signed <code>webhook.test</code> event to this URL only. The attempt appears under Deliveries.
          {endpoint.enabled ? null : ' The endpoint is disabled: the test waits until it is enabled again.'}
        </p>
        <ApiErrorAlert error={mutation.error} />
        <Button
          variant="secondary"
          disabled={mutation.isPending}
          onClick={() =>
            mutation.mutate(endpoint.id, {
              onSuccess: () => {
                toast('Test event queued');
                for (const delay of [1000, 3000])
                  setTimeout(
                    () => void queryClient.invalidateQueries({ queryKey: [...WEBHOOKS_QUERY_KEY, 'deliveries'] }),
                    delay,
                  );
              },
            })
          }
        >
          {mutation.isPending ? 'Sending…' : 'Send a test event'}
        </Button>
      </div>
    </Card>
  );
}
