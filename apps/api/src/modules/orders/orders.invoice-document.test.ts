import { describe, expect, it } from 'vitest';
import { addressLines, invoiceDocumentOf, taxIdLine, type InvoiceInput } from './orders.invoice-document.js';
import { toWinAnsi } from './orders.invoice-pdf.js';

const base: InvoiceInput = {
  invoiceNumber: 'ACME-0007',
  issuedAt: new Date('2026-01-15T23:30:00Z'),
  seller: { name: 'Acme', email: 'billing@acme.test', website: null },
  billingName: 'Jane Buyer',
  billingAddress: { line1: '1 Main St', postal_code: '62701', city: 'Springfield', state: 'US-IL', country: 'US' },
  taxId: null,
  currency: 'usd',
  items: [{ label: 'Pro', amount: 2000, proration: false }],
  subtotalAmount: 2000,
  discountAmount: 0,
  discountName: null,
  taxAmount: 0,
  totalAmount: 2000,
  appliedBalanceAmount: 0,
  refundedAmount: 0,
  refundedTaxAmount: 0,
  status: 'paid',
};

const totals = (input: Partial<InvoiceInput>) =>
  invoiceDocumentOf({ ...base, ...input }).totals.map((total) => `${total.label}: ${total.amount}`);

describe('invoiceDocumentOf', () => {
  it('names the number, the UTC date, both parties and each line', () => {
    const document = invoiceDocumentOf({ ...base, taxId: ['DE123456789', 'eu_vat'] });
    expect(document.number).toBe('ACME-0007');
    expect(document.date).toBe('January 15, 2026');
    expect(document.seller).toEqual({ name: 'Acme', lines: ['billing@acme.test'] });
    expect(document.buyer).toEqual({
      name: 'Jane Buyer',
      lines: ['1 Main St', '62701 Springfield, IL', 'United States', 'EU VAT DE123456789'],
    });
    expect(document.items).toEqual([{ label: 'Pro', note: null, amount: '$20.00' }]);
  });

  it.each<[string, Partial<InvoiceInput>, string[]]>([
    ['no discount, no tax', {}, ['Subtotal: $20.00', 'Tax: $0.00', 'Total: $20.00']],
    [
      'a named discount and tax',
      { discountAmount: 500, discountName: 'LAUNCH', taxAmount: 300, totalAmount: 1800 },
      ['Subtotal: $20.00', 'Discount (LAUNCH): -$5.00', 'Tax: $3.00', 'Total: $18.00'],
    ],
    [
      'part paid from the credit balance',
      { appliedBalanceAmount: 500 },
      ['Subtotal: $20.00', 'Tax: $0.00', 'Total: $20.00', 'Paid from credit balance: -$5.00', 'Charged: $15.00'],
    ],
    [
      'a partial refund with tax',
      { taxAmount: 200, totalAmount: 2200, refundedAmount: 1000, refundedTaxAmount: 100, status: 'partially_refunded' },
      ['Subtotal: $20.00', 'Tax: $2.00', 'Total: $22.00', 'Refunded: -$11.00'],
    ],
    ['a zero-decimal currency', { currency: 'jpy' }, ['Subtotal: ¥2,000', 'Tax: ¥0', 'Total: ¥2,000']],
  ])('totals: %s', (_name, input, expected) => {
    expect(totals(input)).toEqual(expected);
  });

  it('notes refunds and marks proration lines, negative credits included', () => {
    const document = invoiceDocumentOf({
      ...base,
      items: [
        { label: 'Remaining time on Basic', amount: -500, proration: true },
        { label: 'Pro', amount: 2500, proration: true },
      ],
      refundedAmount: 2000,
      status: 'refunded',
    });
    expect(document.items.map((item) => [item.label, item.note, item.amount])).toEqual([
      ['Remaining time on Basic', 'Proration', '-$5.00'],
      ['Pro', 'Proration', '$25.00'],
    ]);
    expect(document.notes).toEqual([
      'This order was refunded in full: $20.00 went back to the customer.',
      'Amounts in USD.',
    ]);
  });
});

describe('addressLines and taxIdLine', () => {
  it.each([
    [
      { line1: 'Rue 1', line2: 'Bât. B', postal_code: '75001', city: 'Paris', country: 'FR' },
      ['Rue 1', 'Bât. B', '75001 Paris', 'France'],
    ],
    [{ country: 'CA', state: 'CA-ON', city: 'Toronto' }, ['Toronto, ON', 'Canada']],
    [{ country: 'DE' }, ['Germany']],
  ])('%j', (address, lines) => {
    expect(addressLines(address)).toEqual(lines);
  });

  it.each([
    [['GB123', 'gb_vat'], 'GB VAT GB123'],
    [null, null],
    [['', 'eu_vat'], null],
    ['DE1', null],
  ])('%j → %s', (taxId, line) => {
    expect(taxIdLine(taxId)).toBe(line);
  });
});

describe('toWinAnsi', () => {
  it.each([
    ['Zoë — €5 “quoted”', 'Zoë — €5 “quoted”'],
    ['Łódź', '?ódz'],
    ['Gergő', 'Gergo'],
    ['東京', '??'],
  ])('%s → %s', (text, drawn) => {
    expect(toWinAnsi(text)).toBe(drawn);
  });
});
