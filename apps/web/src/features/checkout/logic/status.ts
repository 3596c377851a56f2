import { ExpiredCheckoutError, NotOpenCheckout, ResourceNotFound, type CheckoutStatus } from '@tessera/sdk';
import { describeError } from '../../../lib/api-error';

/** Why a checkout shows no form, in words a buyer can act on. */
export interface Unavailable {
  title: string;
  description: string;
  /** Asking again may help (a network problem, say). */
  canRetry: boolean;
}

const EXPIRED: Unavailable = {
  title: 'This checkout has expired',
  description: 'Checkouts stay open for a limited time. Go back to the seller’s page to start a new one.',
  canRetry: false,
};

const FAILED: Unavailable = {
  title: 'This checkout could not be completed',
  description: 'No payment was taken. Go back to the seller’s page to start a new checkout.',
  canRetry: false,
};

const NOT_FOUND: Unavailable = {
  title: 'Checkout not found',
  description: 'This checkout link is not valid. Check the address, or ask the seller for a new link.',
  canRetry: false,
};

/** A checkout that is not `open` and has no page of its own (confirmed and succeeded go to the thank-you page). */
export function unavailableStatus(status: CheckoutStatus): Unavailable | null {
  if (status === 'expired') return EXPIRED;
  if (status === 'failed') return FAILED;
  return null;
}

/** A failure to load the checkout. */
export function unavailableError(error: unknown): Unavailable {
  if (error instanceof ExpiredCheckoutError) return EXPIRED;
  if (error instanceof ResourceNotFound) return NOT_FOUND;
  return { title: 'The checkout could not be loaded', description: describeError(error).message, canRetry: true };
}

/** The checkout is over (expired or completed elsewhere): the page should reload it and show why. */
export function isCheckoutGone(error: unknown): boolean {
  return error instanceof ExpiredCheckoutError || error instanceof NotOpenCheckout;
}

/**
 * A failure to load the thank-you page. A checkout answers "expired" once its time is over even after
 * it was paid, so that is not worded as a lost purchase.
 */
export function unavailableConfirmation(error: unknown): Unavailable {
  if (error instanceof ExpiredCheckoutError)
    return {
      title: 'This checkout is closed',
      description: 'If you paid, your purchase is complete: find it in the seller’s customer portal.',
      canRetry: false,
    };
  return unavailableError(error);
}
