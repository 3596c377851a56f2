import type { ProductPriceCustom } from '@tessera/sdk';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { formatMoney } from '../../../lib/format';
import { customAmountBounds, describeBounds } from '../logic/custom-amount';

export interface CustomAmountFieldProps {
  price: ProductPriceCustom;
  value: string;
  error?: string;
  onChange(value: string): void;
}

/** The amount of a pay-what-you-want price, within the bounds the seller set. */
export function CustomAmountField({ price, value, error, onChange }: CustomAmountFieldProps) {
  const bounds = customAmountBounds(price);
  const suggested = bounds.preset !== null ? ` Suggested: ${formatMoney(bounds.preset, bounds.currency)}.` : '';
  return (
    <Field
      label={`Name a fair price (${bounds.currency.toUpperCase()})`}
      hint={`${describeBounds(bounds)}${suggested}`}
      error={error}
    >
      <Input
        inputMode="decimal"
        autoComplete="off"
        value={value}
        placeholder={bounds.preset !== null ? formatMoney(bounds.preset, bounds.currency) : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}
