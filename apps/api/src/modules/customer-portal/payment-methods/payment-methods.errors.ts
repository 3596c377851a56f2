import { PaymentError } from '../../checkouts/checkouts.errors.js';

/** The processor refused to save the card (declined, failed authentication): 400 `PaymentError`. */
export class PaymentMethodRefused extends PaymentError {
  constructor(message: string | null) {
    super(null);
    this.message = message
      ? `The payment method could not be saved: ${message} Please try again with a different payment method.`
      : 'The payment method could not be saved. Please try again with a different payment method.';
  }

  override body(): Record<string, unknown> {
    return { error: 'PaymentError', detail: this.message };
  }
}

/** The processor's answer was lost: nothing was charged, and the customer may add the card again. */
export class PaymentMethodNotConfirmed extends PaymentError {
  constructor() {
    super(null);
    this.message = 'The payment method could not be confirmed with the payment processor. Please try again.';
  }

  override body(): Record<string, unknown> {
    return { error: 'PaymentError', detail: this.message };
  }
}
