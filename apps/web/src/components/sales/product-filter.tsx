import { Field } from '../ui/field';
import { Select, type SelectOption } from '../ui/select';

/** The product filter's value for "All products". */
export const ALL_PRODUCTS = 'all';

export interface ProductFilterProps {
  value: string;
  onValueChange(value: string): void;
  /** The organization's products that can be picked. */
  options: readonly SelectOption[];
}

/** Narrows a list of sales (orders, subscriptions) to one product. */
export function ProductFilter({ value, onValueChange, options }: ProductFilterProps) {
  return (
    <Field label="Product" className="w-full sm:w-56">
      <Select
        value={value}
        options={[{ value: ALL_PRODUCTS, label: 'All products' }, ...options]}
        onValueChange={onValueChange}
      />
    </Field>
  );
}
