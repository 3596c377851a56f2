import type { Executor } from '../db/database.js';

/**
 * The payment processor behind checkouts, renewals and refunds. Tessera ships a simulated card processor
 * (the default outside production) and a Stripe adapter (when STRIPE_SECRET_KEY is set). Card numbers
 * never reach Tessera's database: the browser turns a card into a confirmation token at the processor,
 * and only brand, last four digits and expiry come back.
 *
 * Every call that moves money takes an idempotency key, so a retry after a crash never charges twice.
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

export type SetupResult =
  | { status: 'succeeded'; paymentMethodId: string; card: CardDetails }
  | { status: 'failed'; declineReason: string; declineMessage: string };

export type RefundResult =
  | { status: 'succeeded'; processorRefundId: string }
  | { status: 'pending'; processorRefundId: string }
  | { status: 'failed'; processorRefundId: string | null; failureReason: string };

export interface PaymentProcessor {
  readonly name: 'simulated' | 'stripe';

  /**
   * The same processor writing its own state through `db` (the request's transaction). Processors with
   * state in Tessera's database (the simulated one) implement it; the Context already holds the bound
   * processor, so services never call it.
   */
  withExecutor?(db: Executor): PaymentProcessor;

  /** Charges a confirmation token from the checkout form now; `savePaymentMethod` keeps it for renewals. */
  chargeWithConfirmationToken(input: {
    amount: number;
    currency: string;
    confirmationTokenId: string;
    customer: ProcessorCustomerInput;
    savePaymentMethod: boolean;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<ChargeResult>;

  /** Saves the method without charging (a free recurring price, a trial). */
  setupWithConfirmationToken(input: {
    confirmationTokenId: string;
    customer: ProcessorCustomerInput;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<SetupResult>;

  /** Charges a saved method off-session (renewals, dunning retries). */
  chargeSavedPaymentMethod(input: {
    amount: number;
    currency: string;
    paymentMethodId: string;
    customer: ProcessorCustomerInput;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<ChargeResult>;

  /** Refunds part or all of a succeeded payment. */
  refund(input: {
    processorPaymentId: string;
    amount: number;
    idempotencyKey: string;
    reason: string;
  }): Promise<RefundResult>;
}
