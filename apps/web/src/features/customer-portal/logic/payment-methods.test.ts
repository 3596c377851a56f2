import { describe, expect, it } from 'vitest';
import {
  paymentMethodExpiry,
  paymentMethodLabel,
  returningPaymentMethodId,
  sortedPaymentMethods,
  type SavedPaymentMethod,
} from './payment-methods';

const card = (
  fields: Partial<{ brand: string; last4: string; exp_month: number; exp_year: number; wallet: string | null }> = {},
  extra: Partial<SavedPaymentMethod> = {},
) =>
  ({
    id: '0b8f2a4e-1111-4222-8333-444455556666',
    type: 'card',
    created_at: '2026-01-15T12:00:00Z',
    default: false,
    card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034, wallet: null, ...fields },
    ...extra,
  }) as SavedPaymentMethod;

describe('paymentMethodLabel', () => {
  it.each([
    [card(), 'Visa ending in 4242'],
    [card({ brand: 'mastercard', last4: '4444' }), 'Mastercard ending in 4444'],
    [card({ brand: 'amex', last4: '0005', wallet: 'apple_pay' }), 'American Express ending in 0005 (apple pay)'],
    [card({ brand: 'cartes_bancaires' }), 'cartes_bancaires ending in 4242'],
    [{ id: 'x', type: 'sepa_debit', created_at: '', default: false } as SavedPaymentMethod, 'sepa debit'],
    [{ id: 'x', type: 'card', created_at: '', default: false } as SavedPaymentMethod, 'Card'],
  ])('%#: %s', (method, expected) => {
    expect(paymentMethodLabel(method)).toBe(expected);
  });
});

describe('paymentMethodExpiry', () => {
  const now = new Date(2026, 0, 15);
  it.each([
    [card({ exp_month: 1, exp_year: 2026 }), 'Expires 01/2026'],
    [card({ exp_month: 12, exp_year: 2025 }), 'Expired 12/2025'],
    [card({ exp_month: 3, exp_year: 2030 }), 'Expires 03/2030'],
    [{ id: 'x', type: 'sepa_debit', created_at: '', default: false } as SavedPaymentMethod, null],
  ])('%#: %s', (method, expected) => {
    expect(paymentMethodExpiry(method, now)).toBe(expected);
  });
});

describe('sortedPaymentMethods', () => {
  it('puts the default first and keeps the rest in order', () => {
    const a = card({ last4: '1111' });
    const b = card({ last4: '2222' }, { default: true });
    const c = card({ last4: '3333' });
    expect(sortedPaymentMethods([a, b, c])).toEqual([b, a, c]);
  });
});

describe('returningPaymentMethodId', () => {
  it.each([
    ['?payment_method_id=0b8f2a4e-1111-4222-8333-444455556666', '0b8f2a4e-1111-4222-8333-444455556666'],
    [
      '?setup_intent=seti_1&payment_method_id=0b8f2a4e-1111-4222-8333-444455556666&redirect_status=succeeded',
      '0b8f2a4e-1111-4222-8333-444455556666',
    ],
    ['?payment_method_id=../../etc', null],
    ['', null],
  ])('%s', (search, expected) => {
    expect(returningPaymentMethodId(search)).toBe(expected);
  });
});
