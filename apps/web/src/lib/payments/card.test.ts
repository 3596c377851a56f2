import { describe, expect, it } from 'vitest';
import {
  confirmationTokenBody,
  detectCardBrand,
  formatCardNumber,
  formatExpiry,
  luhnValid,
  parseExpiry,
  validateCard,
} from './card';

const NOW = new Date(2026, 0, 15);

describe('formatCardNumber', () => {
  it.each([
    ['4242424242424242', '4242 4242 4242 4242'],
    ['4242-4242 42', '4242 4242 42'],
    ['378282246310005', '3782 822463 10005'],
    ['4242424242424242999999', '4242 4242 4242 4242 999'],
    ['abc', ''],
  ])('%s → %s', (input, expected) => {
    expect(formatCardNumber(input)).toBe(expected);
  });
});

describe('formatExpiry', () => {
  it.each([
    ['1', '1'],
    ['12', '12'],
    ['4', '04'],
    ['123', '12 / 3'],
    ['1234', '12 / 34'],
    ['12 / 345', '12 / 34'],
    ['12/2030', '12 / 30'],
    ['12 /', '12'],
  ])('%s → %s', (input, expected) => {
    expect(formatExpiry(input)).toBe(expected);
  });
});

describe('parseExpiry', () => {
  it.each([
    ['12 / 34', { month: 12, year: 2034 }],
    ['1/2030', { month: 1, year: 2030 }],
    ['0434', { month: 4, year: 2034 }],
    ['12 / 3', null],
    ['', null],
  ])('%s → %j', (input, expected) => {
    expect(parseExpiry(input)).toEqual(expected);
  });
});

describe('luhnValid and detectCardBrand', () => {
  it.each([
    ['4242424242424242', true, 'visa'],
    ['4000000000000002', true, 'visa'],
    ['5555555555554444', true, 'mastercard'],
    ['2223003122003222', true, 'mastercard'],
    ['378282246310005', true, 'amex'],
    ['6011111111111117', true, 'discover'],
    ['4242424242424241', false, 'visa'],
    ['9999', false, 'unknown'],
  ])('%s: Luhn %s, %s', (digits, valid, brand) => {
    expect(luhnValid(digits)).toBe(valid);
    expect(detectCardBrand(digits)).toBe(brand);
  });
});

describe('validateCard', () => {
  const good = { number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' };

  it('accepts a good card', () => {
    expect(validateCard(good, NOW)).toEqual({});
  });

  it('accepts a card through the last day of its expiry month', () => {
    expect(validateCard({ ...good, expiry: '01 / 26' }, NOW)).toEqual({});
    expect(validateCard({ ...good, expiry: '12 / 25' }, NOW)).toEqual({ expiry: 'Your card has expired.' });
  });

  it.each([
    [{ number: '' }, { number: 'Enter your card number.' }],
    [{ number: '4242 4242 4242 4241' }, { number: 'Your card number is invalid.' }],
    // Luhn-valid but an American Express number is 15 digits.
    [
      { number: '3782 8224 6310 0052' },
      { number: 'Your card number is invalid.', cvc: 'The security code is 4 digits.' },
    ],
    [{ expiry: '' }, { expiry: 'Enter the expiry date.' }],
    [{ expiry: '13 / 30' }, { expiry: 'Enter the expiry date as MM / YY.' }],
    [{ cvc: '' }, { cvc: 'Enter the security code.' }],
    [{ cvc: '12a' }, { cvc: 'The security code is 3 digits.' }],
  ])('%j → %j', (change, expected) => {
    expect(validateCard({ ...good, ...change }, NOW)).toEqual(expected);
  });
});

describe('confirmationTokenBody', () => {
  it('sends digits, the month and the four-digit year as the simulated processor takes them', () => {
    expect(confirmationTokenBody({ number: '4000 0000 0000 0002', expiry: '04 / 31', cvc: ' 123 ' })).toEqual({
      card: { number: '4000000000000002', exp_month: 4, exp_year: 2031, cvc: '123' },
    });
  });
});
