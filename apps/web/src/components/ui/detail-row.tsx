import type { ReactNode } from 'react';

/** A term and its value in a description list (`<dl>`), the value aligned to the end. */
export function DetailRow({
  label,
  children,
  emphasis = false,
}: {
  label: string;
  children: ReactNode;
  emphasis?: boolean;
}) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-2">
      <dt className={emphasis ? 'text-sm font-semibold text-slate-900' : 'text-sm font-medium text-slate-600'}>
        {label}
      </dt>
      <dd
        className={emphasis ? 'text-right text-sm font-semibold text-slate-900' : 'text-right text-sm text-slate-900'}
      >
        {children}
      </dd>
    </div>
  );
}
