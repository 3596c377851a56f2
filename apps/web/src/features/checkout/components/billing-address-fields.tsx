import { useMemo } from 'react';
import { AddressFields } from '../../../components/address/address-fields';
import { billingCountryOptions, type AddressEntry, type AddressRules } from '../logic/address';

export interface BillingAddressFieldsProps {
  address: AddressEntry;
  rules: AddressRules;
  errorFor(field: string): string | undefined;
  onChange(address: AddressEntry): void;
}

/** The checkout's billing address: the app's address form, with the parts the checkout asks for. */
export function BillingAddressFields({ address, rules, errorFor, onChange }: BillingAddressFieldsProps) {
  const countries = useMemo(() => billingCountryOptions(), []);
  return (
    <AddressFields
      legend="Billing address"
      address={address}
      onChange={onChange}
      countries={countries}
      shown={rules.shown}
      required={rules.required}
      errorFor={(part) => errorFor(`customer_billing_address.${part}`)}
    />
  );
}
