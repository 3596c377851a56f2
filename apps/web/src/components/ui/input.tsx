import type { InputHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

const base =
  'block w-full rounded-md border bg-white px-3 text-sm text-slate-900 placeholder:text-slate-500 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-600 disabled:bg-slate-100';

export function Input({ className, ...props }: InputHTMLAttributes<HTMLInputElement>) {
  const invalid = props['aria-invalid'] === true || props['aria-invalid'] === 'true';
  return <input className={cn(base, 'h-10', invalid ? 'border-red-600' : 'border-slate-300', className)} {...props} />;
}

export function Textarea({ className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const invalid = props['aria-invalid'] === true || props['aria-invalid'] === 'true';
  return (
    <textarea
      className={cn(base, 'min-h-20 py-2', invalid ? 'border-red-600' : 'border-slate-300', className)}
      {...props}
    />
  );
}

export function Checkbox({
  label,
  className,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { label: string }) {
  return (
    <label className={cn('inline-flex items-center gap-2 text-sm text-slate-800', className)}>
      <input type="checkbox" className="size-4 rounded border-slate-400 accent-blue-700" {...props} />
      {label}
    </label>
  );
}
