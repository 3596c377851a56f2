import type { CheckoutPublic } from '@tessera/sdk';
import { useEffect, useId, useState } from 'react';
import { cn } from '../../../lib/cn';
import { orderSummary, trialUnavailableWords } from '../logic/summary';

export interface OrderSummaryProps {
  checkout: CheckoutPublic;
  /** New amounts are being computed from what the buyer typed. */
  isUpdating: boolean;
}

/** The id of the summary's card, which the phone's total bar opens and scrolls to. */
const SUMMARY_ID = 'checkout-order-summary';
const OPEN_EVENT = 'tessera:open-order-summary';

/**
 * The amounts the API computed for the checkout; they follow what the buyer types. On a phone the
 * lines fold behind a button that says the total (the form comes first), and `OrderTotalBar` keeps the
 * total in view while the buyer fills the form.
 */
export function OrderSummary({ checkout, isUpdating }: OrderSummaryProps) {
  const summary = orderSummary(checkout);
  const titleId = useId();
  const linesId = useId();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const openSummary = () => setOpen(true);
    window.addEventListener(OPEN_EVENT, openSummary);
    return () => window.removeEventListener(OPEN_EVENT, openSummary);
  }, []);
  return (
    <section id={SUMMARY_ID} aria-labelledby={titleId} aria-busy={isUpdating || undefined} className="scroll-mt-4">
      <h2 id={titleId} className="mb-3 hidden text-sm font-semibold text-slate-900 lg:block">
        Order summary
      </h2>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={linesId}
        onClick={() => setOpen(!open)}
        className="flex w-full items-center justify-between gap-4 rounded text-left text-sm font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 lg:hidden"
      >
        <span>
          {open ? 'Hide' : 'Show'} order summary <span aria-hidden>{open ? '▴' : '▾'}</span>
        </span>
        <span>{summary.total.value}</span>
      </button>
      {trialUnavailableWords(checkout) && (
        <p className="mt-2 rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-800 lg:mt-0 lg:mb-3">
          {trialUnavailableWords(checkout)}
        </p>
      )}
      {summary.trial && (
        <p className="mt-2 rounded-md bg-blue-50 px-3 py-2 text-sm font-medium text-blue-900 lg:mt-0 lg:mb-3">
          {summary.trial}
        </p>
      )}
      <div id={linesId} className={cn(open ? 'mt-4 block' : 'hidden', 'lg:mt-0 lg:block')}>
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
      </div>
      <p className="sr-only" aria-live="polite">
        {isUpdating ? 'Updating the amounts…' : `${summary.total.label}: ${summary.total.value}`}
      </p>
    </section>
  );
}

/**
 * The total kept at the bottom of a phone's screen while the buyer fills the form (hidden on wide
 * screens, where the summary stays beside the form). Its button opens the summary and scrolls to it.
 * Sticky, not fixed: at the end of the form it takes its own place instead of covering the pay button.
 */
export function OrderTotalBar({ checkout }: { checkout: CheckoutPublic }) {
  const { total } = orderSummary(checkout);
  return (
    <div
      role="group"
      aria-label="Order total"
      className="sticky bottom-0 z-10 -mx-4 flex items-center justify-between gap-4 border-t border-slate-200 bg-white px-4 py-3 shadow-[0_-2px_6px_rgba(15,23,42,0.08)] sm:-mx-6 sm:px-6 lg:hidden"
    >
      <p className="text-sm text-slate-700">
        {total.label} <strong className="text-base text-slate-900">{total.value}</strong>
      </p>
      <button
        type="button"
        className="rounded text-sm font-medium text-blue-800 underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
        onClick={() => {
          window.dispatchEvent(new Event(OPEN_EVENT));
          document.getElementById(SUMMARY_ID)?.scrollIntoView({ block: 'start' });
        }}
      >
        View details
      </button>
    </div>
  );
}
