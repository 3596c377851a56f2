import { Field } from '../../../components/ui/field';
import { Checkbox, Input } from '../../../components/ui/input';
import type { CheckoutFormState } from '../logic/form';

export interface CustomerFieldsProps {
  state: Pick<CheckoutFormState, 'email' | 'name' | 'isBusiness' | 'businessName' | 'taxId'>;
  emailLocked: boolean;
  errorFor(field: string): string | undefined;
  onChange(patch: Partial<CheckoutFormState>): void;
  /** The tax ID is saved when the buyer leaves it: half-typed, it would only be refused. */
  onTaxIdBlur(): void;
}

export function CustomerFields({ state, emailLocked, errorFor, onChange, onTaxIdBlur }: CustomerFieldsProps) {
  return (
    <div className="space-y-4">
      <Field
        label="Email"
        hint={emailLocked ? 'The seller set this email for you.' : undefined}
        error={errorFor('customer_email')}
      >
        <Input
          type="email"
          autoComplete="email"
          value={state.email}
          readOnly={emailLocked}
          onChange={(event) => onChange({ email: event.target.value })}
        />
      </Field>
      <Field label="Name" error={errorFor('customer_name')}>
        <Input autoComplete="name" value={state.name} onChange={(event) => onChange({ name: event.target.value })} />
      </Field>
      <Checkbox
        label="I'm purchasing as a business"
        checked={state.isBusiness}
        onChange={(event) => onChange({ isBusiness: event.target.checked })}
      />
      {state.isBusiness && (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Business name" error={errorFor('customer_billing_name')}>
            <Input
              autoComplete="organization"
              value={state.businessName}
              onChange={(event) => onChange({ businessName: event.target.value })}
            />
          </Field>
          <Field label="Tax ID" hint="Optional. Your VAT or other tax number." error={errorFor('customer_tax_id')}>
            <Input
              autoComplete="off"
              value={state.taxId}
              onChange={(event) => onChange({ taxId: event.target.value })}
              onBlur={onTaxIdBlur}
            />
          </Field>
        </div>
      )}
    </div>
  );
}
