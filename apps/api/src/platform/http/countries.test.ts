import { describe, expect, it } from 'vitest';
import { AddressInput, COUNTRY_CODES, isCountryCode, normalizeState, serializeAddress } from './countries.js';

describe('country codes', () => {
  it('holds the 249 ISO 3166-1 alpha-2 codes, sorted and unique', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    expect([...COUNTRY_CODES]).toEqual([...COUNTRY_CODES].sort());
  });

  it('knows every code the runtime can name, and nothing it cannot', () => {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    for (const code of COUNTRY_CODES) expect(names.of(code), code).not.toBe(code);
    for (const code of ['UK', 'EU', 'XK', 'ZZ', 'XX', 'fr', 'FRA']) expect(isCountryCode(code), code).toBe(false);
  });
});

describe('normalizeState', () => {
  it('prefixes and checks US states and CA provinces, leaves others alone', () => {
    expect(normalizeState('US', 'ca')).toBe('US-CA');
    expect(normalizeState('US', 'US-NY')).toBe('US-NY');
    expect(normalizeState('US', 'XY')).toBeNull();
    expect(normalizeState('CA', 'QC')).toBe('CA-QC');
    expect(normalizeState('CA', 'CA-ZZ')).toBeNull();
    expect(normalizeState('DE', 'Bayern')).toBe('Bayern');
  });
});

describe('AddressInput', () => {
  it('upper-cases the country, turns empty lines into null and fills every key', () => {
    expect(AddressInput.parse({ country: ' se ', city: '', line1: 'Storgatan 1' })).toEqual({
      line1: 'Storgatan 1',
      line2: null,
      postal_code: null,
      city: null,
      state: null,
      country: 'SE',
    });
  });

  it('rejects a missing or unknown country and an unknown US state', () => {
    expect(AddressInput.safeParse({}).success).toBe(false);
    expect(AddressInput.safeParse({ country: 'XX' }).success).toBe(false);
    const state = AddressInput.safeParse({ country: 'US', state: 'Nowhere' });
    expect(state.success).toBe(false);
    expect(state.error?.issues[0]?.path).toEqual(['state']);
  });

  it('serializes a stored address with every key', () => {
    expect(serializeAddress(null)).toBeNull();
    expect(serializeAddress({ country: 'FR', city: 'Paris' })).toEqual({
      line1: null,
      line2: null,
      postal_code: null,
      city: 'Paris',
      state: null,
      country: 'FR',
    });
  });
});
