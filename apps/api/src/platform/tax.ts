/**
 * Sales tax on checkouts and orders. The reference computes tax with Stripe Tax on the net amount once
 * the billing country is known; until then `tax_amount` is null. No external tax service is reachable
 * from a self-hosted install by default, so the built-in calculator answers "unknown" until a billing
 * country is known and 0 afterwards: operators who must collect tax configure real rates (or a Stripe
 * Tax adapter implementing this interface) later. A calculator that fails makes confirm answer 422 at
 * `customer_billing_address`, as the reference does; create and update swallow the failure.
 */
export interface TaxInput {
  /** The taxable amount (net of discounts), in minor units. */
  amount: number;
  currency: string;
  /** ISO 3166-1 alpha-2 billing country, null when not known yet. */
  country: string | null;
  state: string | null;
  postalCode: string | null;
  /** `[value, format]` of a business customer's tax id (reverse charge). */
  taxId: readonly [string, string] | null;
  productId: string;
}

export type TaxResult =
  { status: 'unknown' } | { status: 'calculated'; amount: number } | { status: 'failed'; message: string };

export interface TaxCalculator {
  readonly name: string;
  calculate(input: TaxInput): Promise<TaxResult>;
}

/** The default: no tax service, so no tax; unknown until the billing country is. */
export const builtInTaxCalculator: TaxCalculator = {
  name: 'built-in',
  calculate(input) {
    return Promise.resolve(input.country ? { status: 'calculated', amount: 0 } : { status: 'unknown' });
  },
};

/** The tax calculator of this installation (the Stripe Tax adapter will be chosen here by configuration). */
export function taxCalculator(): TaxCalculator {
  return builtInTaxCalculator;
}
