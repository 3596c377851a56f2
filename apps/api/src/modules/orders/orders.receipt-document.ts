import { invoiceTaxLine } from '../billing/billing.tax.js';
import { formatAmount } from '../webhooks/webhooks.formats.js';
import {
  addressLines,
  invoiceDate,
  taxIdLine,
  type InvoiceAddress,
  type InvoiceDocument,
  type InvoiceTotal,
} from './orders.invoice-document.js';

/**
 * What a receipt says, decided in one pure function (table-tested): the proof that an order was paid —
 * when, how and how much — with what was refunded since. Laid out by the
 * invoice's renderer. A receipt needs no billing address: it is addressed to the customer.
 */
export interface ReceiptInput {
  /** The order's invoice number: one numbering for an order's documents. */
  number: string;
  /** When the order was paid: its payment's, else the order's. */
  paidAt: Date;
  seller: { name: string; email: string | null; website: string | null };
  /** The billing name, else the customer's name, else the customer's email. */
  customerName: string;
  customerEmail: string | null;
  billingAddress: InvoiceAddress | null;
  taxId: unknown;
  currency: string;
  items: { label: string; amount: number; proration: boolean }[];
  subtotalAmount: number;
  discountAmount: number;
  discountName: string | null;
  taxAmount: number;
  taxDetails?: unknown;
  totalAmount: number;
  appliedBalanceAmount: number;
  /** The card it was paid with, when known. */
  card: { brand: string; last4: string } | null;
  refundedAmount: number;
  refundedTaxAmount: number;
}

/** `visa` → `Visa`, `american_express` → `American Express`. */
function brandName(brand: string): string {
  return brand
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');
}

export function receiptDocumentOf(input: ReceiptInput): InvoiceDocument {
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
  totals.push({ label: 'Total', amount: money(input.totalAmount), emphasis: false });
  if (input.appliedBalanceAmount > 0) {
    totals.push({ label: 'Paid from credit balance', amount: minus(input.appliedBalanceAmount), emphasis: false });
  }
  const paid = input.totalAmount - input.appliedBalanceAmount;
  totals.push({ label: 'Amount paid', amount: money(paid), emphasis: true });

  const notes: string[] = [];
  const how = input.card ? ` with ${brandName(input.card.brand)} ending in ${input.card.last4}` : '';
  notes.push(`Paid on ${invoiceDate(input.paidAt)}${how}.`);
  const refunded = input.refundedAmount + input.refundedTaxAmount;
  if (refunded > 0) {
    totals.push({ label: 'Refunded', amount: minus(refunded), emphasis: false });
    const tax = input.refundedTaxAmount > 0 ? ` (including ${money(input.refundedTaxAmount)} of tax)` : '';
    notes.push(`${money(refunded)}${tax} was refunded to the customer.`);
  }
  if (refunded > 0) totals.push({ label: 'Net paid', amount: money(paid - refunded), emphasis: false });
  if (taxLine.note) notes.push(taxLine.note);
  notes.push(`Amounts in ${input.currency.toUpperCase()}.`);
  const taxId = taxIdLine(input.taxId);
  return {
    title: 'Receipt',
    number: input.number,
    date: invoiceDate(input.paidAt),
    seller: {
      name: input.seller.name,
      lines: [input.seller.email, input.seller.website].flatMap((v) => (v ? [v] : [])),
    },
    buyer: {
      name: input.customerName,
      lines: [
        ...(input.customerEmail && input.customerEmail !== input.customerName ? [input.customerEmail] : []),
        ...(input.billingAddress ? addressLines(input.billingAddress) : []),
        ...(taxId ? [taxId] : []),
      ],
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
