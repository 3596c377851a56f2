import { useState } from 'react';
import { Combobox } from '../../../components/ui/combobox';
import { Field } from '../../../components/ui/field';
import { useCustomers } from '../api/get-customers';

export interface CustomerPickerProps {
  organizationId: string;
  /** Called with the chosen customer's id, or null when the field is cleared or retyped. */
  onChange(customerId: string | null): void;
  label?: string;
  className?: string;
}

/** Finds a customer by email or name as one types, and picks one: a filter for lists by customer. */
export function CustomerPicker({ organizationId, onChange, label = 'Customer', className }: CustomerPickerProps) {
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const search = text.trim();
  const customers = useCustomers({
    organization_id: organizationId,
    query: search || undefined,
    limit: 10,
    sorting: ['email'],
  });
  const options = (customers.data?.items ?? []).map((customer) => ({
    value: customer.id,
    label: customer.email,
    description: customer.name ?? undefined,
  }));

  return (
    <Field
      label={label}
      className={className}
      hint={chosen ? undefined : 'Type an email or a name, then choose from the list.'}
    >
      <Combobox
        inputValue={text}
        placeholder="All customers"
        options={options}
        isLoading={customers.isFetching}
        emptyMessage={customers.isError ? 'Customers could not be searched.' : 'No customer matches.'}
        onInputChange={(next) => {
          setText(next);
          if (chosen !== null) {
            setChosen(null);
            onChange(null);
          }
        }}
        onSelect={(option) => {
          setText(option.label);
          setChosen(option.value);
          onChange(option.value);
        }}
      />
    </Field>
  );
}
