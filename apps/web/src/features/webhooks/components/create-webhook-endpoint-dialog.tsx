import { useState, type FormEvent } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { useToast } from '../../../components/ui/toast';
import { useCreateWebhookEndpoint } from '../api/create-webhook-endpoint';
import { generateSigningSecret } from './signing-secret';
import { SigningSecretPanel } from './signing-secret-panel';
import {
  WEBHOOK_ENDPOINT_FIELDS,
  WebhookEndpointFields,
  webhookEndpointErrors,
  webhookEndpointValues,
} from './webhook-endpoint-fields';

export function CreateWebhookEndpointDialog({ organizationId }: { organizationId: string }) {
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState(() => webhookEndpointValues());
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  // Held only in this dialog's state: closing it forgets the secret for good.
  const [secret, setSecret] = useState<string | null>(null);
  const mutation = useCreateWebhookEndpoint();
  const toast = useToast();

  function changeOpen(next: boolean) {
    setOpen(next);
    if (!next) {
      setValues(webhookEndpointValues());
      setLocalErrors({});
      setSecret(null);
      mutation.reset();
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const errors = webhookEndpointErrors(values);
    setLocalErrors(errors);
    if (Object.keys(errors).length > 0) return;
    const generated = generateSigningSecret();
    mutation.mutate(
      { ...values, url: values.url.trim(), secret: generated, organization_id: organizationId },
      {
        onSuccess: () => {
          setSecret(generated);
          toast('Webhook endpoint created');
        },
      },
    );
  }

  return (
    <>
      <Button onClick={() => setOpen(true)}>Add endpoint</Button>
      <Dialog
        open={open}
        onOpenChange={changeOpen}
        title={secret ? 'Webhook endpoint created' : 'New webhook endpoint'}
        size="lg"
      >
        {secret ? (
          <>
            <SigningSecretPanel secret={secret} />
            <DialogActions>
              <Button onClick={() => changeOpen(false)}>Done</Button>
            </DialogActions>
          </>
        ) : (
          <form onSubmit={submit} noValidate className="space-y-4">
            <ApiErrorAlert error={mutation.error} shownFields={WEBHOOK_ENDPOINT_FIELDS} />
            <WebhookEndpointFields
              values={values}
              onChange={setValues}
              localErrors={localErrors}
              apiError={mutation.error}
            />
            <p className="text-sm text-slate-600">
              A signing secret is generated for the endpoint and shown once after it is created.
            </p>
            <DialogActions>
              <Button variant="secondary" onClick={() => changeOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" isPending={mutation.isPending}>
                Create endpoint
              </Button>
            </DialogActions>
          </form>
        )}
      </Dialog>
    </>
  );
}
