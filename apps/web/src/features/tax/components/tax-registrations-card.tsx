import type { TaxRegistration } from '@tessera/sdk';
import { useMemo, useState, type FormEvent } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { DataTable } from '../../../components/ui/table';
import { useToast } from '../../../components/ui/toast';
import { fieldError } from '../../../lib/api-error';
import { countryOptions } from '../../../lib/countries';
import { formatBasisPoints, parseBasisPoints } from '../../../lib/format';
import { useCreateTaxRegistration } from '../api/create-tax-registration';
import { useDeleteTaxRegistration } from '../api/delete-tax-registration';
import { useTaxRegistrations } from '../api/get-tax-registrations';
import { useUpdateTaxRegistration } from '../api/update-tax-registration';
import { jurisdictionLabel } from '../logic/periods';

/** The places the organization collects tax, with their rates; add, change a rate, remove. */
export function TaxRegistrationsCard({ organizationId }: { organizationId: string }) {
  const registrations = useTaxRegistrations(organizationId);
  const remove = useDeleteTaxRegistration();
  const rows = registrations.data?.items ?? [];
  return (
    <Card>
      <CardTitle>Where you collect tax</CardTitle>
      <div className="space-y-4">
        <p className="text-sm text-slate-600">
          Buyers are taxed at the rate of the place in their billing address: a US state or Canadian province first,
          else the country. Nowhere registered means no tax. A new rate applies to checkouts and renewals from now on;
          orders keep the rate they were taxed at.
        </p>
        {rows.length === 0 ? (
          <p className="text-sm text-slate-600">No registrations yet: no tax is collected.</p>
        ) : (
          <DataTable
            label="Tax registrations"
            rows={rows}
            columns={[
              { header: 'Place', cell: (row) => jurisdictionLabel(row.country, row.state) },
              { header: 'Label', cell: (row) => row.label },
              { header: 'Rate', align: 'right', cell: (row) => <RateEditor registration={row} /> },
              {
                header: 'Actions',
                hideHeader: true,
                align: 'right',
                cell: (row) => (
                  <ConfirmButton
                    variant="ghost"
                    size="sm"
                    title={`Stop collecting ${row.label} in ${jurisdictionLabel(row.country, row.state)}?`}
                    description="New checkouts and renewals there are no longer taxed."
                    confirmLabel="Remove"
                    onConfirm={() => remove.mutate(row.id)}
                  >
                    Remove {jurisdictionLabel(row.country, row.state)}
                  </ConfirmButton>
                ),
              },
            ]}
          />
        )}
        <AddRegistrationForm organizationId={organizationId} />
      </div>
    </Card>
  );
}

function RateEditor({ registration }: { registration: TaxRegistration }) {
  const [text, setText] = useState(String(registration.rate_basis_points / 100));
  const update = useUpdateTaxRegistration();
  const toast = useToast();
  const parsed = parseBasisPoints(text);
  const changed = parsed !== null && parsed !== registration.rate_basis_points;
  return (
    <div className="flex items-center justify-end gap-2">
      <span className="sr-only">{formatBasisPoints(registration.rate_basis_points)}</span>
      <div className="w-24">
        <Input
          aria-label={`Rate in ${jurisdictionLabel(registration.country, registration.state)} (%)`}
          className="text-right"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      <Button
        size="sm"
        variant="secondary"
        disabled={!changed}
        isPending={update.isPending}
        onClick={() =>
          update.mutate(
            { id: registration.id, body: { rate_basis_points: parsed! } },
            { onSuccess: () => toast('Rate changed') },
          )
        }
      >
        Save rate
      </Button>
    </div>
  );
}

function AddRegistrationForm({ organizationId }: { organizationId: string }) {
  const countries = useMemo(() => countryOptions(), []);
  const [country, setCountry] = useState('');
  const [state, setState] = useState('');
  const [rate, setRate] = useState('');
  const [label, setLabel] = useState('VAT');
  const [rateError, setRateError] = useState<string>();
  const create = useCreateTaxRegistration();
  const toast = useToast();
  const withState = country === 'US' || country === 'CA';

  function submit(event: FormEvent) {
    event.preventDefault();
    const basisPoints = parseBasisPoints(rate);
    if (basisPoints === null || basisPoints > 10_000) {
      setRateError('A rate between 0 and 100 %, e.g. 20 or 7.25.');
      return;
    }
    setRateError(undefined);
    create.mutate(
      {
        organization_id: organizationId,
        country,
        state: withState && state.trim() ? state.trim() : null,
        rate_basis_points: basisPoints,
        label: label.trim(),
      },
      {
        onSuccess: () => {
          toast('Registration added');
          setRate('');
          setState('');
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-3 border-t border-slate-200 pt-4">
      <ApiErrorAlert error={create.error} shownFields={['country', 'state', 'rate_basis_points', 'label']} />
      <div className="grid items-end gap-3 sm:grid-cols-[1fr_8rem_7rem_9rem_auto]">
        <Field label="Country" error={fieldError(create.error, 'country')}>
          <Select value={country} options={countries} placeholder="Choose a country" onValueChange={setCountry} />
        </Field>
        <Field
          label="State or province"
          hint={withState ? 'e.g. CA' : 'US and CA only'}
          error={fieldError(create.error, 'state')}
        >
          <Input value={state} disabled={!withState} onChange={(event) => setState(event.target.value)} />
        </Field>
        <Field label="Rate (%)" error={rateError ?? fieldError(create.error, 'rate_basis_points')}>
          <Input inputMode="decimal" value={rate} onChange={(event) => setRate(event.target.value)} />
        </Field>
        <Field label="Label" error={fieldError(create.error, 'label')}>
          <Input value={label} onChange={(event) => setLabel(event.target.value)} />
        </Field>
        <Button type="submit" disabled={!country} isPending={create.isPending}>
          Add registration
        </Button>
      </div>
    </form>
  );
}
