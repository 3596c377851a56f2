import type { BenefitCreate } from '@tessera/sdk';
import { useState, type FormEvent } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Checkbox, Input, Textarea } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { useToast } from '../../../components/ui/toast';
import { fieldError } from '../../../lib/api-error';
import { useCreateBenefit } from '../api/create-benefit';

const TYPES = [
  { value: 'custom', label: 'Custom (a note shown to the customer)' },
  { value: 'license_keys', label: 'License keys' },
];

const TIMEFRAMES = [
  { value: 'day', label: 'Days' },
  { value: 'month', label: 'Months' },
  { value: 'year', label: 'Years' },
];

function positiveInteger(text: string): number | null {
  return /^\d+$/.test(text.trim()) && Number(text) > 0 ? Number(text) : null;
}

export function CreateBenefitDialog({ organizationId }: { organizationId: string }) {
  const [open, setOpen] = useState(false);
  const [type, setType] = useState('custom');
  const [description, setDescription] = useState('');
  const [note, setNote] = useState('');
  const [prefix, setPrefix] = useState('');
  const [ttl, setTtl] = useState('');
  const [timeframe, setTimeframe] = useState('year');
  const [activations, setActivations] = useState('');
  const [isCustomerAdmin, setIsCustomerAdmin] = useState(false);
  const [usage, setUsage] = useState('');
  const mutation = useCreateBenefit();
  const toast = useToast();
  const error = mutation.error;

  function close(next: boolean) {
    setOpen(next);
    if (!next) {
      setDescription('');
      setNote('');
      setPrefix('');
      setTtl('');
      setActivations('');
      setUsage('');
      mutation.reset();
    }
  }

  function body(): BenefitCreate {
    if (type === 'custom')
      return {
        type: 'custom',
        organization_id: organizationId,
        description,
        properties: { note: note.trim() || null },
      };
    const ttlValue = positiveInteger(ttl);
    const activationLimit = positiveInteger(activations);
    return {
      type: 'license_keys',
      organization_id: organizationId,
      description,
      properties: {
        prefix: prefix.trim() || null,
        expires: ttlValue ? { ttl: ttlValue, timeframe: timeframe as 'day' | 'month' | 'year' } : null,
        activations: activationLimit ? { limit: activationLimit, enable_customer_admin: isCustomerAdmin } : null,
        limit_usage: positiveInteger(usage),
      },
    };
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    mutation.mutate(body(), {
      onSuccess: (benefit) => {
        toast(`Benefit “${benefit.description}” created`);
        close(false);
      },
    });
  }

  return (
    <>
      <Button onClick={() => setOpen(true)}>New benefit</Button>
      <Dialog open={open} onOpenChange={close} title="New benefit" size="lg">
        <form onSubmit={submit} className="space-y-4" noValidate>
          <ApiErrorAlert error={error} shownFields={['description', 'properties.note', 'properties.prefix']} />
          <Field label="Benefit type">
            <Select value={type} options={TYPES} onValueChange={setType} />
          </Field>
          <Field
            label="Description"
            hint="3 to 42 characters, shown to customers."
            error={fieldError(error, 'description')}
          >
            <Input value={description} onChange={(event) => setDescription(event.target.value)} />
          </Field>
          {type === 'custom' ? (
            <Field
              label="Note"
              hint="Private instructions shown after purchase. Optional."
              error={fieldError(error, 'properties.note')}
            >
              <Textarea value={note} onChange={(event) => setNote(event.target.value)} />
            </Field>
          ) : (
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Key prefix" hint="Optional, e.g. ACME." error={fieldError(error, 'properties.prefix')}>
                <Input value={prefix} onChange={(event) => setPrefix(event.target.value)} />
              </Field>
              <Field label="Usage limit per key" hint="Optional.">
                <Input inputMode="numeric" value={usage} onChange={(event) => setUsage(event.target.value)} />
              </Field>
              <Field label="Keys expire after" hint="Leave empty for keys that never expire.">
                <Input inputMode="numeric" value={ttl} onChange={(event) => setTtl(event.target.value)} />
              </Field>
              <Field label="Expiry unit">
                <Select value={timeframe} options={TIMEFRAMES} onValueChange={setTimeframe} />
              </Field>
              <Field label="Activation limit" hint="Devices per key (1–50). Optional.">
                <Input
                  inputMode="numeric"
                  value={activations}
                  onChange={(event) => setActivations(event.target.value)}
                />
              </Field>
              <Checkbox
                className="self-end pb-2"
                label="Customers may manage activations"
                checked={isCustomerAdmin}
                onChange={(event) => setIsCustomerAdmin(event.target.checked)}
              />
            </div>
          )}
          <DialogActions>
            <Button variant="secondary" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" isPending={mutation.isPending}>
              Create benefit
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
