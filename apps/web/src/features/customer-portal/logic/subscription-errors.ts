import { APIError, NamedAPIError } from '@tessera/sdk';

export type SubscriptionAction = 'cancel' | 'uncancel' | 'change-plan';

/**
 * Errors of the subscription actions in the customer's words. The API's `detail` is written for a
 * developer or a seller; the portal says what happened and what the customer can do.
 */
export function explainSubscriptionError(error: unknown, action: SubscriptionAction, sellerName: string): unknown {
  if (!(error instanceof APIError)) return error;
  const name = error instanceof NamedAPIError ? error.error : undefined;
  if (name === 'UpdateSubscriptionNotAllowed')
    return new Error(`${sellerName} does not let customers change plans here. Contact them to change your plan.`);
  if (name === 'AlreadyCanceledSubscription')
    return new Error(
      action === 'change-plan'
        ? 'This subscription is canceled or set to end, so its plan cannot be changed. Resume it first.'
        : 'This subscription is already canceled or set to end at the end of the period.',
    );
  if (name === 'ResourceNotFound') return new Error('This subscription no longer exists. Reload the page.');
  if (error.statusCode === 410) return new Error('This subscription has already ended, so it cannot be resumed.');
  if (action === 'uncancel' && name === 'BadRequest')
    return new Error('Only an active subscription set to end at the end of its period can be resumed.');
  return error;
}
