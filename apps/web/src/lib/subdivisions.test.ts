import { describe, expect, it } from 'vitest';
import { formatAddressLines } from './format';
import { subdivisionName, subdivisionValue } from './subdivisions';

describe('subdivisionName', () => {
  it.each<[string, string | null, string]>([
    ['US-CA', 'US', 'California'],
    ['CA-QC', 'CA', 'Quebec'],
    ['US-CA', null, 'California'],
    ['CA', 'US', 'California'],
    ['NY', 'US', 'New York'],
    ['Bavaria', 'DE', 'Bavaria'],
    ['US-ZZ', 'US', 'US-ZZ'],
    ['BY', 'DE', 'BY'],
  ])('%s in %s reads %s', (state, country, expected) => {
    expect(subdivisionName(state, country)).toBe(expected);
  });
});

describe('subdivisionValue', () => {
  it('gives a bare code of a country with subdivisions its prefix, and leaves the rest', () => {
    expect(subdivisionValue('CA', 'US')).toBe('US-CA');
    expect(subdivisionValue('US-CA', 'US')).toBe('US-CA');
    expect(subdivisionValue('Bavaria', 'DE')).toBe('Bavaria');
  });
});

describe('formatAddressLines', () => {
  it('names the state', () => {
    expect(
      formatAddressLines({
        line1: '1 Market St',
        postal_code: '94105',
        city: 'San Francisco',
        state: 'US-CA',
        country: 'US',
      }),
    ).toEqual(['1 Market St', '94105 San Francisco', 'California', expect.stringMatching(/United States/)]);
  });
});
