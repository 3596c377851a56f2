// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { slugify } from './create-organization-form';

describe('slugify', () => {
  it('keeps lower-case letters and digits, joined by dashes', () => {
    expect(slugify('  Acme Software, Inc. ')).toBe('acme-software-inc');
  });

  it('drops accents instead of splitting the letter', () => {
    expect(slugify('Café Über')).toBe('cafe-uber');
  });
});
