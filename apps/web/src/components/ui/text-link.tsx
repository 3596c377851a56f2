import type { ComponentProps } from 'react';
import { Link } from 'react-router';
import { cn } from '../../lib/cn';

/** A link to another page of the app, named by its text: a customer's email, a product's name. */
export function TextLink({ className, ...props }: ComponentProps<typeof Link>) {
  return <Link className={cn('font-medium text-blue-800 underline-offset-2 hover:underline', className)} {...props} />;
}
