import type Stripe from 'stripe';
import { REVERSE_CHARGE_NOTE, type TaxDetails } from '../modules/billing/billing.tax.js';
import type { TaxCalculator, TaxInput, TaxResult } from './tax.js';

/**
 * The Stripe Tax adapter (docs/tax.md): the same `TaxCalculator` interface as the organization's own
 * rates, answered by Stripe's calculations API, for an organization that opted in on an installation
 * with STRIPE_SECRET_KEY. A paid order's calculation becomes a tax transaction (Stripe's record of tax
 * collected, what its reports file); a refund reverses it, fully or by the refunded amount.
 *
 * Every call is a network call: callers make it with no database transaction open (commit what will
 * be done, call, record the outcome in a transaction of its own), as for the payment processor.
 */
export interface StripeTaxTransaction {
  transactionId: string;
}

export interface StripeTaxReversal {
  /** The order's tax transaction. */
  transactionId: string;
  /** Unique per refund: Stripe refuses a second reversal with one reference (idempotent retries). */
  reference: string;
  /** The refund including its tax portion, minor units; the whole remaining transaction when `full`. */
  amountWithTax: number;
  full: boolean;
}

export class StripeTaxCalculator implements TaxCalculator {
  readonly name = 'stripe_tax';

  private readonly client: () => Promise<Stripe>;

  /** `stripe`: the client, or how to get it (the Stripe library loaded at the first question). */
  constructor(
    stripe: Stripe | (() => Promise<Stripe>),
    private readonly options: { inclusive: boolean } = { inclusive: false },
  ) {
    let client: Promise<Stripe> | undefined;
    this.client = () => (client ??= typeof stripe === 'function' ? stripe() : Promise.resolve(stripe));
  }

  /**
   * Unknown until the billing country is; an exempt product is 0 without asking. Stripe errors (an
   * address Stripe cannot locate, a tax id it rejects) come back as `failed` with Stripe's message:
   * confirm answers them at `customer_billing_address`, create and update keep them quiet.
   */
  async calculate(input: TaxInput): Promise<TaxResult> {
    if (!input.country) return { status: 'unknown' };
    if (input.taxable === false || input.amount <= 0) {
      return { status: 'calculated', amount: 0, details: this.zero(input) };
    }
    const stripe = await this.client();
    let calculation: Stripe.Tax.Calculation;
    try {
      calculation = await stripe.tax.calculations.create({
        currency: input.currency,
        line_items: [
          {
            amount: input.amount,
            reference: input.productId,
            tax_behavior: this.options.inclusive ? 'inclusive' : 'exclusive',
          },
        ],
        customer_details: {
          address: {
            country: input.country,
            ...(input.state ? { state: input.state.replace(/^[A-Z]{2}-/, '') } : {}),
            ...(input.postalCode ? { postal_code: input.postalCode } : {}),
          },
          address_source: 'billing',
          ...(input.taxId
            ? {
                tax_ids: [
                  {
                    type: input.taxId[1] as Stripe.Tax.CalculationCreateParams.CustomerDetails.TaxId.Type,
                    value: input.taxId[0],
                  },
                ],
              }
            : {}),
        },
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // Stripe refusing the question (an address it cannot locate, a bad tax id) is an answer; anything
      // else (network, outage, rate limit, credentials) says nothing of the question.
      const refused = (error as { type?: unknown } | null)?.type === 'StripeInvalidRequestError';
      return { status: 'failed', message, ...(refused ? {} : { unavailable: true }) };
    }
    const tax = this.options.inclusive ? calculation.tax_amount_inclusive : calculation.tax_amount_exclusive;
    const breakdown = calculation.tax_breakdown.find((entry) => entry.amount > 0) ?? calculation.tax_breakdown[0];
    const reverseCharge = calculation.tax_breakdown.some((entry) => entry.taxability_reason === 'reverse_charge');
    const rate = breakdown ? Math.round(Number(breakdown.tax_rate_details.percentage_decimal) * 100) : 0;
    const details: TaxDetails = {
      provider: 'stripe_tax',
      country: breakdown?.tax_rate_details.country ?? input.country,
      state: input.state,
      rate_basis_points: tax > 0 ? rate : 0,
      label: breakdown?.tax_rate_details.tax_type ? labelOf(breakdown.tax_rate_details.tax_type) : null,
      taxable_amount: this.options.inclusive ? input.amount - tax : input.amount,
      tax_amount: tax,
      inclusive: this.options.inclusive,
      reverse_charge: reverseCharge,
      note: reverseCharge ? REVERSE_CHARGE_NOTE : null,
      calculation_id: calculation.id ?? null,
      transaction_id: null,
    };
    return { status: 'calculated', amount: tax, details };
  }

  /** Records the tax of a paid order (its reference: the order id, so a retry finds Stripe's refusal). */
  async recordTransaction(calculationId: string, orderId: string): Promise<StripeTaxTransaction> {
    const stripe = await this.client();
    const transaction = await stripe.tax.transactions.createFromCalculation(
      { calculation: calculationId, reference: orderId },
      { idempotencyKey: `tax-transaction-${orderId}` },
    );
    return { transactionId: transaction.id };
  }

  /** Reverses an order's tax transaction for a refund (the refunds module calls it after commit). */
  async reverse(reversal: StripeTaxReversal): Promise<StripeTaxTransaction> {
    const stripe = await this.client();
    const transaction = await stripe.tax.transactions.createReversal(
      reversal.full
        ? { mode: 'full', original_transaction: reversal.transactionId, reference: reversal.reference }
        : {
            mode: 'partial',
            original_transaction: reversal.transactionId,
            reference: reversal.reference,
            // Stripe takes the amount to reverse, tax included, as a negative number.
            flat_amount: -reversal.amountWithTax,
          },
      { idempotencyKey: `tax-reversal-${reversal.reference}` },
    );
    return { transactionId: transaction.id };
  }

  private zero(input: TaxInput): TaxDetails {
    return {
      provider: 'stripe_tax',
      country: input.country!,
      state: input.state,
      rate_basis_points: 0,
      label: null,
      taxable_amount: input.amount,
      tax_amount: 0,
      inclusive: this.options.inclusive,
      reverse_charge: false,
      note: null,
      calculation_id: null,
      transaction_id: null,
    };
  }
}

const LABELS: Record<string, string> = {
  vat: 'VAT',
  gst: 'GST',
  hst: 'HST',
  pst: 'PST',
  qst: 'QST',
  sales_tax: 'Sales tax',
  jct: 'JCT',
};

function labelOf(taxType: string): string {
  return LABELS[taxType] ?? taxType.replace(/_/g, ' ');
}

/** Whether this installation can use Stripe Tax (STRIPE_SECRET_KEY is set). */
export function stripeTaxAvailable(config: { stripeSecretKey: string | undefined }): boolean {
  return Boolean(config.stripeSecretKey);
}

/**
 * The Stripe Tax calculator of this installation, or null without STRIPE_SECRET_KEY (the organization's
 * registrations apply then). One client per call: calculations are rare next to payments.
 */
export function stripeTaxCalculatorFor(
  config: { stripeSecretKey: string | undefined },
  inclusive: boolean,
): StripeTaxCalculator | null {
  if (!stripeTaxAvailable(config)) return null;
  const secretKey = config.stripeSecretKey!;
  return new StripeTaxCalculator(async () => (await import('./payments/stripe.js')).createStripeClient(secretKey), {
    inclusive,
  });
}
