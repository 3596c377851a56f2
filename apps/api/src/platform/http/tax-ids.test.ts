import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES } from './countries.js';
import { COUNTRY_TAX_ID_FORMATS, TAX_ID_FORMATS, compactTaxId, detectTaxId, validateTaxId } from './tax-ids.js';

describe('tax id formats', () => {
  it('are the 74 formats of the SDK, and every country maps to known formats', () => {
    expect(TAX_ID_FORMATS).toHaveLength(74);
    expect(new Set(TAX_ID_FORMATS).size).toBe(74);
    for (const [country, formats] of Object.entries(COUNTRY_TAX_ID_FORMATS)) {
      expect((COUNTRY_CODES as readonly string[]).includes(country), country).toBe(true);
      for (const format of formats) expect(TAX_ID_FORMATS, `${country} ${format}`).toContain(format);
    }
    expect(COUNTRY_TAX_ID_FORMATS.FR).toEqual(['eu_vat']);
    expect(COUNTRY_TAX_ID_FORMATS.DE).toEqual(['de_stn', 'eu_vat']);
  });
});

describe('validateTaxId', () => {
  it('compacts separators and upper-cases', () => {
    expect(compactTaxId(' fr-123.456/789,01 ')).toBe('FR12345678901');
  });

  it('accepts a value that fits a format the country uses', () => {
    expect(validateTaxId('12-3456789', 'us_ein', 'US')).toEqual(['123456789', 'us_ein']);
    expect(validateTaxId('fr 12345678901', 'eu_vat', 'FR')).toEqual(['FR12345678901', 'eu_vat']);
    expect(validateTaxId('GB123456789', 'gb_vat', 'GB')).toEqual(['GB123456789', 'gb_vat']);
    expect(validateTaxId('53 004 085 616', 'au_abn', 'AU')).toEqual(['53004085616', 'au_abn']);
    expect(validateTaxId('CHE-123.456.789 MWST', 'ch_vat', 'CH')).toEqual(['CHE123456789MWST', 'ch_vat']);
    // Formats without a pattern only have to look like an identifier.
    expect(validateTaxId('A1234567', 'ke_pin', 'KE')).toEqual(['A1234567', 'ke_pin']);
  });

  it('refuses a format the country does not use, or a value that does not fit', () => {
    expect(validateTaxId('123456789', 'us_ein', 'FR')).toBeNull();
    expect(validateTaxId('12345', 'us_ein', 'US')).toBeNull();
    expect(validateTaxId('12345678901', 'eu_vat', 'FR')).toBeNull();
    expect(validateTaxId('XX12345678', 'eu_vat', 'DE')).toBeNull();
    // An EU VAT id's prefix is its country: it must be the billing country's (EL for Greece).
    expect(validateTaxId('FR12345678901', 'eu_vat', 'DE')).toBeNull();
    expect(validateTaxId('EL123456789', 'eu_vat', 'GR')).toEqual(['EL123456789', 'eu_vat']);
    expect(validateTaxId('GR123456789', 'eu_vat', 'GR')).toBeNull();
    expect(validateTaxId('DE123456789', 'eu_vat', 'GR')).toBeNull();
    expect(validateTaxId('!!', 'ke_pin', 'KE')).toBeNull();
    expect(validateTaxId('123456789', 'us_ein', 'AQ')).toBeNull();
  });

  it('detects the format of a bare value for the country (checkouts)', () => {
    expect(detectTaxId('DE123456789', 'DE')).toEqual(['DE123456789', 'eu_vat']);
    expect(detectTaxId('1234567890', 'DE')).toEqual(['1234567890', 'de_stn']);
    expect(detectTaxId('nope', 'US')).toBeNull();
    expect(detectTaxId('FR12345678901', 'DE')).toBeNull();
  });
});
