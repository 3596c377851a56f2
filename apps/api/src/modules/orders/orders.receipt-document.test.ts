import { describe, expect, it } from 'vitest';
import { receiptDocumentOf, type ReceiptInput } from './orders.receipt-document.js';

const base: ReceiptInput = {
  number: 'ACME-0007',
  paidAt: new Date('2026-01-15T23:30:00Z'),
  seller: { name: 'Acme', email: 'billing@acme.test', website: 'https://acme.test' },
  customerName: 'Jane Buyer',
  customerEmail: 'jane@buyer.test',
  billingAddress: null,
  taxId: null,
  currency: 'usd',
  items: [{ label: 'Pro', amount: 2000, proration: false }],
  subtotalAmount: 2000,
  discountAmount: 0,
  discountName: null,
  taxAmount: 0,
  totalAmount: 2000,
  appliedBalanceAmount: 0,
  card: { brand: 'visa', last4: '4242' },
  refundedAmount: 0,
  refundedTaxAmount: 0,
};

const totals = (input: Partial<ReceiptInput>) =>
  receiptDocumentOf({ ...base, ...input }).totals.map((total) => `${total.label}: ${total.amount}`);

describe('receiptDocumentOf', () => {
  it('is titled Receipt, dated by the payment (UTC), addressed to the customer', () => {
    const document = receiptDocumentOf(base);
    expect(document.title).toBe('Receipt');
    expect(document.number).toBe('ACME-0007');
    expect(document.date).toBe('January 15, 2026');
    expect(document.seller).toEqual({ name: 'Acme', lines: ['billing@acme.test', 'https://acme.test'] });
    expect(document.buyer).toEqual({ name: 'Jane Buyer', lines: ['jane@buyer.test'] });
    expect(document.items).toEqual([{ label: 'Pro', note: null, amount: '$20.00' }]);
  });

  it('adds the billing address and tax id when the order has them; an email as the name is not repeated', () => {
    const document = receiptDocumentOf({
      ...base,
      customerName: 'jane@buyer.test',
      billingAddress: { line1: '1 Main St', postal_code: '62701', city: 'Springfield', state: 'US-IL', country: 'US' },
      taxId: ['DE123456789', 'eu_vat'],
    });
    expect(document.buyer.lines).toEqual(['1 Main St', '62701 Springfield, IL', 'United States', 'EU VAT DE123456789']);
  });

  it.each<[string, Partial<ReceiptInput>, string[]]>([
    ['paid in full', {}, ['Subtotal: $20.00', 'Tax: $0.00', 'Total: $20.00', 'Amount paid: $20.00']],
    [
      'a discount and tax',
      { discountAmount: 500, discountName: 'LAUNCH', taxAmount: 300, totalAmount: 1800 },
      ['Subtotal: $20.00', 'Discount (LAUNCH): -$5.00', 'Tax: $3.00', 'Total: $18.00', 'Amount paid: $18.00'],
    ],
    [
      'part paid from the credit balance',
      { appliedBalanceAmount: 500 },
      ['Subtotal: $20.00', 'Tax: $0.00', 'Total: $20.00', 'Paid from credit balance: -$5.00', 'Amount paid: $15.00'],
    ],
    [
      'a partial refund with tax',
      { taxAmount: 200, totalAmount: 2200, refundedAmount: 1000, refundedTaxAmount: 100 },
      [
        'Subtotal: $20.00',
        'Tax: $2.00',
        'Total: $22.00',
        'Amount paid: $22.00',
        'Refunded: -$11.00',
        'Net paid: $11.00',
      ],
    ],
    [
      'a zero-decimal currency',
      { currency: 'jpy' },
      ['Subtotal: ¥2,000', 'Tax: ¥0', 'Total: ¥2,000', 'Amount paid: ¥2,000'],
    ],
  ])('totals: %s', (_name, input, expected) => {
    expect(totals(input)).toEqual(expected);
  });

  it.each<[string, Partial<ReceiptInput>, string[]]>([
    ['a card', {}, ['Paid on January 15, 2026 with Visa ending in 4242.', 'Amounts in USD.']],
    [
      'a two-word brand',
      { card: { brand: 'american_express', last4: '0005' } },
      ['Paid on January 15, 2026 with American Express ending in 0005.', 'Amounts in USD.'],
    ],
    ['no card known', { card: null }, ['Paid on January 15, 2026.', 'Amounts in USD.']],
    [
      'a refund',
      { taxAmount: 200, totalAmount: 2200, refundedAmount: 1000, refundedTaxAmount: 100 },
      [
        'Paid on January 15, 2026 with Visa ending in 4242.',
        '$11.00 (including $1.00 of tax) was refunded to the customer.',
        'Amounts in USD.',
      ],
    ],
  ])('notes: %s', (_name, input, expected) => {
    expect(receiptDocumentOf({ ...base, ...input }).notes).toEqual(expected);
  });
});
