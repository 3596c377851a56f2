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
