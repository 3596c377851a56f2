import { describe, expect, it } from 'vitest';
import {
  detectBrand,
  isExpired,
  luhnValid,
  normalizeCardNumber,
  normalizeExpYear,
  simulatedOutcome,
  validLengthForBrand,
} from './cards.js';
import { validateCard } from './simulated.js';
import { RequestValidationError } from '../http/errors.js';

describe('luhnValid', () => {
  it.each([
    '4242424242424242',
    '4000000000000002',
    '4000000000009995',
    '4000000000000341',
    '378282246310005',
    '79927398713',
  ])('accepts %s', (number) => expect(luhnValid(number)).toBe(true));
  it.each(['4242424242424241', '79927398710', '1', '', '42424242424242a2'])('rejects %j', (number) =>
    expect(luhnValid(number)).toBe(false),
  );
});

describe('normalizeCardNumber', () => {
  it('drops spaces and dashes, refuses anything else', () => {
    expect(normalizeCardNumber('4242 4242-4242 4242')).toBe('4242424242424242');
    expect(normalizeCardNumber('4242.4242')).toBeNull();
  });
});

describe('detectBrand (IIN ranges)', () => {
  it.each([
    ['4242424242424242', 'visa'],
    ['4000056655665556', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['2720990000000000', 'mastercard'],
    ['378282246310005', 'amex'],
    ['371449635398431', 'amex'],
    ['6011111111111117', 'discover'],
    ['6445000000000000', 'discover'],
    ['6221260000000000', 'discover'],
    ['3056930009020004', 'diners'],
    ['36227206271667', 'diners'],
    ['3566002020360505', 'jcb'],
    ['6200000000000005', 'unionpay'],
    ['9999999999999995', 'unknown'],
    ['2721000000000000', 'unknown'],
  ])('%s is %s', (number, brand) => expect(detectBrand(number)).toBe(brand));

  it('checks lengths per brand', () => {
    expect(validLengthForBrand('amex', 15)).toBe(true);
    expect(validLengthForBrand('amex', 16)).toBe(false);
    expect(validLengthForBrand('visa', 13)).toBe(true);
    expect(validLengthForBrand('unknown', 11)).toBe(false);
  });
});

describe('expiry', () => {
  const now = new Date('2026-01-15T12:00:00Z');
  it('is valid through the last day of the expiry month', () => {
    expect(isExpired(1, 2026, now)).toBe(false);
    expect(isExpired(12, 2025, now)).toBe(true);
    expect(isExpired(1, 26, now)).toBe(false);
    expect(isExpired(1, 2026, new Date('2026-01-31T23:59:59Z'))).toBe(false);
    expect(isExpired(1, 2026, new Date('2026-02-01T00:00:00Z'))).toBe(true);
  });
  it('reads two-digit years as 20xx', () => expect(normalizeExpYear(30)).toBe(2030));
});

describe("Stripe's test cards", () => {
  it.each([
    ['4242424242424242', 'succeed'],
    ['4000000000000002', 'card_declined'],
    ['4000000000009995', 'insufficient_funds'],
    ['4000000000000341', 'charge_declined_after_attach'],
    ['5555555555554444', 'succeed'],
  ])('%s → %s', (number, outcome) => expect(simulatedOutcome(number)).toBe(outcome));
});

describe('validateCard', () => {
  const now = new Date('2026-01-15T12:00:00Z');
  it('keeps only brand, last four, expiry and the outcome', () => {
    expect(validateCard({ number: '4000 0000 0000 9995', exp_month: 3, exp_year: 27, cvc: '999' }, now)).toEqual({
      brand: 'visa',
      last4: '9995',
      exp_month: 3,
      exp_year: 2027,
      outcome: 'insufficient_funds',
    });
  });
  it('reports every problem at once', () => {
    const error = (() => {
      try {
        validateCard({ number: '4242', exp_month: 0, exp_year: 2030, cvc: 'abc' }, now);
      } catch (e) {
        return e;
      }
    })() as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues.map((issue) => issue.loc.at(-1))).toEqual(['number', 'exp_month', 'cvc']);
  });
});
