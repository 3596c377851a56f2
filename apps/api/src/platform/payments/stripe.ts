import Stripe from 'stripe';
import {
  chargeEachOf,
  type ChargeResult,
  type CheckoutChargeResult,
  type PaymentMethodSetupResult,
  type PaymentProcessor,
  type RetrievedCharge,
  type RetrievedSetup,
  type ProcessorCustomerInput,
  type RefundResult,
  type SavedMethodCharge,
  type SetupResult,
} from './processor.js';
import {
  type StripePaymentMethod,
  CUSTOMER_METADATA_KEY,
  IDEMPOTENCY_METADATA_KEY,
  UNKNOWN_CARD,
  cardOf,
  chargeResult,
  failedCharge,
  checkoutChargeResult,
  methodId,
  setupResult,
} from './stripe-intents.js';

/**
 * The Stripe adapter (active when STRIPE_SECRET_KEY is set): PaymentIntents confirmed with the
 * confirmation token the checkout form created, SetupIntents to save a card without charging,
 * off-session PaymentIntents for renewals, refunds. Every call that moves money passes the caller's
 * idempotency key as Stripe's `Idempotency-Key`. Declines come back as failed results with Stripe's
 * decline code and message; anything else (network, authentication, bugs) is thrown.
 */

/**
 * Off-session charges of a billing run's group in flight at once: each waits on Stripe's network round trip,
 * and a run's groups (four at a time) stay well under Stripe's default rate limit (100 calls a second).
 */
const OFF_SESSION_CALLS = 4;

export interface StripeAdapterOptions {
  /** A custom HTTP client (tests inject `Stripe.createFetchHttpClient(fakeFetch)`). */
  httpClient?: ReturnType<typeof Stripe.createFetchHttpClient>;
  maxNetworkRetries?: number;
}

export function createStripeClient(secretKey: string, options: StripeAdapterOptions = {}): Stripe {
  return new Stripe(secretKey, {
    appInfo: { name: 'Tessera' },
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    ...(options.httpClient ? { httpClient: options.httpClient } : {}),
  });
}

/** A Stripe error that is the card's (or the request's) fault: it becomes a failed result. */
function declineOf(error: unknown): { reason: string; message: string; error: Stripe.errors.StripeError } | null {
  if (error instanceof Stripe.errors.StripeCardError) {
    // The issuer's reason when it gives one (insufficient_funds, …); a generic decline is `card_declined`.
    const specific = error.decline_code && error.decline_code !== 'generic_decline' ? error.decline_code : undefined;
    return { reason: specific ?? error.code ?? 'card_declined', message: error.message, error };
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code) {
    // A consumed or unknown confirmation token, a detached payment method, …
    return { reason: error.code, message: error.message, error };
  }
  return null;
}

function failedChargeFromError(error: unknown): ChargeResult {
  const decline = declineOf(error);
  if (!decline) throw error;
  const raw = decline.error as Stripe.errors.StripeError & {
    payment_intent?: Stripe.PaymentIntent;
    payment_method?: StripePaymentMethod;
  };
  return {
    status: 'failed',
    processorPaymentId: raw.payment_intent?.id ?? null,
    declineReason: decline.reason,
    declineMessage: decline.message,
    card: cardOf(raw.payment_method) ?? cardOf(raw.payment_intent?.payment_method),
  };
}

const REFUND_REASONS: Record<string, Stripe.RefundCreateParams.Reason> = {
  duplicate: 'duplicate',
  fraudulent: 'fraudulent',
};

export class StripePaymentProcessor implements PaymentProcessor {
  readonly name = 'stripe' as const;
  /** Tessera customer id → Stripe customer id, for this process's lifetime. */
  private readonly customers = new Map<string, string>();

  constructor(private readonly stripe: Stripe) {}

  /** The Stripe customer of a Tessera customer, created on first use (found again by its metadata). */
  async stripeCustomerId(customer: ProcessorCustomerInput): Promise<string> {
    const cached = this.customers.get(customer.customerId);
    if (cached) return cached;
    const found = await this.stripe.customers.search({
      query: `metadata['${CUSTOMER_METADATA_KEY}']:'${customer.customerId}'`,
      limit: 1,
    });
    let id = found.data[0]?.id;
    if (!id) {
      // The key makes a concurrent or retried first use create one customer, not two.
      const created = await this.stripe.customers.create(
        {
          email: customer.email,
          ...(customer.name ? { name: customer.name } : {}),
          metadata: { [CUSTOMER_METADATA_KEY]: customer.customerId },
        },
        { idempotencyKey: `tessera-customer-${customer.customerId}` },
      );
      id = created.id;
    }
    this.customers.set(customer.customerId, id);
    return id;
  }

  async chargeWithConfirmationToken(
    input: Parameters<PaymentProcessor['chargeWithConfirmationToken']>[0],
  ): Promise<CheckoutChargeResult> {
    const customer = await this.stripeCustomerId(input.customer);
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: input.amount,
          currency: input.currency,
          customer,
          confirm: true,
          confirmation_token: input.confirmationTokenId,
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          ...(input.savePaymentMethod ? { setup_future_usage: 'off_session' as const } : {}),
          metadata: { ...input.metadata, [IDEMPOTENCY_METADATA_KEY]: input.idempotencyKey },
          expand: ['payment_method'],
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return checkoutChargeResult(intent, input.savePaymentMethod);
    } catch (error) {
      return failedChargeFromError(error);
    }
  }

  async setupWithConfirmationToken(
    input: Parameters<PaymentProcessor['setupWithConfirmationToken']>[0],
  ): Promise<SetupResult> {
    const customer = await this.stripeCustomerId(input.customer);
    try {
      const intent = await this.stripe.setupIntents.create(
        {
          customer,
          confirm: true,
          confirmation_token: input.confirmationTokenId,
          usage: 'off_session',
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          metadata: { ...input.metadata, [IDEMPOTENCY_METADATA_KEY]: input.idempotencyKey },
          expand: ['payment_method'],
        },
        { idempotencyKey: input.idempotencyKey },
      );
      const paymentMethodId = methodId(intent.payment_method);
      if (intent.status !== 'succeeded' || !paymentMethodId) {
        const lastError = intent.last_setup_error;
        return {
          status: 'failed',
          declineReason:
            intent.status === 'requires_action'
              ? 'authentication_required'
              : (lastError?.decline_code ?? lastError?.code ?? `setup_intent_${intent.status}`),
          declineMessage: lastError?.message ?? 'The card could not be saved.',
        };
      }
      return { status: 'succeeded', paymentMethodId, card: cardOf(intent.payment_method) ?? UNKNOWN_CARD };
    } catch (error) {
      const decline = declineOf(error);
      if (!decline) throw error;
      return { status: 'failed', declineReason: decline.reason, declineMessage: decline.message };
    }
  }

  /**
   * A SetupIntent confirmed with the portal's confirmation token (as the reference's add payment
   * method), with `return_url` for methods that redirect. 3-D Secure leaves it `requires_action`: the
   * page runs Stripe.js `handleNextAction` with the client secret, then the setup is retrieved.
   */
  async setupPaymentMethod(
    input: Parameters<PaymentProcessor['setupPaymentMethod']>[0],
  ): Promise<PaymentMethodSetupResult> {
    const customer = await this.stripeCustomerId(input.customer);
    try {
      const intent = await this.stripe.setupIntents.create(
        {
          customer,
          confirm: true,
          confirmation_token: input.confirmationTokenId,
          usage: 'off_session',
          automatic_payment_methods: { enabled: true },
          return_url: input.returnUrl,
          metadata: { ...input.metadata, [IDEMPOTENCY_METADATA_KEY]: input.idempotencyKey },
          expand: ['payment_method'],
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return setupResult(intent);
    } catch (error) {
      const decline = declineOf(error);
      if (!decline) throw error;
      return { status: 'failed', declineReason: decline.reason, declineMessage: decline.message };
    }
  }

  async retrievePaymentMethodSetup(
    input: Parameters<PaymentProcessor['retrievePaymentMethodSetup']>[0],
  ): Promise<PaymentMethodSetupResult | { status: 'not_found' }> {
    const customer = await this.stripeCustomerId(input.customer);
    try {
      const intent = await this.stripe.setupIntents.retrieve(input.processorSetupId, { expand: ['payment_method'] });
      // Another customer's setup is not this customer's to finish.
      if ((typeof intent.customer === 'string' ? intent.customer : intent.customer?.id) !== customer)
        return { status: 'not_found' };
      return setupResult(intent);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing')
        return { status: 'not_found' };
      throw error;
    }
  }

  async closeDispute(input: Parameters<PaymentProcessor['closeDispute']>[0]): Promise<{ status: 'lost' }> {
    try {
      await this.stripe.disputes.close(input.processorDisputeId, {}, { idempotencyKey: input.idempotencyKey });
    } catch (error) {
      // Closed already (by the dashboard, or an earlier attempt whose answer was lost): the outcome holds.
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
    }
    return { status: 'lost' };
  }

  async detachPaymentMethod(input: Parameters<PaymentProcessor['detachPaymentMethod']>[0]): Promise<void> {
    try {
      await this.stripe.paymentMethods.detach(input.paymentMethodId);
    } catch (error) {
      // Detached already (or never attached): the outcome asked for holds.
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'payment_method_unexpected_state')
        return;
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') return;
      throw error;
    }
  }

  /** One PaymentIntent a charge (Stripe has no batch call), `OFF_SESSION_CALLS` at a time. */
  chargeSavedPaymentMethods(inputs: readonly SavedMethodCharge[]): Promise<(ChargeResult | Error)[]> {
    return chargeEachOf(this, inputs, OFF_SESSION_CALLS);
  }

  async chargeSavedPaymentMethod(input: SavedMethodCharge): Promise<ChargeResult> {
    const customer = await this.stripeCustomerId(input.customer);
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: input.amount,
          currency: input.currency,
          customer,
          payment_method: input.paymentMethodId,
          off_session: true,
          confirm: true,
          metadata: input.metadata,
          expand: ['payment_method'],
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return chargeResult(intent, true);
    } catch (error) {
      return failedChargeFromError(error);
    }
  }

  /**
   * A checkout charge as it stands now: the PaymentIntent by id, else found by the idempotency key in its
   * metadata (Stripe's search; an intent created moments ago may not be indexed yet, and making the call
   * again with the same idempotency key is then safe).
   */
  async retrieveCharge(input: Parameters<PaymentProcessor['retrieveCharge']>[0]): Promise<RetrievedCharge> {
    let intent: Stripe.PaymentIntent | undefined;
    if (input.processorPaymentId) {
      intent = await this.stripe.paymentIntents.retrieve(input.processorPaymentId, { expand: ['payment_method'] });
    } else {
      const found = await this.stripe.paymentIntents.search({
        query: `metadata['${IDEMPOTENCY_METADATA_KEY}']:'${input.idempotencyKey}'`,
        limit: 1,
        expand: ['data.payment_method'],
      });
      intent = found.data[0];
    }
    if (!intent) return { status: 'not_found' };
    if (intent.status === 'requires_payment_method' && intent.last_payment_error) return failedCharge(intent);
    return checkoutChargeResult(intent, input.savePaymentMethod);
  }

  /** A setup by the idempotency key in its metadata, among the customer's SetupIntents. */
  async retrieveSetup(input: Parameters<PaymentProcessor['retrieveSetup']>[0]): Promise<RetrievedSetup> {
    const customer = await this.stripeCustomerId(input.customer);
    const list = await this.stripe.setupIntents.list({ customer, limit: 100, expand: ['data.payment_method'] });
    const intent = list.data.find(
      (candidate) => candidate.metadata?.[IDEMPOTENCY_METADATA_KEY] === input.idempotencyKey,
    );
    if (!intent) return { status: 'not_found' };
    const paymentMethodId = methodId(intent.payment_method);
    if (intent.status === 'succeeded' && paymentMethodId) {
      return { status: 'succeeded', paymentMethodId, card: cardOf(intent.payment_method) ?? UNKNOWN_CARD };
    }
    return {
      status: 'failed',
      declineReason: intent.last_setup_error?.code ?? `setup_intent_${intent.status}`,
      declineMessage: intent.last_setup_error?.message ?? 'The card could not be saved.',
    };
  }

  async refund(input: Parameters<PaymentProcessor['refund']>[0]): Promise<RefundResult> {
    try {
      const refund = await this.stripe.refunds.create(
        {
          payment_intent: input.processorPaymentId,
          amount: input.amount,
          reason: REFUND_REASONS[input.reason] ?? 'requested_by_customer',
          metadata: { reason: input.reason },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      switch (refund.status) {
        case 'succeeded':
          return { status: 'succeeded', processorRefundId: refund.id };
        case 'failed':
        case 'canceled':
          return {
            status: 'failed',
            processorRefundId: refund.id,
            failureReason: refund.failure_reason ?? refund.status,
          };
        default:
          return { status: 'pending', processorRefundId: refund.id };
      }
    } catch (error) {
      const decline = declineOf(error);
      if (!decline) throw error;
      return { status: 'failed', processorRefundId: null, failureReason: decline.reason };
    }
  }
}

/**
 * Verifies a Stripe webhook (the `Stripe-Signature` header over the raw body, with the endpoint's
 * signing secret) and returns the event; throws `Stripe.errors.StripeSignatureVerificationError`.
 */
export function verifyStripeWebhook(payload: string | Buffer, signatureHeader: string, secret: string): Stripe.Event {
  return Stripe.webhooks.constructEvent(payload, signatureHeader, secret);
}
