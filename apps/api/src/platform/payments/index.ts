import type { Config } from '../../config.js';
import type { Clock } from '../clock.js';
import type { Executor } from '../db/database.js';
import type { PaymentProcessor } from './processor.js';
import { SimulatedPaymentProcessor } from './simulated.js';
import type { StripeAdapterOptions } from './stripe.js';

export type { PaymentProcessor } from './processor.js';

/** Thrown by every call when no processor is configured. */
export class PaymentProcessorUnavailable extends Error {
  constructor() {
    super(
      'No payment processor is configured: set STRIPE_SECRET_KEY, or ALLOW_SIMULATED_PAYMENTS=true to use the ' +
        'simulated card processor in production.',
    );
    this.name = 'PaymentProcessorUnavailable';
  }
}

/** Production without Stripe and without the simulated processor: every payment call refuses clearly. */
export class UnavailablePaymentProcessor implements PaymentProcessor {
  readonly name = 'stripe' as const;
  readonly available = false;
  private refuse(): never {
    throw new PaymentProcessorUnavailable();
  }
  chargeWithConfirmationToken = async (): Promise<never> => this.refuse();
  setupWithConfirmationToken = async (): Promise<never> => this.refuse();
  chargeSavedPaymentMethod = async (): Promise<never> => this.refuse();
  chargeSavedPaymentMethods = async (): Promise<never> => this.refuse();
  retrieveCharge = async (): Promise<never> => this.refuse();
  retrieveSetup = async (): Promise<never> => this.refuse();
  refund = async (): Promise<never> => this.refuse();
  setupPaymentMethod = async (): Promise<never> => this.refuse();
  retrievePaymentMethodSetup = async (): Promise<never> => this.refuse();
  detachPaymentMethod = async (): Promise<never> => this.refuse();
  closeDispute = async (): Promise<never> => this.refuse();
}

export interface PaymentProcessorDeps {
  /** Where the simulated processor keeps its state outside a transaction (the pool). */
  db: Executor;
  clock: Clock;
  stripe?: StripeAdapterOptions;
}

/**
 * The processor of this deployment: Stripe when STRIPE_SECRET_KEY is set, else the simulated card
 * processor when allowed (outside production, or ALLOW_SIMULATED_PAYMENTS=true), else one that refuses.
 * The Stripe library is loaded only when Stripe is the processor (about 3 MB of an idle server's memory).
 */
export async function createPaymentProcessor(config: Config, deps: PaymentProcessorDeps): Promise<PaymentProcessor> {
  if (config.stripeSecretKey) {
    const { createStripeClient, StripePaymentProcessor } = await import('./stripe.js');
    return new StripePaymentProcessor(createStripeClient(config.stripeSecretKey, deps.stripe));
  }
  if (config.allowSimulatedPayments) return new SimulatedPaymentProcessor(deps.db, deps.clock);
  return new UnavailablePaymentProcessor();
}

/**
 * The processor for a Context. Processors keep their own state (the simulated one in short transactions
 * of its own on the pool), so the same instance serves every context; `db` is no longer used.
 */
export function bindPaymentProcessor(processor: PaymentProcessor, _db?: Executor): PaymentProcessor {
  return processor;
}

/** Whether the simulated processor's public routes should be served. */
export function isSimulated(processor: PaymentProcessor): boolean {
  return processor instanceof SimulatedPaymentProcessor;
}
