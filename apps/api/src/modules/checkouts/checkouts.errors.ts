import { ApiError } from '../../platform/http/errors.js';

/** The checkout errors of the reference; the class name is the wire `error`. */
export class NotOpenCheckout extends ApiError {
  readonly status = 403;
  constructor(id: string, status: string) {
    super(`Checkout ${id} is not open: ${status}`);
  }
}

export class AlreadyActiveSubscriptionError extends ApiError {
  readonly status = 403;
  constructor() {
    super('You already have an active subscription.');
  }
}

export class ExpiredCheckoutError extends ApiError {
  readonly status = 410;
  constructor() {
    super('This checkout session has expired.');
  }
}

export class PaymentError extends ApiError {
  readonly status = 400;
  constructor(message: string | null) {
    super(
      message
        ? `The payment failed: ${message} Please try again with a different payment method.`
        : 'The payment failed. Please try again with a different payment method.',
    );
  }
}

/**
 * The processor's answer was lost (timeout, network) after the attempt was made: the buyer confirms
 * again and the same attempt is asked again, so nothing is charged twice.
 */
export class PaymentNotConfirmed extends PaymentError {
  constructor() {
    super(null);
    this.message =
      'The payment could not be confirmed with the payment processor. Please try again: you will not be charged twice.';
  }

  override body(): Record<string, unknown> {
    return { error: 'PaymentError', detail: this.message };
  }
}
