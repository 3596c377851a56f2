import { ApiError } from '../../platform/http/errors.js';

/** The refund errors of the reference; each class name is the wire `error`. */
export class RefundedAlready extends ApiError {
  readonly status = 403;
  constructor(orderId: string) {
    super(`Order is already fully refunded: ${orderId}`);
  }
}

export class RefundAmountTooHigh extends ApiError {
  readonly status = 400;
  constructor(refundable: number) {
    super(`Refund amount exceeds remaining order balance: ${refundable}`);
  }
}

export class RevokeSubscriptionBenefitsProhibited extends ApiError {
  readonly status = 400;
  constructor() {
    super('Subscription benefits can only be revoked upon cancellation');
  }
}

/** A paid order with no payment the processor could refund (nor a credit balance part to give back). */
export class RefundUnknownPayment extends ApiError {
  readonly status = 404;
  constructor(orderId: string) {
    super(`No payment to refund was found for order ${orderId}.`);
  }
}
