import { ResourceNotFound, SDKValidationError } from '@tessera/sdk';
import type { ReactNode } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { EmptyState } from '../../../components/ui/empty-state';

/**
 * An id in the address that is not the customer's: another customer's (the API answers 404, as for
 * any id it does not show this customer) or not an id at all (refused before sending).
 */
export function isMissing(error: unknown): boolean {
  return error instanceof ResourceNotFound || error instanceof SDKValidationError;
}

export interface MissingResourceProps {
  error: unknown;
  /** "Subscription", "Order". */
  noun: string;
  back: ReactNode;
}

/** A detail page whose id could not be read: not found in words, or the error as it is. */
export function MissingResource({ error, noun, back }: MissingResourceProps) {
  if (!isMissing(error))
    return (
      <div className="space-y-4">
        {back}
        <ApiErrorAlert error={error} />
      </div>
    );
  return (
    <EmptyState
      title={`${noun} not found`}
      description={`There is no ${noun.toLowerCase()} at this address in your account. Check the link, or find it in the list.`}
      action={back}
    />
  );
}
