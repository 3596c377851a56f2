import { describe, expect, it } from 'vitest';
import { countryOptions } from './countries';

describe('countryOptions', () => {
  it('names every country and sorts by name', () => {
    const options = countryOptions('en');
    expect(options.find((option) => option.value === 'FR')?.label).toBe('France');
    expect(options.map((option) => option.value)).toContain('RU');
    const labels = options.map((option) => option.label);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('leaves out the countries asked', () => {
    const values = countryOptions('en', ['RU', 'CU']).map((option) => option.value);
    expect(values).not.toContain('RU');
    expect(values).not.toContain('CU');
    expect(values).toContain('FR');
  });
});
