import { useId, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import type { Unavailable } from '../logic/status';

/** Why there is no checkout form (expired, failed, not found, not loaded), and nothing to fill in. */
export function CheckoutUnavailable({
  reason,
  onRetry,
  children,
}: {
  reason: Unavailable;
  onRetry?: () => void;
  children?: ReactNode;
}) {
  const titleId = useId();
  return (
    <section
      aria-labelledby={titleId}
      className="mx-auto max-w-lg rounded-lg border border-slate-200 bg-white px-6 py-10 text-center shadow-sm"
    >
      <h1 id={titleId} className="text-xl font-semibold text-slate-900">
        {reason.title}
      </h1>
      <p className="mt-2 text-sm text-slate-700">{reason.description}</p>
      {children}
      {reason.canRetry && onRetry && (
        <Button className="mt-6" variant="secondary" onClick={onRetry}>
          Try again
        </Button>
      )}
    </section>
  );
}
