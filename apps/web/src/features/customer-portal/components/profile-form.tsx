import type { CustomerPortalCustomer } from '@tessera/sdk';
import { useMemo, useState, type FormEvent } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { AddressFields } from '../../../components/address/address-fields';
import { useToast } from '../../../components/ui/toast';
import { fieldError } from '../../../lib/api-error';
import { countryOptions } from '../../../lib/countries';
import { useUpdateCustomer } from '../api/update-customer';
import { profileEntryOf, profileUpdateOf, type ProfileEntry } from '../logic/profile';

// The fields the form shows its errors next to; the rest is listed above the button.
const SHOWN_FIELDS = [
  'name',
  'email',
  'billing_address',
  'billing_address.country',
  'billing_address.line1',
  'billing_address.line2',
  'billing_address.postal_code',
  'billing_address.city',
  'billing_address.state',
  'tax_id',
];

/** Name, email, billing address and tax id, saved together; each API complaint shown at its field. */
export function ProfileForm({ customer }: { customer: CustomerPortalCustomer }) {
  const [entry, setEntry] = useState<ProfileEntry>(() => profileEntryOf(customer));
  const update = useUpdateCustomer();
  const toast = useToast();
  const countries = useMemo(() => countryOptions(), []);
  const set = (patch: Partial<ProfileEntry>) => setEntry((current) => ({ ...current, ...patch }));
  const error = (field: string) => fieldError(update.error, field);
  const body = profileUpdateOf(entry, customer);
  const hasChanges = Object.keys(body).length > 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    update.mutate(body, {
      onSuccess: (saved) => {
        setEntry(profileEntryOf(saved));
        toast('Your profile is saved');
      },
    });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      <Card>
        <CardTitle>Contact</CardTitle>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Name" error={error('name')}>
            <Input autoComplete="name" value={entry.name} onChange={(event) => set({ name: event.target.value })} />
          </Field>
          <Field label="Email" error={error('email')} hint="Receipts and links to this portal are sent here.">
            <Input
              type="email"
              autoComplete="email"
              value={entry.email}
              onChange={(event) => set({ email: event.target.value })}
            />
          </Field>
        </div>
      </Card>
      <Card>
        <CardTitle>Billing</CardTitle>
        <div className="space-y-4">
          <AddressFields
            address={entry}
            onChange={(next) => setEntry(next)}
            countries={countries}
            noAddressLabel="No billing address"
            countryHint="Your billing address appears on your invoices and decides the tax you pay."
            errorFor={(part) =>
              error(`billing_address.${part}`) ?? (part === 'country' ? error('billing_address') : undefined)
            }
          />
          <Field
            label="Tax ID (optional)"
            error={error('tax_id')}
            hint="A business VAT or GST number, checked against your billing country."
          >
            <Input value={entry.taxId} onChange={(event) => set({ taxId: event.target.value })} />
          </Field>
        </div>
      </Card>
      <ApiErrorAlert error={update.error} shownFields={SHOWN_FIELDS} />
      <div className="flex justify-end">
        <Button type="submit" isPending={update.isPending} disabled={!hasChanges}>
          Save profile
        </Button>
      </div>
    </form>
  );
}
