import type { CheckoutPublic, CheckoutPublicConfirmed } from '@tessera/sdk';

/**
 * How the card is collected. With Stripe configured, the API puts Stripe's publishable key in
 * `payment_processor_metadata.publishable_key` and the page shows Stripe's Payment Element; otherwise
 * the server runs the simulated card processor and the page shows its own card form. (The wire's
 * `payment_processor` is always "stripe", as the reference's is.)
 */
export type PaymentMethodForm = { kind: 'stripe'; publishableKey: string } | { kind: 'simulated' };

export function paymentMethodForm(checkout: Pick<CheckoutPublic, 'payment_processor_metadata'>): PaymentMethodForm {
  const key = checkout.payment_processor_metadata.publishable_key;
  return key ? { kind: 'stripe', publishableKey: key } : { kind: 'simulated' };
}

export type { ConfirmationTokenSource } from '../../../lib/payments/source';

/**
 * What a confirm answer asks of the page besides going to the thank-you page: the buyer authenticates
 * the payment (then the page confirms again), or nothing more (`processing`: the thank-you page waits).
 */
export type NextAction = { kind: 'authenticate'; clientSecret: string } | null;

export function nextAction(confirmed: Pick<CheckoutPublicConfirmed, 'payment_processor_metadata'>): NextAction {
  const metadata = confirmed.payment_processor_metadata;
  if (metadata.intent_status === 'requires_action' && metadata.intent_client_secret)
    return { kind: 'authenticate', clientSecret: metadata.intent_client_secret };
  return null;
}
