import { calculateTax, type TaxDetails, type TaxRules } from '../modules/billing/billing.tax.js';

/**
 * Sales tax on checkouts and orders (docs/tax.md). The reference computes tax with Stripe Tax on the
 * net amount once the billing country is known; until then `tax_amount` is null. A self-hosted seller
 * is their own merchant: by default the tax is computed from the rates the organization registered
 * (`modules/billing/billing.tax.ts`, no network), and an organization that opts in has Stripe Tax
 * compute it instead (`platform/stripe-tax.ts`, same interface) when Stripe is configured. A calculator
 * that fails makes confirm answer 422 at `customer_billing_address`, as the reference does; create and
 * update swallow the failure.
 */
export interface TaxInput {
  /** The taxable amount (net of discounts), in minor units; gross when the rules include tax. */
  amount: number;
  currency: string;
  /** ISO 3166-1 alpha-2 billing country, null when not known yet. */
  country: string | null;
  state: string | null;
  postalCode: string | null;
  /** `[value, format]` of a business customer's tax id (reverse charge). */
  taxId: readonly [string, string] | null;
  productId: string;
  /** false for a product exempt from tax. */
  taxable?: boolean;
  /** The organization's settings and registrations, as they are now (a renewal reads today's rates). */
  rules?: TaxRules;
}

export type TaxResult =
  | { status: 'unknown' }
  | { status: 'calculated'; amount: number; details?: TaxDetails }
  /** `unavailable`: the calculator could not be reached (network, outage), not a refusal of the question. */
  | { status: 'failed'; message: string; unavailable?: boolean };

export interface TaxCalculator {
  readonly name: string;
  calculate(input: TaxInput): Promise<TaxResult>;
}

export type { TaxDetails, TaxRules } from '../modules/billing/billing.tax.js';

/** No rules: the organization registered nowhere, so nothing is collected. */
export const NO_TAX_RULES: TaxRules = { pricesIncludeTax: false, homeCountry: null, registrations: [] };

/** The organization's own rates: unknown until the billing country is, then what its registrations say. */
export const registrationsTaxCalculator: TaxCalculator = {
  name: 'registrations',
  calculate(input) {
    const answer = calculateTax(input.rules ?? NO_TAX_RULES, {
      amount: input.amount,
      country: input.country,
      state: input.state,
      taxId: input.taxId,
      taxable: input.taxable ?? true,
    });
    return Promise.resolve(
      answer.status === 'unknown'
        ? answer
        : { status: 'calculated', amount: answer.details.tax_amount, details: answer.details },
    );
  },
};

/**
 * The calculator that runs inside a database transaction: the organization's registrations (no network
 * call). The Stripe Tax adapter is asked only where no transaction is open (docs/tax.md).
 */
export function taxCalculator(): TaxCalculator {
  return registrationsTaxCalculator;
}
