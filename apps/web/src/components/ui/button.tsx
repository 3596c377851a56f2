import { Slot } from '@radix-ui/react-slot';
import type { ButtonHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

const variants = {
  // The accent variables are the organization's brand colour in the checkout and the portal.
  primary:
    'bg-(--accent,var(--color-blue-700)) text-(--on-accent,var(--color-white)) hover:bg-(--accent-hover,var(--color-blue-800)) disabled:opacity-50',
  secondary: 'border border-slate-300 bg-white text-slate-900 hover:bg-slate-100 disabled:text-slate-400',
  danger: 'bg-red-700 text-white hover:bg-red-800 disabled:bg-red-300',
  ghost: 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
};

const sizes = { md: 'h-10 px-4 text-sm', sm: 'h-8 px-3 text-sm' };

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
  /** Renders the child (a link, say) with the button's look. */
  asChild?: boolean;
  isPending?: boolean;
}

export function Button({
  variant = 'primary',
  size = 'md',
  asChild = false,
  isPending = false,
  className,
  disabled,
  children,
  type,
  ...props
}: ButtonProps) {
  const Component = asChild ? Slot : 'button';
  return (
    <Component
      className={cn(
        'inline-flex items-center justify-center gap-2 rounded-md font-medium whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed',
        variants[variant],
        sizes[size],
        className,
      )}
      disabled={asChild ? undefined : disabled || isPending}
      aria-busy={isPending || undefined}
      type={asChild ? undefined : (type ?? 'button')}
      {...props}
    >
      {children}
    </Component>
  );
}
