import type { LicenseKeyRead, LicenseKeyStatus } from '@tessera/sdk';
import { useState, type FormEvent } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { useToast } from '../../../components/ui/toast';
import { fieldError } from '../../../lib/api-error';
import { useUpdateLicenseKey } from '../api/update-license-key';
import { licenseKeyChanges, licenseKeyFormValues } from './license-key-changes';
import { LICENSE_KEY_STATUSES, LICENSE_KEY_STATUS_OPTIONS } from './license-key-status';

const SHOWN_FIELDS = ['status', 'usage', 'limit_usage', 'limit_activations', 'expires_at'];

export function LicenseKeyForm({ licenseKey }: { licenseKey: LicenseKeyRead }) {
  // What the form started from: the changes sent are the differences from it, not from a newer read.
  const [initial, setInitial] = useState(() => licenseKeyFormValues(licenseKey));
  const [values, setValues] = useState(initial);
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const mutation = useUpdateLicenseKey();
  const toast = useToast();
  const set = (patch: Partial<typeof values>) => setValues({ ...values, ...patch });
  const errorFor = (field: string) => localErrors[field] ?? fieldError(mutation.error, field);

  function submit(event: FormEvent) {
    event.preventDefault();
    const { body, errors } = licenseKeyChanges(initial, values);
    setLocalErrors(errors);
    if (Object.keys(errors).length > 0) return;
    if (Object.keys(body).length === 0) {
      toast('Nothing changed');
      return;
    }
    mutation.mutate(
      { id: licenseKey.id, body },
      {
        onSuccess: (saved) => {
          const savedValues = licenseKeyFormValues(saved);
          setInitial(savedValues);
          setValues(savedValues);
          toast('License key saved');
        },
      },
    );
  }

  return (
    <Card>
      <CardTitle>Manage key</CardTitle>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <ApiErrorAlert error={mutation.error} shownFields={SHOWN_FIELDS} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Status" hint={LICENSE_KEY_STATUSES[values.status].description} error={errorFor('status')}>
            <Select
              value={values.status}
              options={LICENSE_KEY_STATUS_OPTIONS}
              onValueChange={(status) => set({ status: status as LicenseKeyStatus })}
            />
          </Field>
          <Field label="Expires on" hint="Leave empty for a key that never expires." error={errorFor('expires_at')}>
            <Input type="date" value={values.expiresOn} onChange={(event) => set({ expiresOn: event.target.value })} />
          </Field>
          <Field label="Usage" hint="Units used so far; validations can add to it." error={errorFor('usage')}>
            <Input inputMode="numeric" value={values.usage} onChange={(event) => set({ usage: event.target.value })} />
          </Field>
          <Field label="Usage limit" hint="Leave empty for no limit." error={errorFor('limit_usage')}>
            <Input
              inputMode="numeric"
              value={values.limitUsage}
              onChange={(event) => set({ limitUsage: event.target.value })}
            />
          </Field>
          <Field
            label="Activation limit"
            hint="Devices or installs at once, 1 to 1000; leave empty for no limit."
            error={errorFor('limit_activations')}
          >
            <Input
              inputMode="numeric"
              value={values.limitActivations}
              onChange={(event) => set({ limitActivations: event.target.value })}
            />
          </Field>
        </div>
        <Button type="submit" isPending={mutation.isPending}>
          Save license key
        </Button>
      </form>
    </Card>
  );
}
