import type { CheckoutProduct, CheckoutPublic } from '@tessera/sdk';
import { cn } from '../../../lib/cn';
import { availablePrices, availableProducts, priceLabel } from '../logic/summary';

export interface ProductSelection {
  productId: string;
  priceId: string;
}

export interface ProductPickerProps {
  checkout: CheckoutPublic;
  /** The selection shown: the one being saved, else the checkout's. */
  selection: ProductSelection;
  disabled?: boolean;
  error?: string;
  onSelect(selection: ProductSelection): void;
}

function productPrices(product: CheckoutProduct): string {
  return availablePrices(product)
    .map((price) => priceLabel(price, product.recurring_interval))
    .join(' or ');
}

const optionClass =
  'flex cursor-pointer items-start gap-3 rounded-md border bg-white p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-600';

/** Radio groups of the checkout's products and, when the chosen one has several, of its prices. */
export function ProductPicker({ checkout, selection, disabled, error, onSelect }: ProductPickerProps) {
  const products = availableProducts(checkout);
  const selected = products.find((product) => product.id === selection.productId) ?? checkout.product;
  const prices = availablePrices(selected);
  if (products.length <= 1 && prices.length <= 1) return null;
  return (
    <div className="space-y-4">
      {products.length > 1 && (
        <fieldset className="space-y-2" disabled={disabled}>
          <legend className="mb-2 text-sm font-medium text-slate-800">Choose a product</legend>
          {products.map((product) => {
            const checked = product.id === selected.id;
            return (
              <label
                key={product.id}
                className={cn(optionClass, checked ? 'border-blue-700 ring-1 ring-blue-700' : 'border-slate-300')}
              >
                <input
                  type="radio"
                  name="product"
                  className="mt-0.5 size-4 accent-blue-700"
                  checked={checked}
                  onChange={() => onSelect({ productId: product.id, priceId: availablePrices(product)[0]!.id })}
                />
                <span className="flex-1">
                  <span className="block font-medium text-slate-900">{product.name}</span>
                  <span className="block text-slate-600">{productPrices(product)}</span>
                </span>
              </label>
            );
          })}
        </fieldset>
      )}
      {prices.length > 1 && (
        <fieldset className="space-y-2" disabled={disabled}>
          <legend className="mb-2 text-sm font-medium text-slate-800">Choose a price</legend>
          {prices.map((price) => {
            const checked = price.id === selection.priceId;
            return (
              <label
                key={price.id}
                className={cn(optionClass, checked ? 'border-blue-700 ring-1 ring-blue-700' : 'border-slate-300')}
              >
                <input
                  type="radio"
                  name="price"
                  className="mt-0.5 size-4 accent-blue-700"
                  checked={checked}
                  onChange={() => onSelect({ productId: selected.id, priceId: price.id })}
                />
                <span className="text-slate-900">{priceLabel(price, selected.recurring_interval)}</span>
              </label>
            );
          })}
        </fieldset>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
