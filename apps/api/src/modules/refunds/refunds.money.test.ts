import { describe, expect, it } from 'vitest';
import {
  orderStatusAfterRefunds,
  refundableAmount,
  refundableTaxAmount,
  refundTaxPortion,
  splitRefund,
  type OrderRefundState,
} from './refunds.money.js';

const order = (net: number, tax: number, refunded = 0, refundedTax = 0): OrderRefundState => ({
  net_amount: net,
  tax_amount: tax,
  refunded_amount: refunded,
  refunded_tax_amount: refundedTax,
});

describe('refundableAmount and refundableTaxAmount', () => {
  it.each([
    [order(1000, 200), 1000, 200],
    [order(1000, 200, 400, 80), 600, 120],
    [order(1000, 200, 1000, 200), 0, 0],
    [order(0, 0), 0, 0],
  ])('%o leaves %i and %i of tax', (state, amount, tax) => {
    expect(refundableAmount(state)).toBe(amount);
    expect(refundableTaxAmount(state)).toBe(tax);
  });
});

describe('refundTaxPortion', () => {
  it.each([
    ['everything left takes all the tax left', order(1000, 200), 1000, 200],
    ['the rest after a partial refund takes the tax left', order(1000, 201, 333, 67), 667, 134],
    ['a part: amount × tax / net', order(1000, 200), 250, 50],
    ['no tax, no portion', order(1000, 0), 500, 0],
    ['half a cent rounds to even (down)', order(1000, 5), 100, 0], // 0.5 → 0
    ['half a cent rounds to even (up)', order(1000, 15), 100, 2], // 1.5 → 2
    ['two and a half cents → 2', order(1000, 25), 100, 2],
    ['three and a half cents → 4', order(1000, 35), 100, 4],
    ['above half rounds up', order(999, 200), 500, 100], // 100.1 → 100
    ['below half rounds down', order(3, 1), 1, 0], // 0.333 → 0
    ['two thirds rounds up', order(3, 1), 2, 1], // 0.667 → 1
    ['capped at the tax left', order(1000, 200, 100, 199), 10, 1],
    ['a zero net order has no portion', order(0, 0), 0, 0],
  ])('%s', (_name, state, amount, expected) => expect(refundTaxPortion(state, amount)).toBe(expected));

  it('a refund in parts never gives back more tax than was paid', () => {
    let state = order(1001, 199);
    for (const amount of [333, 333, 335]) {
      const tax = refundTaxPortion(state, amount);
      state = {
        ...state,
        refunded_amount: state.refunded_amount + amount,
        refunded_tax_amount: state.refunded_tax_amount + tax,
      };
    }
    expect(state.refunded_amount).toBe(1001);
    expect(state.refunded_tax_amount).toBe(199);
  });
});

describe('orderStatusAfterRefunds', () => {
  it.each([
    ['nothing refunded', 'paid', 1000, 0, 'paid'],
    ['a part refunded', 'paid', 1000, 1, 'partially_refunded'],
    ['all but a cent', 'partially_refunded', 1000, 999, 'partially_refunded'],
    ['all of the net (tax not considered)', 'partially_refunded', 1000, 1000, 'refunded'],
    ['a failed refund taken back to zero', 'partially_refunded', 1000, 0, 'paid'],
    ['a pending order stays pending', 'pending', 1000, 0, 'pending'],
  ] as const)('%s', (_name, status, net, refunded, expected) =>
    expect(orderStatusAfterRefunds({ status, net_amount: net }, refunded)).toBe(expected),
  );
});

describe('splitRefund', () => {
  it.each([
    ['all to the card', 1200, 1200, { processor: 1200, balance: 0 }],
    ['the card first, the rest to the balance', 1200, 1000, { processor: 1000, balance: 200 }],
    ['the card already refunded', 300, 0, { processor: 0, balance: 300 }],
    ['a part of what the card paid', 500, 1000, { processor: 500, balance: 0 }],
  ])('%s', (_name, total, card, expected) => expect(splitRefund(total, card)).toEqual(expected));
});
