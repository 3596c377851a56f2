import { ApiError } from '../../platform/http/errors.js';

/** The invoice errors of the reference; each class name is the wire `error`. */
export class InvoiceAlreadyExists extends ApiError {
  readonly status = 409;
  constructor(orderId: string) {
    super(`An invoice already exists for order ${orderId}.`);
  }
}

export class NotPaidOrder extends ApiError {
  readonly status = 422;
  constructor(orderId: string) {
    super(`Order ${orderId} is not paid, so an invoice cannot be generated.`);
  }
}

export class MissingInvoiceBillingDetails extends ApiError {
  readonly status = 422;
  constructor() {
    super('Billing name and address are required to generate an invoice for this order.');
  }
}

export class InvoiceDoesNotExist extends ApiError {
  readonly status = 404;
  constructor(orderId: string) {
    super(`No invoice exists for order ${orderId}.`);
  }
}

/** A caller of `createOrder` broke an invariant (a programming error, never a client's). */
export class OrderInvariantError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OrderInvariantError';
  }
}
