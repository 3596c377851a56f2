import { ApiError } from '../../../platform/http/errors.js';

/** The reference's errors of `POST /v1/customer-portal/orders/{id}/confirm-payment`; the class name is the wire `error`. */
export class OrderNotEligibleForRetry extends ApiError {
  readonly status = 422;
  constructor(orderId: string) {
    super(`Order ${orderId} is not eligible for a payment retry.`);
  }
}

export class PaymentAlreadyInProgress extends ApiError {
  readonly status = 409;
  constructor(orderId: string) {
    super(`A payment is already in progress for order ${orderId}.`);
  }
}
