import { forEachConcurrently } from '../jobs/concurrently.js';

/**
 * The payment processor behind checkouts, renewals and refunds. Tessera ships a simulated card processor
 * (the default outside production) and a Stripe adapter (when STRIPE_SECRET_KEY is set). Card numbers
 * never reach Tessera's database: the browser turns a card into a confirmation token at the processor,
 * and only brand, last four digits and expiry come back.
 *
 * Every call that moves money takes an idempotency key, so a retry after a crash never charges twice.
 * Callers never hold a database transaction open while they call it: it is a remote service (the
 * simulated one included, which writes its state in short transactions of its own).
 */
export interface CardDetails {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

/** The processor's own customer record for a Tessera customer (created on first use). */
export interface ProcessorCustomerInput {
  /** Tessera customer id; adapters keep the mapping (e.g. in Stripe customer metadata). */
  customerId: string;
  email: string;
  name: string | null;
}

/** An off-session charge of a saved method. */
export interface SavedMethodCharge {
  amount: number;
  currency: string;
  paymentMethodId: string;
  customer: ProcessorCustomerInput;
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export type ChargeResult =
  | {
      status: 'succeeded';
      /** The processor's id of this payment (PaymentIntent id for Stripe). */
      processorPaymentId: string;
      card: CardDetails;
      /** Present when the method was saved for off-session use (renewals). */
      paymentMethodId: string | null;
    }
  | {
      status: 'failed';
      processorPaymentId: string | null;
      /** Machine-readable reason, as Stripe's decline codes: card_declined, insufficient_funds, … */
      declineReason: string;
      /** Human-readable message to show the buyer. */
      declineMessage: string;
      card: CardDetails | null;
    };

/**
 * A charge on the checkout page may also wait for the buyer (3-D Secure: the page completes the
 * processor's next action with the client secret) or for the processor (`processing`: settled later by
 * a webhook or by asking again).
 */
export type CheckoutChargeResult =
  | ChargeResult
  | {
      status: 'requires_action';
      processorPaymentId: string;
      /** The secret the page hands to the processor's script to complete the authentication. Never logged. */
      clientSecret: string;
      card: CardDetails | null;
    }
  | { status: 'processing'; processorPaymentId: string; card: CardDetails | null };

export type RetrievedCharge = CheckoutChargeResult | { status: 'not_found' };

export type SetupResult =
  | { status: 'succeeded'; paymentMethodId: string; card: CardDetails }
  | { status: 'failed'; declineReason: string; declineMessage: string };

export type RetrievedSetup = SetupResult | { status: 'not_found' };

/**
 * A method the customer saves in the portal: saved, refused, or waiting for the customer's
 * authentication (3-D Secure: the page completes it with the client secret, then the setup is asked again).
 */
export type PaymentMethodSetupResult =
  | SetupResult
  | {
      status: 'requires_action';
      /** The processor's id of the setup (SetupIntent id for Stripe). */
      processorSetupId: string;
      /** The secret the page hands to the processor's script. Never logged. */
      clientSecret: string;
    };

export type RefundResult =
  | { status: 'succeeded'; processorRefundId: string }
  | { status: 'pending'; processorRefundId: string }
  | { status: 'failed'; processorRefundId: string | null; failureReason: string };

export interface PaymentProcessor {
  readonly name: 'simulated' | 'stripe';

  /**
   * Charges a confirmation token from the checkout form now; `savePaymentMethod` keeps it for renewals.
   * `metadata` is searchable at the processor (the idempotency key is added to it by adapters).
   */
  chargeWithConfirmationToken(input: {
    amount: number;
    currency: string;
    confirmationTokenId: string;
    customer: ProcessorCustomerInput;
    savePaymentMethod: boolean;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<CheckoutChargeResult>;

  /**
   * The outcome, as it stands now, of a charge made with `chargeWithConfirmationToken`: by the
   * processor's id when known, else by the idempotency key it was made with. `not_found`: the processor
   * never received it (the call may then be made again with the same key).
   */
  retrieveCharge(input: {
    idempotencyKey: string;
    processorPaymentId: string | null;
    customer: ProcessorCustomerInput;
    savePaymentMethod: boolean;
  }): Promise<RetrievedCharge>;

  /** The outcome of a setup made with `setupWithConfirmationToken` and this idempotency key. */
  retrieveSetup(input: { idempotencyKey: string; customer: ProcessorCustomerInput }): Promise<RetrievedSetup>;

  /** Saves the method without charging (a free recurring price, a trial). */
  setupWithConfirmationToken(input: {
    confirmationTokenId: string;
    customer: ProcessorCustomerInput;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<SetupResult>;

  /** Charges a saved method off-session (renewals, dunning retries). */
  chargeSavedPaymentMethod(input: SavedMethodCharge): Promise<ChargeResult>;

  /**
   * Charges several saved methods off-session (a billing run's group), each as `chargeSavedPaymentMethod`
   * charges one: its own idempotency key and its own answer, or the error that call would have thrown, in
   * the order of `inputs`. A processor whose API takes one charge a call makes the calls a few at a time
   * (`chargeEachOf`).
   */
  chargeSavedPaymentMethods(inputs: readonly SavedMethodCharge[]): Promise<(ChargeResult | Error)[]>;

  /**
   * Saves a confirmation token's method for off-session charges without charging (a customer adds a
   * card in the portal). Unlike `setupWithConfirmationToken`, the setup may wait for the customer's
   * authentication; `returnUrl` is where a redirecting method comes back to.
   */
  setupPaymentMethod(input: {
    confirmationTokenId: string;
    customer: ProcessorCustomerInput;
    idempotencyKey: string;
    returnUrl: string;
    metadata: Record<string, string>;
  }): Promise<PaymentMethodSetupResult>;

  /** A setup made with `setupPaymentMethod`, as it stands now (after the customer's authentication). */
  retrievePaymentMethodSetup(input: {
    processorSetupId: string;
    customer: ProcessorCustomerInput;
  }): Promise<PaymentMethodSetupResult | { status: 'not_found' }>;

  /**
   * Closes a dispute the seller accepts: no evidence will be submitted, and the processor settles it as
   * lost (Stripe's `POST /v1/disputes/{id}/close`). Closing a closed one again is harmless.
   */
  closeDispute(input: {
    processor: 'simulated' | 'stripe';
    processorDisputeId: string;
    idempotencyKey: string;
  }): Promise<{ status: 'lost' }>;
  /** Detaches a saved method from the customer: it is never charged again. Detaching twice is harmless. */
  detachPaymentMethod(input: { paymentMethodId: string; customer: ProcessorCustomerInput }): Promise<void>;

  /** Refunds part or all of a succeeded payment. */
  refund(input: {
    processorPaymentId: string;
    amount: number;
    idempotencyKey: string;
    reason: string;
  }): Promise<RefundResult>;
}

/**
 * `chargeSavedPaymentMethods` for a processor that takes one charge a call: at most `limit` calls in flight,
 * each call's answer or error in its input's place.
 */
export async function chargeEachOf(
  processor: Pick<PaymentProcessor, 'chargeSavedPaymentMethod'>,
  inputs: readonly SavedMethodCharge[],
  limit: number,
): Promise<(ChargeResult | Error)[]> {
  const answers: (ChargeResult | Error)[] = new Array(inputs.length);
  await forEachConcurrently([...inputs.keys()], limit, async (index) => {
    try {
      answers[index] = await processor.chargeSavedPaymentMethod(inputs[index]!);
    } catch (error) {
      answers[index] = error instanceof Error ? error : new Error(String(error));
    }
  });
  return answers;
}
