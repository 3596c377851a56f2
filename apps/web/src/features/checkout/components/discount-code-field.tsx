import type { CheckoutPublic } from '@tessera/sdk';
import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Label } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { discountDurationWords, discountLabel } from '../logic/summary';

export interface DiscountCodeFieldProps {
  checkout: Pick<CheckoutPublic, 'discount' | 'allow_discount_codes' | 'is_discount_applicable' | 'product'>;
  code: string;
  error?: string;
  isPending: boolean;
  onCodeChange(code: string): void;
  onApply(): void;
  onRemove(): void;
}

/** The applied discount (with a way to remove it) or the field to enter a code. */
export function DiscountCodeField({
  checkout,
  code,
  error,
  isPending,
  onCodeChange,
  onApply,
  onRemove,
}: DiscountCodeFieldProps) {
  const id = useId();
  const discount = checkout.discount;
  // Applying a code replaces the field with the applied discount (and removing it, the other way
  // round): the focus follows, instead of falling back to the top of the page.
  const moved = useRef(false);
  const appliedRef = useRef<HTMLDivElement>(null);
  const discountId = discount?.id ?? null;
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    (discountId ? appliedRef.current : document.getElementById(id))?.focus();
  }, [discountId, id]);
  const apply = () => {
    moved.current = true;
    onApply();
  };
  const remove = () => {
    moved.current = true;
    onRemove();
  };
  if (discount) {
    const duration = discountDurationWords(discount, checkout.product.recurring_interval);
    return (
      <div
        ref={appliedRef}
        tabIndex={-1}
        aria-label="Discount applied"
        className="rounded-md border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
      >
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p>
            <span className="font-medium">{discount.code ?? discount.name}</span>: {discountLabel(discount)}
          </p>
          {checkout.allow_discount_codes && (
            <Button variant="ghost" size="sm" onClick={remove} isPending={isPending}>
              Remove discount
            </Button>
          )}
        </div>
        {duration && <p className="mt-1 text-green-900">{duration}</p>}
      </div>
    );
  }
  if (!checkout.allow_discount_codes || !checkout.is_discount_applicable) return null;

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    // Enter applies the code; it must not submit (and pay for) the whole checkout.
    if (event.key === 'Enter') {
      event.preventDefault();
      apply();
    }
  }

  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>Discount code</Label>
      <div className="flex gap-2">
        <Input
          id={id}
          value={code}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onCodeChange(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <Button variant="secondary" onClick={apply} isPending={isPending}>
          Apply
        </Button>
      </div>
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
