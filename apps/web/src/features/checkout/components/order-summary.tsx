import type { CheckoutPublic } from '@tessera/sdk';
import { useId } from 'react';
import { cn } from '../../../lib/cn';
import { orderSummary } from '../logic/summary';

export interface OrderSummaryProps {
  checkout: CheckoutPublic;
  /** New amounts are being computed from what the buyer typed. */
  isUpdating: boolean;
}

/** The amounts the API computed for the checkout; they follow what the buyer types. */
export function OrderSummary({ checkout, isUpdating }: OrderSummaryProps) {
  const summary = orderSummary(checkout);
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} aria-busy={isUpdating || undefined}>
      <h2 id={titleId} className="mb-3 text-sm font-semibold text-slate-900">
        Order summary
      </h2>
      <dl className={cn('space-y-2 text-sm transition-opacity', isUpdating && 'opacity-60')}>
        {summary.lines.map((line) => (
          <div key={line.label} className="flex justify-between gap-4">
            <dt className="text-slate-700">{line.label}</dt>
            <dd className={cn('text-right', line.credit ? 'text-green-800' : 'text-slate-900')}>{line.value}</dd>
          </div>
        ))}
        <div className="flex justify-between gap-4 border-t border-slate-200 pt-2 text-base font-semibold">
          <dt>{summary.total.label}</dt>
          <dd className="text-right">{summary.total.value}</dd>
        </div>
      </dl>
      {summary.renewal && <p className="mt-2 text-xs text-slate-600">{summary.renewal}</p>}
      <p className="sr-only" aria-live="polite">
        {isUpdating ? 'Updating the amounts…' : `${summary.total.label}: ${summary.total.value}`}
      </p>
    </section>
  );
}
