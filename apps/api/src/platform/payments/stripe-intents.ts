import type Stripe from 'stripe';
import type { CardDetails, ChargeResult, CheckoutChargeResult, PaymentMethodSetupResult } from './processor.js';

/**
 * What the Stripe adapter reads from Stripe's objects (PaymentIntents, SetupIntents, payment methods),
 * apart from the client: pure functions of the objects' shapes, so that the webhook handling and a
 * start without STRIPE_SECRET_KEY do not load the Stripe library to use them.
 */

/** Metadata key of the Tessera customer id on Stripe customers. */
export const CUSTOMER_METADATA_KEY = 'tessera_customer_id';

/** Metadata key of the idempotency key on PaymentIntents and SetupIntents (found again by it). */
export const IDEMPOTENCY_METADATA_KEY = 'tessera_idempotency_key';

export type StripePaymentMethod = Stripe.PaymentMethod;

export function cardOf(method: string | StripePaymentMethod | null | undefined): CardDetails | null {
  if (!method || typeof method === 'string' || !method.card) return null;
  return {
    brand: method.card.brand,
    last4: method.card.last4,
    exp_month: method.card.exp_month,
    exp_year: method.card.exp_year,
  };
}

export const methodId = (method: string | StripePaymentMethod | null | undefined): string | null =>
  !method ? null : typeof method === 'string' ? method : method.id;

export const UNKNOWN_CARD: CardDetails = { brand: 'unknown', last4: '', exp_month: 0, exp_year: 0 };

export function failedCharge(intent: Stripe.PaymentIntent): ChargeResult {
  const lastError = intent.last_payment_error;
  const authentication = intent.status === 'requires_action';
  return {
    status: 'failed',
    processorPaymentId: intent.id,
    declineReason: authentication
      ? 'authentication_required'
      : (lastError?.decline_code ?? lastError?.code ?? `payment_intent_${intent.status}`),
    declineMessage: authentication
      ? 'Your card requires authentication.'
      : (lastError?.message ?? 'The payment could not be completed.'),
    card: cardOf(intent.payment_method) ?? cardOf(lastError?.payment_method),
  };
}

export function chargeResult(intent: Stripe.PaymentIntent, saved: boolean): ChargeResult {
  if (intent.status !== 'succeeded') return failedCharge(intent);
  return {
    status: 'succeeded',
    processorPaymentId: intent.id,
    card: cardOf(intent.payment_method) ?? UNKNOWN_CARD,
    paymentMethodId: saved ? methodId(intent.payment_method) : null,
  };
}

/**
 * A PaymentIntent confirmed on the checkout page: besides succeeded and failed, it may wait for the
 * buyer's authentication (`requires_action`: 3-D Secure, completed by Stripe.js with the client secret)
 * or for the bank (`processing`). Also reads the PaymentIntent of a webhook event.
 */
export function checkoutChargeResult(intent: Stripe.PaymentIntent, saved: boolean): CheckoutChargeResult {
  const card = cardOf(intent.payment_method);
  if (intent.status === 'requires_action' && intent.client_secret) {
    return { status: 'requires_action', processorPaymentId: intent.id, clientSecret: intent.client_secret, card };
  }
  if (intent.status === 'processing') return { status: 'processing', processorPaymentId: intent.id, card };
  return chargeResult(intent, saved);
}

/** A SetupIntent of the portal: saved, waiting for the customer's authentication, or refused. */
export function setupResult(intent: Stripe.SetupIntent): PaymentMethodSetupResult {
  const paymentMethodId = methodId(intent.payment_method);
  if (intent.status === 'succeeded' && paymentMethodId)
    return { status: 'succeeded', paymentMethodId, card: cardOf(intent.payment_method) ?? UNKNOWN_CARD };
  if (intent.status === 'requires_action' && intent.client_secret)
    return { status: 'requires_action', processorSetupId: intent.id, clientSecret: intent.client_secret };
  const lastError = intent.last_setup_error;
  return {
    status: 'failed',
    declineReason: lastError?.decline_code ?? lastError?.code ?? `setup_intent_${intent.status}`,
    declineMessage: lastError?.message ?? 'The card could not be saved.',
  };
}
