/**
 * What a card form (the simulated processor's or Stripe's Payment Element) hands to the call that uses
 * the card: a confirmation token made from what the person entered; and, for a payment or a saved card
 * the bank wants authenticated (3-D Secure), the processor's own step.
 */
export interface ConfirmationTokenSource {
  createConfirmationToken(buyer: { name: string; email: string }): Promise<string>;
  /** Completes the authentication the payment or setup waits for (Stripe.js `handleNextAction`). */
  handleNextAction?(clientSecret: string): Promise<void>;
}
