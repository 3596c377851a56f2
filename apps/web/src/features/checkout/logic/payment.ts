import type { CheckoutPublic } from '@tessera/sdk';

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

/** What a payment method form hands to confirm: a confirmation token made from what the buyer entered. */
export interface ConfirmationTokenSource {
  createConfirmationToken(buyer: { name: string; email: string }): Promise<string>;
}
