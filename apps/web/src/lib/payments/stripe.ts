import { loadStripe, type Stripe } from '@stripe/stripe-js';

/**
 * Stripe.js, loaded only where a page's processor is Stripe (import this module dynamically): once per
 * publishable key for the page's life, shared by the checkout's and the portal's card forms.
 */
const stripes = new Map<string, Promise<Stripe | null>>();

export function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripes.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey).catch((error: unknown) => {
      // Not kept: a later attempt (after a reload of the form) loads it again.
      stripes.delete(publishableKey);
      throw error;
    });
    stripes.set(publishableKey, stripe);
  }
  return stripe;
}

/** Completes a payment's or a setup's 3-D Secure with Stripe.js outside a form (a page opened again). */
export async function handleStripeNextAction(publishableKey: string, clientSecret: string): Promise<void> {
  const stripe = await stripeFor(publishableKey);
  if (!stripe) throw new Error('The card form could not be loaded. Check your connection, then reload the page.');
  const result = await stripe.handleNextAction({ clientSecret });
  if (result.error) throw new Error(result.error.message ?? 'Your payment could not be authenticated.');
}
