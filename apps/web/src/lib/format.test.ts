import { describe, expect, it } from 'vitest';
import {
  formatAddressLines,
  formatBasisPoints,
  formatCreditBalances,
  formatMoneyPerInterval,
  parseBasisPoints,
  parseMoney,
  toMajorUnits,
} from './format';

describe('parseMoney', () => {
  it.each([
    ['25', 'usd', 2500],
    ['12.5', 'usd', 1250],
    ['12,50', 'eur', 1250],
    ['0.10', 'usd', 10],
    ['1000', 'jpy', 1000],
    ['12.555', 'usd', null],
    ['-3', 'usd', null],
    ['abc', 'usd', null],
    ['', 'usd', null],
  ])('%s %s → %s', (text, currency, expected) => {
    expect(parseMoney(text, currency)).toBe(expected);
  });
});

describe('toMajorUnits', () => {
  it.each([
    [1250, 'usd', '12.50'],
    [5, 'usd', '0.05'],
    [1000, 'jpy', '1000'],
  ])('%s %s → %s', (amount, currency, expected) => {
    expect(toMajorUnits(amount, currency)).toBe(expected);
  });
});

describe('parseBasisPoints', () => {
  it.each([
    ['20', 2000],
    ['12.5', 1250],
    ['0.01', 1],
    ['100%', 10000],
    ['1.234', null],
  ])('%s → %s', (text, expected) => {
    expect(parseBasisPoints(text)).toBe(expected);
  });

  it('formats back', () => {
    expect(formatBasisPoints(1250)).toMatch(/12[.,]5%/);
  });
});

describe('formatMoneyPerInterval', () => {
  it('says the amount and its interval', () => {
    expect(formatMoneyPerInterval(2500, 'usd', 'month')).toMatch(/25[.,]00.* \/ month$/);
  });
});

describe('formatAddressLines', () => {
  it('writes the lines of an envelope, skipping what is missing, the country by its name', () => {
    expect(
      formatAddressLines({
        line1: '1 rue de Rivoli',
        line2: null,
        postal_code: '75001',
        city: 'Paris',
        state: null,
        country: 'FR',
      }),
    ).toEqual(['1 rue de Rivoli', '75001 Paris', expect.stringMatching(/France|FR/)]);
  });
});

describe('formatCreditBalances', () => {
  it('shows each currency with a positive balance, or nothing', () => {
    expect(formatCreditBalances({})).toBeNull();
    expect(formatCreditBalances({ usd: 0 })).toBeNull();
    expect(formatCreditBalances({ usd: 996 })).toMatch(/9[.,]96/);
    expect(formatCreditBalances({ usd: 996, eur: 100 })).toMatch(/9[.,]96.* · .*1[.,]00/);
  });
});
