import type { StripeElementsOptions } from '@stripe/stripe-js';
import type { CheckoutPublic } from '@tessera/sdk';
import type { RefObject } from 'react';
import { StripeElementsForm } from '../../../components/payments/stripe-elements-form';
import type { ConfirmationTokenSource } from '../logic/payment';

/**
 * Stripe's Payment Element for a checkout. This module (and Stripe.js with it) is loaded only when the
 * checkout's processor is Stripe; it turns what the buyer enters into a Stripe confirmation token for
 * confirm.
 */

export { handleStripeNextAction } from '../../../lib/payments/stripe';

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

export function StripePaymentForm({ publishableKey, checkout, sourceRef }: StripePaymentFormProps) {
  return (
    <StripeElementsForm
      publishableKey={publishableKey}
      options={elementsOptions(checkout)}
      sourceRef={sourceRef}
      legend="Payment details"
    />
  );
}
