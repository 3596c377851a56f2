import { describe, expect, it } from 'vitest';
import { attachedField } from '../testing/fixtures';
import {
  checkoutCustomFields,
  customFieldData,
  customFieldErrors,
  initialAnswers,
  validateAnswer,
  type CheckoutCustomField,
} from './custom-fields';

const field = (overrides: Partial<CheckoutCustomField>): CheckoutCustomField => ({
  slug: 'field',
  type: 'text',
  label: 'Field',
  required: false,
  textarea: false,
  options: [],
  ...overrides,
});

describe('checkoutCustomFields', () => {
  it('reads the fields in the seller’s order, with labels and bounds from their properties', () => {
    const fields = checkoutCustomFields([
      attachedField({ slug: 'size', name: 'Team size', type: 'number', properties: { ge: 1, le: 50 } }, false, 2),
      attachedField(
        { slug: 'team', name: 'team', type: 'text', properties: { form_label: 'Team name', max_length: 20 } },
        true,
        1,
      ),
      attachedField(
        // 2024-01-01T12:00Z and 2024-12-31T00:00Z
        { slug: 'start', name: 'Start', type: 'date', properties: { ge: 1704110400, le: 1735603200 } },
        false,
        3,
      ),
    ]);
    expect(fields.map((f) => [f.slug, f.label, f.required])).toEqual([
      ['team', 'Team name', true],
      ['size', 'Team size', false],
      ['start', 'Start', false],
    ]);
    expect(fields[0]).toMatchObject({ maxLength: 20 });
    expect(fields[1]).toMatchObject({ min: 1, max: 50 });
    expect(fields[2]).toMatchObject({ minDate: '2024-01-01', maxDate: '2024-12-31' });
  });
});

describe('initialAnswers', () => {
  it('keeps stored answers, a date as its day', () => {
    const fields = [
      field({ slug: 'a' }),
      field({ slug: 'b', type: 'checkbox' }),
      field({ slug: 'c', type: 'date' }),
      field({ slug: 'd', type: 'number' }),
    ];
    expect(initialAnswers(fields, { a: 'hi', b: true, c: '2026-03-01T00:00:00.000Z', d: 7 })).toEqual({
      a: 'hi',
      b: true,
      c: '2026-03-01',
      d: '7',
    });
    expect(initialAnswers(fields, {})).toEqual({ a: '', b: false, c: '', d: '' });
  });
});

describe('validateAnswer', () => {
  it.each([
    [field({ required: true }), '', 'This field is required.'],
    [field({ required: true }), '  ', 'This field is required.'],
    [field({}), '', undefined],
    [field({ minLength: 3 }), 'ab', 'Enter at least 3 characters.'],
    [field({ maxLength: 3 }), 'abcd', 'Enter at most 3 characters.'],
    [field({ type: 'number' }), '1.5', 'Enter a whole number.'],
    [field({ type: 'number', min: 1, max: 10 }), '0', 'Enter a number of at least 1.'],
    [field({ type: 'number', min: 1, max: 10 }), '11', 'Enter a number of at most 10.'],
    [field({ type: 'number', min: 1, max: 10 }), '10', undefined],
    [field({ type: 'date' }), '2026-02-30', 'Enter a valid date.'],
    [field({ type: 'date', minDate: '2026-01-01' }), '2025-12-31', 'Choose a date on or after Jan 1, 2026.'],
    [field({ type: 'date', maxDate: '2026-01-01' }), '2026-01-01', undefined],
    [field({ type: 'select', options: [{ value: 'a', label: 'A' }] }), 'b', 'Choose one of the options.'],
    [field({ type: 'checkbox', required: true }), false, 'Check this box to continue.'],
    [field({ type: 'checkbox', required: true }), true, undefined],
    [field({ type: 'checkbox' }), false, undefined],
  ])('%j with %j → %s', (definition, answer, expected) => {
    expect(validateAnswer(definition, answer)).toBe(expected);
  });
});

describe('customFieldData', () => {
  const fields = [
    field({ slug: 'team', required: true }),
    field({ slug: 'size', type: 'number', max: 10 }),
    field({ slug: 'terms', type: 'checkbox', required: true }),
    field({ slug: 'note' }),
  ];

  it('sends every answer as its wire type at confirm', () => {
    expect(customFieldData(fields, { team: 'Ops', size: '4', terms: true, note: '' }, { onlyValid: false })).toEqual({
      team: 'Ops',
      size: 4,
      terms: true,
      note: null,
    });
  });

  it('leaves out answers the API would refuse while the buyer is still typing', () => {
    expect(customFieldData(fields, { team: '', size: '40', terms: false, note: 'x' }, { onlyValid: true })).toEqual({
      team: null,
      terms: false,
      note: 'x',
    });
  });

  it('keys every problem as the API does', () => {
    expect(customFieldErrors(fields, { team: '', size: '40', terms: false })).toEqual({
      'custom_field_data.team': 'This field is required.',
      'custom_field_data.size': 'Enter a number of at most 10.',
      'custom_field_data.terms': 'Check this box to continue.',
    });
  });
});
