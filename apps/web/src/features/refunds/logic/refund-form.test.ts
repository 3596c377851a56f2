import { describe, expect, it } from 'vitest';
import { canRefund, checkRefundAmount, refundableAmount } from './refund-form';

const order = { currency: 'usd', net_amount: 1000, refunded_amount: 250, status: 'partially_refunded' as const };

describe('refundableAmount and canRefund', () => {
  it.each([
    [{ ...order }, 750, true],
    [{ ...order, refunded_amount: 1000, status: 'refunded' as const }, 0, false],
    [{ ...order, refunded_amount: 0, status: 'pending' as const }, 1000, false],
    [{ ...order, refunded_amount: 0, status: 'paid' as const }, 1000, true],
    [{ ...order, net_amount: 0, refunded_amount: 0, status: 'paid' as const }, 0, false],
  ])('%o', (value, left, refundable) => {
    expect(refundableAmount(value)).toBe(left);
    expect(canRefund(value)).toBe(refundable);
  });
});

describe('checkRefundAmount', () => {
  it.each([
    ['7.50', { ok: true, amount: 750 }],
    ['0.01', { ok: true, amount: 1 }],
    ['7.51', { ok: false, message: 'The amount is more than is left to refund.' }],
    ['0', { ok: false, message: 'The amount must be more than zero.' }],
    ['-1', { ok: false, message: 'Enter an amount, e.g. 12.50.' }],
    ['abc', { ok: false, message: 'Enter an amount, e.g. 12.50.' }],
    ['1.234', { ok: false, message: 'Enter an amount, e.g. 12.50.' }],
  ])('%s', (text, expected) => expect(checkRefundAmount(text, order)).toEqual(expected));
});
