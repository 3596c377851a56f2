import { invoiceTaxLine } from '../billing/billing.tax.js';
import { formatAmount } from '../webhooks/webhooks.formats.js';

/**
 * What an invoice says, as text, decided in one pure function (table-tested) before any PDF is drawn:
 * who sells, who buys, the number and date, each line, the totals and the notes. The renderer only
 * lays it out.
 */
export interface InvoiceInput {
  invoiceNumber: string;
  /** The invoice's date: the order's. */
  issuedAt: Date;
  seller: { name: string; email: string | null; website: string | null };
  billingName: string;
  billingAddress: InvoiceAddress;
  /** The customer's tax id as stored: `[value, format]`. */
  taxId: unknown;
  currency: string;
  items: { label: string; amount: number; proration: boolean }[];
  subtotalAmount: number;
  discountAmount: number;
  /** The discount's name, when the order has one. */
  discountName: string | null;
  taxAmount: number;
  /** The order's tax details (docs/tax.md): the tax line's name and rate, the reverse charge note. */
  taxDetails?: unknown;
  totalAmount: number;
  appliedBalanceAmount: number;
  refundedAmount: number;
  refundedTaxAmount: number;
  status: string;
}

export interface InvoiceAddress {
  line1?: string | null;
  line2?: string | null;
  postal_code?: string | null;
  city?: string | null;
  state?: string | null;
  country?: string | null;
}

export interface InvoiceLine {
  label: string;
  /** A short note under the label (`Proration`). */
  note: string | null;
  amount: string;
}

export interface InvoiceTotal {
  label: string;
  amount: string;
  emphasis: boolean;
}

export interface InvoiceDocument {
  title: string;
  number: string;
  date: string;
  seller: { name: string; lines: string[] };
  buyer: { name: string; lines: string[] };
  items: InvoiceLine[];
  totals: InvoiceTotal[];
  notes: string[];
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** A country's English name from its ISO code (`US` → `United States`); the code when unknown. */
export function countryName(code: string): string {
  try {
    return regionNames.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** An address as the lines of a letter: street, postal code and city, state, country. */
export function addressLines(address: InvoiceAddress): string[] {
  const clean = (value: string | null | undefined) => (value ?? '').trim();
  const country = clean(address.country).toUpperCase();
  // US-IL and CA-ON are printed as IL and ON, as on an envelope.
  const state = clean(address.state).replace(/^(US|CA)-/, '');
  const cityLine = [clean(address.postal_code), clean(address.city)].filter(Boolean).join(' ');
  return [
    clean(address.line1),
    clean(address.line2),
    [cityLine, state].filter(Boolean).join(', '),
    country ? countryName(country) : '',
  ].filter(Boolean);
}

/** `[value, format]` as `EU VAT DE123456789`; null for anything else. */
export function taxIdLine(taxId: unknown): string | null {
  if (!Array.isArray(taxId) || typeof taxId[0] !== 'string' || taxId[0] === '') return null;
  const format = typeof taxId[1] === 'string' ? taxId[1].replace(/_/g, ' ').toUpperCase() : 'Tax ID';
  return `${format} ${taxId[0]}`;
}

/** The date as `January 15, 2026` (UTC: an invoice's date does not move with the reader). */
export function invoiceDate(at: Date): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(at);
}

export function invoiceDocumentOf(input: InvoiceInput): InvoiceDocument {
  const money = (amount: number) => formatAmount(amount, input.currency);
  const minus = (amount: number) => money(-amount);
  const totals: InvoiceTotal[] = [{ label: 'Subtotal', amount: money(input.subtotalAmount), emphasis: false }];
  if (input.discountAmount > 0) {
    totals.push({
      label: input.discountName ? `Discount (${input.discountName})` : 'Discount',
      amount: minus(input.discountAmount),
      emphasis: false,
    });
  }
  const taxLine = invoiceTaxLine(input.taxDetails ?? null);
  totals.push({ label: taxLine.label, amount: money(input.taxAmount), emphasis: false });
  totals.push({ label: 'Total', amount: money(input.totalAmount), emphasis: true });
  if (input.appliedBalanceAmount > 0) {
    totals.push({ label: 'Paid from credit balance', amount: minus(input.appliedBalanceAmount), emphasis: false });
    totals.push({
      label: 'Charged',
      amount: money(input.totalAmount - input.appliedBalanceAmount),
      emphasis: false,
    });
  }
  const refunded = input.refundedAmount + input.refundedTaxAmount;
  const notes: string[] = [];
  if (refunded > 0) {
    totals.push({ label: 'Refunded', amount: minus(refunded), emphasis: false });
    const tax = input.refundedTaxAmount > 0 ? ` (including ${money(input.refundedTaxAmount)} of tax)` : '';
    const whole = input.status === 'refunded' ? 'This order was refunded in full' : 'This order was partly refunded';
    notes.push(`${whole}: ${money(refunded)}${tax} went back to the customer.`);
  }
  if (taxLine.note) notes.push(taxLine.note);
  notes.push(`Amounts in ${input.currency.toUpperCase()}.`);
  const taxId = taxIdLine(input.taxId);
  return {
    title: 'Invoice',
    number: input.invoiceNumber,
    date: invoiceDate(input.issuedAt),
    seller: {
      name: input.seller.name,
      lines: [input.seller.email, input.seller.website].flatMap((v) => (v ? [v] : [])),
    },
    buyer: {
      name: input.billingName,
      lines: [...addressLines(input.billingAddress), ...(taxId ? [taxId] : [])],
    },
    items: input.items.map((item) => ({
      label: item.label,
      note: item.proration ? 'Proration' : null,
      amount: money(item.amount),
    })),
    totals,
    notes,
  };
}
