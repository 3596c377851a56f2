import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { MetadataInput } from './metadata.js';
import { safeParseInput, toValidationIssues } from './validation.js';

const issuesOf = (schema: z.ZodType, value: unknown) => {
  const result = safeParseInput(schema, value);
  if (result.success) return [];
  return toValidationIssues(result.error.issues, ['body']);
};

describe('toValidationIssues', () => {
  const Schema = z.object({
    name: z.string().min(3),
    count: z.int().min(1),
    kind: z.enum(['a', 'b']),
    nested: z.object({ flag: z.boolean() }),
  });

  it('reports every problem with loc, msg and type', () => {
    const issues = issuesOf(Schema, { name: 'x', count: 0, kind: 'c', nested: {} });
    expect(issues).toEqual([
      { loc: ['body', 'name'], msg: expect.any(String), type: 'string_too_short' },
      { loc: ['body', 'count'], msg: expect.any(String), type: 'greater_than_equal' },
      { loc: ['body', 'kind'], msg: expect.any(String), type: 'enum' },
      { loc: ['body', 'nested', 'flag'], msg: 'Field required', type: 'missing' },
    ]);
  });

  it('names wrong types', () => {
    expect(issuesOf(Schema.pick({ count: true }), { count: 'seven' })[0]).toMatchObject({
      type: 'number_type',
      msg: expect.stringContaining('expected number'),
    });
  });
});

describe('MetadataInput', () => {
  it('accepts strings, integers, numbers and booleans', () => {
    expect(MetadataInput.safeParse({ a: 'x', b: 1, c: 1.5, d: true }).success).toBe(true);
  });

  it.each([
    ['an empty key', { '': 'x' }],
    ['a key over 40 characters', { ['k'.repeat(41)]: 'x' }],
    ['an empty string value', { a: '' }],
    ['a value over 500 characters', { a: 'v'.repeat(501) }],
    ['a null value', { a: null }],
    ['an object value', { a: { nested: true } }],
    ['51 keys', Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]))],
  ])('rejects %s', (_label, value) => {
    expect(MetadataInput.safeParse(value).success).toBe(false);
  });
});
