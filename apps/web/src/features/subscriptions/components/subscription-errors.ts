import { APIError, NamedAPIError } from '@tessera/sdk';

export type SubscriptionAction = 'cancel' | 'uncancel' | 'revoke' | 'change-product';

/**
 * Errors of the subscription actions in the words of the action. Most API errors already say what
 * happened (`AlreadyCanceledSubscription`); a few answer with a bare status, worded here.
 */
export function explainSubscriptionError(error: unknown, action: SubscriptionAction): unknown {
  if (!(error instanceof APIError)) return error;
  const name = error instanceof NamedAPIError ? error.error : undefined;
  if (action === 'change-product' && name === 'AlreadyCanceledSubscription')
    return new Error('This subscription is canceled or set to cancel, so its product cannot be changed.');
  if (action === 'uncancel' && error.statusCode === 410)
    return new Error('This subscription has already ended, so it cannot be resumed.');
  if (action === 'uncancel' && name === 'BadRequest')
    return new Error('Only an active subscription set to cancel at the end of its period can be resumed.');
  return error;
}
