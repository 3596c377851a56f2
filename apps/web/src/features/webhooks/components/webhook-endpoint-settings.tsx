import type { WebhookEndpoint } from '@tessera/sdk';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { useToast } from '../../../components/ui/toast';
import { useDeleteWebhookEndpoint } from '../api/delete-webhook-endpoint';
import { useUpdateWebhookEndpoint } from '../api/update-webhook-endpoint';
import { generateSigningSecret } from './signing-secret';
import { SigningSecretPanel } from './signing-secret-panel';
import {
  WEBHOOK_ENDPOINT_FIELDS,
  WebhookEndpointFields,
  webhookEndpointErrors,
  webhookEndpointValues,
} from './webhook-endpoint-fields';

/** URL, format and events; after a save the form shows what the server kept. */
export function WebhookEndpointForm({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [values, setValues] = useState(() => webhookEndpointValues(endpoint));
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const mutation = useUpdateWebhookEndpoint();
  const toast = useToast();

  function submit(event: FormEvent) {
    event.preventDefault();
    const errors = webhookEndpointErrors(values);
    setLocalErrors(errors);
    if (Object.keys(errors).length > 0) return;
    mutation.mutate(
      { id: endpoint.id, body: { ...values, url: values.url.trim() } },
      {
        onSuccess: (saved) => {
          setValues(webhookEndpointValues(saved));
          toast('Webhook endpoint saved');
        },
      },
    );
  }

  return (
    <Card>
      <CardTitle>Endpoint</CardTitle>
      <form onSubmit={submit} noValidate className="space-y-4">
        <ApiErrorAlert error={mutation.error} shownFields={WEBHOOK_ENDPOINT_FIELDS} />
        <WebhookEndpointFields
          values={values}
          onChange={setValues}
          localErrors={localErrors}
          apiError={mutation.error}
        />
        <Button type="submit" isPending={mutation.isPending}>
          Save endpoint
        </Button>
      </form>
    </Card>
  );
}

/** Enable or disable the endpoint. */
export function WebhookEndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  const mutation = useUpdateWebhookEndpoint();
  const toast = useToast();
  const enable = !endpoint.enabled;
  return (
    <Card>
      <CardTitle>Status</CardTitle>
      <div className="space-y-3 text-sm text-slate-700">
        <p>
          {endpoint.enabled ? <Badge tone="success">Enabled</Badge> : <Badge tone="warning">Disabled</Badge>}{' '}
          {endpoint.enabled
            ? 'Events are sent to this endpoint as they happen.'
            : 'No new events are sent to this endpoint. Events already queued are sent when it is enabled again.'}
        </p>
        <p className="text-slate-600">
          Tessera disables an endpoint by itself when it answers 410 Gone or keeps failing for a long time.
        </p>
        <ApiErrorAlert error={mutation.error} />
        <Button
          variant="secondary"
          isPending={mutation.isPending}
          onClick={() =>
            mutation.mutate(
              { id: endpoint.id, body: { enabled: enable } },
              { onSuccess: () => toast(enable ? 'Webhook endpoint enabled' : 'Webhook endpoint disabled') },
            )
          }
        >
          {enable ? 'Enable endpoint' : 'Disable endpoint'}
        </Button>
      </div>
    </Card>
  );
}

/** Replaces a lost or leaked signing secret; the new one is shown once. */
export function WebhookEndpointSecret({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [secret, setSecret] = useState<string | null>(null);
  const mutation = useUpdateWebhookEndpoint();

  function rotate() {
    const generated = generateSigningSecret();
    mutation.mutate({ id: endpoint.id, body: { secret: generated } }, { onSuccess: () => setSecret(generated) });
  }

  return (
    <Card>
      <CardTitle>Signing secret</CardTitle>
      <div className="space-y-3 text-sm text-slate-700">
        <p>
          The secret was shown once, when the endpoint was created; Tessera cannot show it again. If it is lost or
          leaked, generate a new one: the old secret stops working at once.
        </p>
        <ApiErrorAlert error={mutation.error} />
        <ConfirmButton
          size="md"
          isPending={mutation.isPending}
          title="Generate a new signing secret?"
          description="Deliveries are signed with the new secret from now on. Until your server uses it, it will reject them."
          confirmLabel="Generate new secret"
          onConfirm={rotate}
        >
          Generate new secret
        </ConfirmButton>
      </div>
      <Dialog
        open={secret !== null}
        onOpenChange={(open) => {
          if (!open) setSecret(null);
        }}
        title="New signing secret"
        size="lg"
      >
        {secret && <SigningSecretPanel secret={secret} />}
        <DialogActions>
          <Button onClick={() => setSecret(null)}>Done</Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}

export function DeleteWebhookEndpoint({ endpoint, listPath }: { endpoint: WebhookEndpoint; listPath: string }) {
  const mutation = useDeleteWebhookEndpoint();
  const navigate = useNavigate();
  const toast = useToast();
  return (
    <Card>
      <CardTitle>Delete endpoint</CardTitle>
      <div className="space-y-3 text-sm text-slate-700">
        <p>Nothing more is sent to this URL, and its delivery log is no longer shown.</p>
        <ApiErrorAlert error={mutation.error} />
        <ConfirmButton
          size="md"
          isPending={mutation.isPending}
          title="Delete this webhook endpoint?"
          description={`Events will no longer be sent to ${endpoint.url}. This cannot be undone.`}
          confirmLabel="Delete endpoint"
          onConfirm={() =>
            mutation.mutate(endpoint.id, {
              onSuccess: () => {
                toast('Webhook endpoint deleted');
                navigate(listPath);
              },
            })
          }
        >
          Delete endpoint
        </ConfirmButton>
      </div>
    </Card>
  );
}
