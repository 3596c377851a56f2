import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe, type StripeElementsOptions } from '@stripe/stripe-js';
import type { CheckoutPublic } from '@tessera/sdk';
import { useEffect, useState, type RefObject } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Loading } from '../../../components/ui/spinner';
import type { ConfirmationTokenSource } from '../logic/payment';

/**
 * Stripe's Payment Element. This module (and Stripe.js with it) is loaded only when the checkout's
 * processor is Stripe; it turns what the buyer enters into a Stripe confirmation token for confirm.
 */

const stripes = new Map<string, Promise<Stripe | null>>();

/** Stripe.js once per publishable key, for every checkout of the page's life. */
function stripeFor(publishableKey: string): Promise<Stripe | null> {
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

/** Completes a payment's 3-D Secure with Stripe.js outside the form (a checkout page opened again). */
export async function handleStripeNextAction(publishableKey: string, clientSecret: string): Promise<void> {
  const stripe = await stripeFor(publishableKey);
  if (!stripe) throw new Error('The card form could not be loaded. Check your connection, then reload the page.');
  const result = await stripe.handleNextAction({ clientSecret });
  if (result.error) throw new Error(result.error.message ?? 'Your payment could not be authenticated.');
}

export interface StripePaymentFormProps {
  publishableKey: string;
  checkout: Pick<CheckoutPublic, 'is_payment_required' | 'total_amount' | 'currency' | 'product'>;
  sourceRef: RefObject<ConfirmationTokenSource | null>;
}

function elementsOptions(checkout: StripePaymentFormProps['checkout']): StripeElementsOptions {
  const currency = checkout.currency.toLowerCase();
  const recurring = checkout.product.recurring_interval !== null;
  // A subscription keeps the card for its renewals; nothing due today only saves the card.
  if (!checkout.is_payment_required) return { mode: 'setup', currency };
  return {
    mode: 'payment',
    amount: checkout.total_amount,
    currency,
    setupFutureUsage: recurring ? 'off_session' : undefined,
  };
}

function PaymentElementSource({ sourceRef }: { sourceRef: StripePaymentFormProps['sourceRef'] }) {
  const stripe = useStripe();
  const elements = useElements();
  useEffect(() => {
    if (!stripe || !elements) return;
    sourceRef.current = {
      async createConfirmationToken(buyer) {
        const submitted = await elements.submit();
        if (submitted.error) throw new Error(submitted.error.message ?? 'Check your payment details.');
        const result = await stripe.createConfirmationToken({
          elements,
          params: { payment_method_data: { billing_details: { name: buyer.name, email: buyer.email } } },
        });
        if (result.error) throw new Error(result.error.message ?? 'Your payment details could not be used.');
        return result.confirmationToken.id;
      },
      // 3-D Secure: Stripe.js shows the bank's page; confirm is then asked again.
      async handleNextAction(clientSecret) {
        const result = await stripe.handleNextAction({ clientSecret });
        if (result.error) throw new Error(result.error.message ?? 'Your payment could not be authenticated.');
      },
    };
    return () => {
      sourceRef.current = null;
    };
  }, [stripe, elements, sourceRef]);
  return <PaymentElement options={{ layout: 'tabs' }} />;
}

export function StripePaymentForm({ publishableKey, checkout, sourceRef }: StripePaymentFormProps) {
  const [stripe, setStripe] = useState<Stripe | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    stripeFor(publishableKey).then(
      (loaded) => {
        if (!current) return;
        if (loaded) setStripe(loaded);
        else setFailed(true);
      },
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [publishableKey]);

  if (failed)
    return (
      <Alert tone="error" title="The card form could not be loaded.">
        Check your connection, then reload the page.
      </Alert>
    );
  if (!stripe) return <Loading label="Loading the card form…" />;
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-semibold text-slate-900">Payment details</legend>
      <Elements stripe={stripe} options={elementsOptions(checkout)}>
        <PaymentElementSource sourceRef={sourceRef} />
      </Elements>
    </fieldset>
  );
}
