import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../platform/http/errors.js';
import { parseCustomFieldData, validateCustomFieldData, type CustomFieldDataField } from './custom-fields.data.js';

const text = (required = false, properties: object = {}): CustomFieldDataField => ({
  slug: 'company',
  type: 'text',
  properties,
  required,
});
const number = (required = false, properties: object = {}): CustomFieldDataField => ({
  slug: 'seats',
  type: 'number',
  properties,
  required,
});
const date = (required = false, properties: object = {}): CustomFieldDataField => ({
  slug: 'birthday',
  type: 'date',
  properties,
  required,
});
const checkbox = (required = false): CustomFieldDataField => ({
  slug: 'terms',
  type: 'checkbox',
  properties: {},
  required,
});
const select = (required = false): CustomFieldDataField => ({
  slug: 'plan',
  type: 'select',
  properties: {
    options: [
      { value: 'a', label: 'A' },
      { value: 'b', label: 'B' },
      { value: 'c', label: 'C' },
    ],
  },
  required,
});

// 2024-01-01T00:00:00Z and 2024-12-31T12:00:00Z as Unix seconds.
const JAN_1 = 1704067200;
const DEC_31_NOON = 1735646400;

type Row = [string, CustomFieldDataField, unknown, { value?: unknown; issue?: [string, string] }];

const rows: Row[] = [
  // Required and missing.
  ['required text missing', text(true), undefined, { issue: ['missing', 'Field required'] }],
  ['required number missing', number(true), undefined, { issue: ['missing', 'Field required'] }],
  ['required select missing', select(true), undefined, { issue: ['missing', 'Field required'] }],
  ['required checkbox missing', checkbox(true), undefined, { issue: ['missing', 'Field required'] }],
  ['required text null', text(true), null, { issue: ['string_type', 'Input should be a valid string'] }],
  // Optional and missing or null: null, or false for checkboxes.
  ['optional text missing', text(), undefined, { value: null }],
  ['optional text null', text(), null, { value: null }],
  ['optional number null', number(), null, { value: null }],
  ['optional checkbox missing', checkbox(), undefined, { value: false }],
  ['optional checkbox null', checkbox(), null, { value: false }],
  // Text.
  ['text', text(true), 'Acme', { value: 'Acme' }],
  ['text wrong type', text(), 12, { issue: ['string_type', 'Input should be a valid string'] }],
  [
    'text too short',
    text(false, { min_length: 3 }),
    'ab',
    { issue: ['string_too_short', 'String should have at least 3 characters'] },
  ],
  ['text at min length', text(false, { min_length: 3 }), 'abc', { value: 'abc' }],
  ['text at max length', text(false, { max_length: 3 }), 'abc', { value: 'abc' }],
  [
    'text too long',
    text(false, { max_length: 3 }),
    'abcd',
    { issue: ['string_too_long', 'String should have at most 3 characters'] },
  ],
  ['text length counts characters', text(false, { max_length: 2 }), '😀😀', { value: '😀😀' }],
  // Number.
  ['number', number(true), 5, { value: 5 }],
  ['number from an integer string', number(), '42', { value: 42 }],
  ['number integral float', number(), 3.0, { value: 3 }],
  [
    'number fractional',
    number(),
    2.5,
    { issue: ['int_from_float', 'Input should be a valid integer, got a number with a fractional part'] },
  ],
  [
    'number from text',
    number(),
    'many',
    { issue: ['int_parsing', 'Input should be a valid integer, unable to parse string as an integer'] },
  ],
  ['number wrong type', number(), true, { issue: ['int_type', 'Input should be a valid integer'] }],
  ['number at ge', number(false, { ge: 1, le: 10 }), 1, { value: 1 }],
  ['number at le', number(false, { ge: 1, le: 10 }), 10, { value: 10 }],
  [
    'number below ge',
    number(false, { ge: 1 }),
    0,
    { issue: ['greater_than_equal', 'Input should be greater than or equal to 1'] },
  ],
  [
    'number above le',
    number(false, { le: 10 }),
    11,
    { issue: ['less_than_equal', 'Input should be less than or equal to 10'] },
  ],
  ['number with ge 0', number(false, { ge: 0 }), -1, { issue: ['greater_than_equal', expect.any(String) as never] }],
  // Date.
  ['date-time', date(true), '2024-06-01T10:30:00Z', { value: '2024-06-01T10:30:00.000Z' }],
  ['date-time with offset', date(), '2024-06-01T10:30:00+02:00', { value: '2024-06-01T08:30:00.000Z' }],
  ['date alone', date(), '2024-06-01', { value: '2024-06-01T00:00:00.000Z' }],
  ['date as a Unix timestamp', date(), JAN_1, { value: '2024-01-01T00:00:00.000Z' }],
  ['date not a date', date(), 'tomorrow', { issue: ['datetime_parsing', 'Input should be a valid datetime'] }],
  ['date impossible', date(), '2024-02-30', { issue: ['datetime_parsing', 'Input should be a valid datetime'] }],
  ['date wrong type', date(), true, { issue: ['datetime_type', 'Input should be a valid datetime'] }],
  ['date on the ge day', date(false, { ge: JAN_1 }), '2024-01-01T00:00:00Z', { value: '2024-01-01T00:00:00.000Z' }],
  [
    'date before ge',
    date(false, { ge: JAN_1 }),
    '2023-12-31T23:59:59Z',
    { issue: ['greater_than_equal', 'Input should be greater than or equal to 2024-01-01'] },
  ],
  // The le bound is a calendar day: later the same day is still allowed.
  [
    'date later on the le day',
    date(false, { le: DEC_31_NOON }),
    '2024-12-31T23:00:00Z',
    { value: '2024-12-31T23:00:00.000Z' },
  ],
  [
    'date after le',
    date(false, { le: DEC_31_NOON }),
    '2025-01-01',
    { issue: ['less_than_equal', 'Input should be less than or equal to 2024-12-31'] },
  ],
  // Select.
  ['select', select(true), 'b', { value: 'b' }],
  ['select not an option', select(true), 'z', { issue: ['literal_error', "Input should be 'a', 'b' or 'c'"] }],
  ['select wrong type', select(), 1, { issue: ['literal_error', "Input should be 'a', 'b' or 'c'"] }],
  ['select option labels are not values', select(), 'A', { issue: ['literal_error', expect.any(String) as never] }],
  // Checkbox.
  ['required checkbox true', checkbox(true), true, { value: true }],
  ['required checkbox false', checkbox(true), false, { issue: ['literal_error', 'Input should be True'] }],
  ['required checkbox truthy string', checkbox(true), 'true', { issue: ['literal_error', 'Input should be True'] }],
  ['optional checkbox false', checkbox(), false, { value: false }],
  ['optional checkbox true', checkbox(), true, { value: true }],
  ['optional checkbox lax string', checkbox(), 'yes', { value: true }],
  [
    'optional checkbox not a boolean',
    checkbox(),
    'maybe',
    { issue: ['bool_parsing', 'Input should be a valid boolean'] },
  ],
];

describe('validateCustomFieldData', () => {
  it.each(rows)('%s', (_name, field, value, expected) => {
    const data = value === undefined ? {} : { [field.slug]: value };
    const result = validateCustomFieldData([field], data);
    if (expected.issue) {
      expect(result.issues).toEqual([
        { loc: ['body', 'custom_field_data', field.slug], type: expected.issue[0], msg: expected.issue[1] },
      ]);
    } else {
      expect(result.issues).toEqual([]);
      expect(result.data).toEqual({ [field.slug]: expected.value });
    }
  });

  it('drops keys of fields that are not attached and returns every attached slug', () => {
    const result = validateCustomFieldData([text(), number(), checkbox()], { company: 'Acme', unknown: 'x' });
    expect(result.issues).toEqual([]);
    expect(result.data).toEqual({ company: 'Acme', seats: null, terms: false });
  });

  it('reports every problem at once', () => {
    const result = validateCustomFieldData([text(true), number(true, { le: 3 }), select(true), checkbox(true)], {
      seats: 4,
      plan: 'z',
      terms: false,
    });
    expect(result.issues.map((issue) => [issue.loc.at(-1), issue.type])).toEqual([
      ['company', 'missing'],
      ['seats', 'less_than_equal'],
      ['plan', 'literal_error'],
      ['terms', 'literal_error'],
    ]);
  });

  it('checks types only when required-ness is not enforced (checkout create and update)', () => {
    const fields = [text(true), checkbox(true), number(true)];
    const result = validateCustomFieldData(fields, { terms: null, seats: null }, { validateRequired: false });
    expect(result.issues).toEqual([]);
    expect(result.data).toEqual({ company: null, terms: false, seats: null });
    const wrong = validateCustomFieldData(fields, { seats: 'x', terms: false }, { validateRequired: false });
    expect(wrong.issues.map((issue) => issue.loc.at(-1))).toEqual(['seats']);
    expect(wrong.data.terms).toBe(false);
  });

  it('accepts no data at all and honours a custom location', () => {
    expect(validateCustomFieldData([text()], null).data).toEqual({ company: null });
    const result = validateCustomFieldData([text(true)], undefined, { loc: ['custom_field_data'] });
    expect(result.issues[0]!.loc).toEqual(['custom_field_data', 'company']);
  });

  it('parseCustomFieldData throws one 422 or returns the clean data', () => {
    expect(parseCustomFieldData([number()], { seats: '7' })).toEqual({ seats: 7 });
    expect(() => parseCustomFieldData([number(true)], {})).toThrow(RequestValidationError);
  });
});
