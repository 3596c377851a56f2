import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeElementsOptions } from '@stripe/stripe-js';
import { useEffect, useState, type RefObject } from 'react';
import type { ConfirmationTokenSource } from '../../lib/payments/source';
import { stripeFor } from '../../lib/payments/stripe';
import { Alert } from '../ui/alert';
import { Loading } from '../ui/spinner';

/**
 * Stripe's Payment Element, shared by the checkout (a payment) and the portal (a card saved for later).
 * This module, and Stripe.js with it, is loaded only where the processor is Stripe; it turns what the
 * person enters into a Stripe confirmation token, and completes 3-D Secure when the bank asks.
 */

function PaymentElementSource({ sourceRef }: { sourceRef: RefObject<ConfirmationTokenSource | null> }) {
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
      // 3-D Secure: Stripe.js shows the bank's page; the caller then asks the API again.
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

export interface StripeElementsFormProps {
  publishableKey: string;
  options: StripeElementsOptions;
  sourceRef: RefObject<ConfirmationTokenSource | null>;
  legend: string;
}

export function StripeElementsForm({ publishableKey, options, sourceRef, legend }: StripeElementsFormProps) {
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
      <legend className="mb-2 text-sm font-semibold text-slate-900">{legend}</legend>
      <Elements stripe={stripe} options={options}>
        <PaymentElementSource sourceRef={sourceRef} />
      </Elements>
    </fieldset>
  );
}
