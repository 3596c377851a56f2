import { describe, expect, it } from 'vitest';
import { planRemoval, safeReturnUrl } from './payment-methods.rules.js';

describe('safeReturnUrl', () => {
  const base = 'https://billing.example.com';
  it.each([
    ['/portal/acme/payment-methods', 'https://billing.example.com/portal/acme/payment-methods'],
    ['https://billing.example.com/portal/acme?x=1', 'https://billing.example.com/portal/acme?x=1'],
    ['https://evil.example.net/steal', 'https://billing.example.com/portal'],
    ['//evil.example.net/steal', 'https://billing.example.com/portal'],
    ['javascript:alert(1)', 'https://billing.example.com/portal'],
    ['http://billing.example.com/portal', 'https://billing.example.com/portal'],
  ])('%s → %s', (given, expected) => {
    expect(safeReturnUrl(base, given)).toBe(expected);
  });
});

describe('planRemoval', () => {
  const a = { id: 'a', isDefault: true };
  const b = { id: 'b', isDefault: false };
  const c = { id: 'c', isDefault: false };
  it.each([
    ['the last method billing a subscription', a, [a], true, { refused: true }],
    ['the last method, billing nothing', a, [a], false, { refused: false, nextDefault: null }],
    ['the default, another left: the newest other', a, [c, a, b], true, { refused: false, nextDefault: 'c' }],
    ['another than the default: the default stays', b, [a, b, c], true, { refused: false, nextDefault: 'a' }],
    [
      'no default yet: the newest other',
      b,
      [c, { id: 'b', isDefault: false }],
      false,
      { refused: false, nextDefault: 'c' },
    ],
  ] as const)('%s', (_name, removed, methods, bills, expected) => {
    expect(planRemoval(removed, [...methods], bills)).toEqual(expected);
  });
});
