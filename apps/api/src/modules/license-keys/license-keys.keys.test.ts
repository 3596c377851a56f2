import { describe, expect, it } from 'vitest';
import { displayKey, expiresAt, generateLicenseKey, sameConditions } from './license-keys.keys.js';

const UUID = '8f1b2c4e-1234-4abc-9def-0123456789ab';

describe('license key format', () => {
  it('is an upper-case uuid behind the trimmed, upper-cased prefix', () => {
    expect(generateLicenseKey(null, UUID)).toBe('8F1B2C4E-1234-4ABC-9DEF-0123456789AB');
    expect(generateLicenseKey('  myapp ', UUID)).toBe('MYAPP-8F1B2C4E-1234-4ABC-9DEF-0123456789AB');
    expect(generateLicenseKey('', UUID)).toBe('8F1B2C4E-1234-4ABC-9DEF-0123456789AB');
    expect(generateLicenseKey('x')).toMatch(/^X-[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
    expect(displayKey('MYAPP-8F1B2C4E-1234-4ABC-9DEF-0123456789AB')).toBe('****-6789AB');
  });
});

describe('expiry', () => {
  const now = new Date('2026-01-31T10:00:00.000Z');
  it('adds calendar days, months and years in UTC', () => {
    expect(expiresAt(now, null)).toBeNull();
    expect(expiresAt(now, { ttl: 2, timeframe: 'day' })!.toISOString()).toBe('2026-02-02T10:00:00.000Z');
    expect(expiresAt(now, { ttl: 1, timeframe: 'month' })!.toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(expiresAt(now, { ttl: 13, timeframe: 'month' })!.toISOString()).toBe('2027-02-28T10:00:00.000Z');
    expect(expiresAt(new Date('2028-02-29T00:00:00Z'), { ttl: 1, timeframe: 'year' })!.toISOString()).toBe(
      '2029-02-28T00:00:00.000Z',
    );
  });
});

describe('conditions', () => {
  it('match only when exactly equal', () => {
    expect(sameConditions({ a: 1, b: 'x' }, { b: 'x', a: 1 })).toBe(true);
    expect(sameConditions({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameConditions({ a: 1 }, { a: '1' })).toBe(false);
  });
});
