import { Field } from '../ui/field';
import { Input } from '../ui/input';
import { Select } from '../ui/select';
import { subdivisionLabel, subdivisionOptions, subdivisionValue } from '../../lib/subdivisions';

export type AddressPart = 'country' | 'line1' | 'line2' | 'postal_code' | 'city' | 'state';

/** An address as a form holds it (every part a string; '' is empty). */
export interface AddressFieldsValue {
  country: string;
  line1: string;
  line2: string;
  postalCode: string;
  city: string;
  state: string;
}

export interface AddressFieldsProps<T extends AddressFieldsValue> {
  address: T;
  onChange(address: T): void;
  /** The countries offered ({ value: ISO code, label: name }). */
  countries: { value: string; label: string }[];
  /** The API's complaint about a part, if any. */
  errorFor(part: AddressPart): string | undefined;
  /** Parts shown (default: every part once a country is chosen). */
  shown?: Partial<Record<AddressPart, boolean>>;
  /** Parts that must be filled: the others say "(optional)" (default: none). */
  required?: Partial<Record<AddressPart, boolean>>;
  /** When set, the country may be left out: the option of no address, so named. */
  noAddressLabel?: string;
  legend?: string;
  countryHint?: string;
}

// Radix Select takes no empty value: the option for "no address" needs a value of its own.
const NO_COUNTRY = 'none';

/**
 * The one address form of the app (checkout, the portal's profile, an order's billing details): US
 * states and Canadian provinces are chosen by name and stored as their ISO 3166-2 code (`US-CA`); other
 * countries' regions are typed. A part is marked optional exactly when it is not required.
 */
export function AddressFields<T extends AddressFieldsValue>({
  address,
  onChange,
  countries,
  errorFor,
  shown = {},
  required = {},
  noAddressLabel,
  legend,
  countryHint,
}: AddressFieldsProps<T>) {
  const set = (patch: Partial<AddressFieldsValue>) => onChange({ ...address, ...patch });
  const hasCountry = address.country !== '';
  const show = (part: AddressPart) => shown[part] ?? hasCountry;
  const label = (text: string, part: AddressPart) => (required[part] ? text : `${text} (optional)`);
  const subdivisions = subdivisionOptions(address.country);
  const countryOptions = noAddressLabel ? [{ value: NO_COUNTRY, label: noAddressLabel }, ...countries] : countries;
  return (
    <fieldset className="space-y-4">
      {legend && <legend className="mb-2 text-sm font-semibold text-slate-900">{legend}</legend>}
      <Field
        label={noAddressLabel ? 'Country' : label('Country', 'country')}
        error={errorFor('country')}
        hint={countryHint}
      >
        <Select
          value={address.country || (noAddressLabel ? NO_COUNTRY : '')}
          options={countryOptions}
          placeholder="Choose your country"
          // A state of another country means nothing here.
          onValueChange={(country) => set({ country: country === NO_COUNTRY ? '' : country, state: '' })}
        />
      </Field>
      {show('line1') && (
        <Field label={label('Street address', 'line1')} error={errorFor('line1')}>
          <Input
            autoComplete="address-line1"
            value={address.line1}
            onChange={(event) => set({ line1: event.target.value })}
          />
        </Field>
      )}
      {show('line2') && (
        <Field label="Apartment, suite, etc. (optional)" error={errorFor('line2')}>
          <Input
            autoComplete="address-line2"
            value={address.line2}
            onChange={(event) => set({ line2: event.target.value })}
          />
        </Field>
      )}
      {(show('postal_code') || show('city')) && (
        <div className="grid gap-4 sm:grid-cols-2">
          {show('postal_code') && (
            <Field label={label('Postal code', 'postal_code')} error={errorFor('postal_code')}>
              <Input
                autoComplete="postal-code"
                value={address.postalCode}
                onChange={(event) => set({ postalCode: event.target.value })}
              />
            </Field>
          )}
          {show('city') && (
            <Field label={label('City', 'city')} error={errorFor('city')}>
              <Input
                autoComplete="address-level2"
                value={address.city}
                onChange={(event) => set({ city: event.target.value })}
              />
            </Field>
          )}
        </div>
      )}
      {show('state') && (
        <Field label={label(subdivisionLabel(address.country), 'state')} error={errorFor('state')}>
          {subdivisions.length > 0 ? (
            <Select
              value={subdivisionValue(address.state, address.country)}
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
