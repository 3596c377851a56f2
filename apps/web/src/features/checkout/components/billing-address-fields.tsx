import { useMemo } from 'react';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import {
  billingCountryOptions,
  subdivisionLabel,
  subdivisionOptions,
  type AddressEntry,
  type AddressRules,
} from '../logic/address';

export interface BillingAddressFieldsProps {
  address: AddressEntry;
  rules: AddressRules;
  errorFor(field: string): string | undefined;
  onChange(address: AddressEntry): void;
}

const optional = (label: string, required: boolean) => (required ? label : `${label} (optional)`);

export function BillingAddressFields({ address, rules, errorFor, onChange }: BillingAddressFieldsProps) {
  const countries = useMemo(() => billingCountryOptions(), []);
  const subdivisions = subdivisionOptions(address.country);
  const set = (patch: Partial<AddressEntry>) => onChange({ ...address, ...patch });
  const error = (part: string) => errorFor(`customer_billing_address.${part}`);
  const { shown, required } = rules;
  return (
    <fieldset className="space-y-4">
      <legend className="mb-2 text-sm font-semibold text-slate-900">Billing address</legend>
      <Field label={optional('Country', required.country)} error={error('country')}>
        <Select
          value={address.country}
          options={countries}
          placeholder="Choose your country"
          // A state of another country means nothing here.
          onValueChange={(country) => set({ country, state: '' })}
        />
      </Field>
      {shown.line1 && (
        <Field label={optional('Street address', required.line1)} error={error('line1')}>
          <Input
            autoComplete="address-line1"
            value={address.line1}
            onChange={(event) => set({ line1: event.target.value })}
          />
        </Field>
      )}
      {shown.line2 && (
        <Field label="Apartment, suite, etc. (optional)" error={error('line2')}>
          <Input
            autoComplete="address-line2"
            value={address.line2}
            onChange={(event) => set({ line2: event.target.value })}
          />
        </Field>
      )}
      {(shown.postal_code || shown.city) && (
        <div className="grid gap-4 sm:grid-cols-2">
          {shown.postal_code && (
            <Field label={optional('Postal code', required.postal_code)} error={error('postal_code')}>
              <Input
                autoComplete="postal-code"
                value={address.postalCode}
                onChange={(event) => set({ postalCode: event.target.value })}
              />
            </Field>
          )}
          {shown.city && (
            <Field label={optional('City', required.city)} error={error('city')}>
              <Input
                autoComplete="address-level2"
                value={address.city}
                onChange={(event) => set({ city: event.target.value })}
              />
            </Field>
          )}
        </div>
      )}
      {shown.state && (
        <Field label={optional(subdivisionLabel(address.country), required.state)} error={error('state')}>
          {subdivisions.length > 0 ? (
            <Select
              value={address.state}
              options={subdivisions}
              placeholder={`Choose your ${subdivisionLabel(address.country).toLowerCase()}`}
              onValueChange={(state) => set({ state })}
            />
          ) : (
            <Input
              autoComplete="address-level1"
              value={address.state}
              onChange={(event) => set({ state: event.target.value })}
            />
          )}
        </Field>
      )}
    </fieldset>
  );
}
