/**
 * Tax, as pure functions of the seller's rules and the buyer's billing address (docs/tax.md). Every
 * checkout, renewal and proration order is taxed here when the organization uses its own rates; the
 * Stripe Tax adapter answers the same shape.
 *
 * Rules:
 * - The taxable amount is what the buyer pays before tax: the lines after the discount (`net`).
 * - The jurisdiction is the billing address: a registration for the address's state (US, CA) wins over
 *   one for the whole country; no registration for the place → 0 tax (the seller does not collect there).
 * - Rounding, in integer minor units: the order's tax is computed once on its total taxable amount and
 *   rounded half up (a half goes away from zero); the lines' shares of it are then allocated by largest
 *   remainder, so the lines always add up to the order's tax exactly and no cent drifts.
 * - Prices that include tax: the taxable amount is gross; net = round_half_up(gross × 10000 / (10000 +
 *   rate)) and tax = gross − net, so net + tax is exactly what the buyer was shown.
 * - EU reverse charge: a buyer in a member state with a valid EU VAT id of that member state (its prefix
 *   the billing country's, checked where ids are taken) other than the seller's home country pays no
 *   VAT; the order carries the reverse charge note for the invoice. A VAT id of the seller's own country
 *   is taxed as usual, wherever the address is.
 * - An exempt product, or an order with nothing to pay, is taxed 0.
 */

import { euVatIdCountry } from '../../platform/http/tax-ids.js';

/** The 27 member states (Greece as GR: billing addresses use ISO codes, not the VIES prefix EL). */
export const EU_MEMBER_STATES: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU',
  'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE',
]); // prettier-ignore

export const REVERSE_CHARGE_NOTE =
  'Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC).';

/** Countries whose registrations may name a state or province. */
export const COUNTRIES_WITH_STATES: ReadonlySet<string> = new Set(['US', 'CA']);

export interface TaxRegistrationRule {
  country: string;
  /** ISO 3166-2 (`US-CA`), or null for the whole country. */
  state: string | null;
  rate_basis_points: number;
  label: string;
}

export interface TaxRules {
  pricesIncludeTax: boolean;
  /** The seller's own country (no reverse charge for a buyer's VAT id of it); null when not set. */
  homeCountry: string | null;
  registrations: readonly TaxRegistrationRule[];
}

export interface TaxQuestion {
  /** The taxable amount (after discounts), in minor units; gross when prices include tax. */
  amount: number;
  country: string | null;
  state: string | null;
  /** `[value, format]` of the buyer's validated tax id. */
  taxId: readonly [string, string] | null;
  /** false for a product exempt from tax. */
  taxable: boolean;
}

/** What an order or checkout keeps of its calculation (invoices, refunds and the report read it). */
export interface TaxDetails {
  provider: 'registrations' | 'stripe_tax';
  country: string;
  state: string | null;
  /** The rate applied, basis points (0 when not collected, exempt or reverse charged). */
  rate_basis_points: number;
  label: string | null;
  /** The amount the tax is on, excluding tax. */
  taxable_amount: number;
  tax_amount: number;
  inclusive: boolean;
  reverse_charge: boolean;
  /** A line the invoice prints (the reverse charge mention). */
  note: string | null;
  /** Stripe Tax's calculation and, once the order is paid, its transaction. */
  calculation_id?: string | null;
  transaction_id?: string | null;
  /** What a remote calculation answered (checkout: kept while the question is the same). */
  fingerprint?: string;
  /** The tax of a net credit, carried to the balance (`creditTax`); its amounts are negative. */
  credit?: boolean;
}

export type TaxAnswer = { status: 'unknown' } | { status: 'calculated'; details: TaxDetails };

/** `value × numerator / denominator` rounded half up (away from zero), exactly, in integers. */
export function roundHalfUp(value: number, numerator: number, denominator: number): number {
  const product = BigInt(value) * BigInt(numerator);
  const d = BigInt(denominator);
  const negative = product < 0n;
  const magnitude = negative ? -product : product;
  const rounded = (magnitude * 2n + d) / (2n * d);
  return Number(negative ? -rounded : rounded);
}

/** The registration for a place: its state's, else its country's, else none. */
export function findRegistration(
  registrations: readonly TaxRegistrationRule[],
  country: string,
  state: string | null,
): TaxRegistrationRule | null {
  const ofCountry = registrations.filter((registration) => registration.country === country);
  return (
    (state ? ofCountry.find((registration) => registration.state === state) : undefined) ??
    ofCountry.find((registration) => registration.state === null) ??
    null
  );
}

/**
 * Whether a buyer's tax id makes this an intra-EU business sale the buyer accounts for. Decided by the
 * VAT id's own country (its prefix), which must be the billing address's: an id of the seller's home
 * country is taxed as usual wherever the buyer is, and an id of another country than the address's
 * (stored before ids were checked against it) proves nothing, so it is taxed too.
 */
export function isReverseCharge(
  homeCountry: string | null,
  country: string,
  taxId: readonly [string, string] | null,
): boolean {
  if (!taxId || taxId[1] !== 'eu_vat' || !EU_MEMBER_STATES.has(country)) return false;
  const idCountry = euVatIdCountry(taxId[0]);
  return idCountry === country && idCountry !== homeCountry;
}

/** Splits a gross amount into net + tax at a rate (prices that include tax). */
export function splitInclusive(gross: number, rateBasisPoints: number): { net: number; tax: number } {
  const net = roundHalfUp(gross, 10_000, 10_000 + rateBasisPoints);
  return { net, tax: gross - net };
}

/** Tax on an amount excluding tax. */
export function taxExclusive(amount: number, rateBasisPoints: number): number {
  return roundHalfUp(amount, rateBasisPoints, 10_000);
}

/**
 * The tax of one checkout or order. Unknown until the billing country is; otherwise the details of what
 * applies (a 0 rate when the seller is not registered there, the product is exempt, nothing is to be
 * paid, or the buyer reverse-charges).
 */
export function calculateTax(rules: TaxRules, question: TaxQuestion): TaxAnswer {
  if (!question.country) return { status: 'unknown' };
  const country = question.country;
  const state = question.state;
  const base = {
    provider: 'registrations' as const,
    country,
    state,
    inclusive: rules.pricesIncludeTax,
    reverse_charge: false,
    note: null,
  };
  const untaxed = (label: string | null, extra: Partial<TaxDetails> = {}): TaxAnswer => ({
    status: 'calculated',
    details: {
      ...base,
      rate_basis_points: 0,
      label,
      taxable_amount: question.amount,
      tax_amount: 0,
      ...extra,
    },
  });
  const registration = findRegistration(rules.registrations, country, state);
  if (!question.taxable || question.amount <= 0) return untaxed(registration?.label ?? null);
  if (isReverseCharge(rules.homeCountry, country, question.taxId)) {
    return untaxed(registration?.label ?? 'VAT', { reverse_charge: true, note: REVERSE_CHARGE_NOTE });
  }
  if (!registration) return untaxed(null);
  const rate = registration.rate_basis_points;
  const { net, tax } = rules.pricesIncludeTax
    ? splitInclusive(question.amount, rate)
    : { net: question.amount, tax: taxExclusive(question.amount, rate) };
  return {
    status: 'calculated',
    details: {
      ...base,
      rate_basis_points: rate,
      label: registration.label,
      taxable_amount: net,
      tax_amount: tax,
    },
  };
}

/**
 * Shares of a total over weights, by largest remainder: each share is floor(total × w / Σw), then the
 * cents left go one each to the largest remainders (ties to the earlier line). Only positive weights
 * get a share; the shares always add up to the total.
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  const positive = weights.map((weight) => (weight > 0 ? weight : 0));
  const sum = positive.reduce((a, b) => a + b, 0);
  if (sum === 0 || total === 0) return weights.map(() => 0);
  const exact = positive.map((weight) => (BigInt(total) * BigInt(weight)) / BigInt(sum));
  const remainders = positive.map((weight, index) => ({
    index,
    remainder: (BigInt(total) * BigInt(weight)) % BigInt(sum),
  }));
  let left = total - exact.reduce((a, b) => a + Number(b), 0);
  const shares = exact.map(Number);
  remainders.sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of remainders) {
    if (left <= 0) break;
    if (positive[index]! === 0) continue;
    shares[index]! += 1;
    left -= 1;
  }
  return shares;
}

export interface TaxedLine {
  amount: number;
  tax_amount: number;
}

/**
 * An order's lines with their share of its tax. The shares go to the lines of the tax's sign: a net
 * credit's (negative) tax to its credit lines, an order's tax to its charged lines. With prices that
 * include tax, each line gives up its share (its amount becomes net of tax), so subtotal − discount + tax
 * is still what the buyer was shown; with prices that exclude tax the amounts are unchanged.
 */
export function taxLines<T extends { amount: number }>(
  lines: readonly T[],
  details: Pick<TaxDetails, 'tax_amount' | 'inclusive'> | null,
): (T & TaxedLine)[] {
  const tax = details?.tax_amount ?? 0;
  const sign = tax < 0 ? -1 : 1;
  const shares = allocate(
    tax * sign,
    lines.map((line) => line.amount * sign),
  ).map((share) => (share === 0 ? 0 : share * sign));
  return lines.map((line, index) => ({
    ...line,
    amount: details?.inclusive ? line.amount - shares[index]! : line.amount,
    tax_amount: shares[index]!,
  }));
}

/**
 * The tax of a net credit (an order whose credits exceed the rest): the tax of the same amount charged,
 * negative. It is not a transaction of its own at Stripe Tax (no calculation to record); the order keeps
 * it in its details (`credit: true`) and carries it to the balance with the credit (docs/tax.md).
 */
export function creditTax(details: TaxDetails): TaxDetails {
  return {
    ...details,
    taxable_amount: -details.taxable_amount,
    tax_amount: -details.tax_amount,
    calculation_id: null,
    credit: true,
  };
}

/**
 * How an invoice names an order's tax from its stored details: "VAT (20%)", "Sales tax (7.25%)",
 * "VAT (reverse charge)"; "Tax" when the order has no details (taxed before migration 0026, or nothing
 * taxed). The note is the reverse charge mention, when there is one.
 */
export function invoiceTaxLine(details: unknown): { label: string; note: string | null } {
  const tax = details as Partial<TaxDetails> | null | undefined;
  if (!tax || typeof tax !== 'object') return { label: 'Tax', note: null };
  const name = tax.label ?? 'Tax';
  if (tax.reverse_charge) return { label: `${name} (reverse charge)`, note: tax.note ?? REVERSE_CHARGE_NOTE };
  if (!tax.rate_basis_points) return { label: name, note: tax.note ?? null };
  const percent = (tax.rate_basis_points / 100).toFixed(2).replace(/\.?0+$/, '');
  return { label: `${name} (${percent}%${tax.inclusive ? ', included' : ''})`, note: tax.note ?? null };
}
