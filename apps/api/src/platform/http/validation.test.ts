import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { MetadataInput } from './metadata.js';
import { safeParseInput, toValidationIssues, unstorableTextIssues } from './validation.js';

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

describe('text no column can hold', () => {
  const Schema = z.object({ name: z.string(), metadata: z.record(z.string(), z.string()), tags: z.array(z.string()) });
  const valid = { name: 'ok', metadata: {}, tags: [] };

  it.each([
    ['a NUL byte', { ...valid, name: 'a\u0000b' }, ['body', 'name']],
    ['a lone high surrogate', { ...valid, metadata: { key: '\ud800' } }, ['body', 'metadata', 'key']],
    ['a lone low surrogate', { ...valid, tags: ['x', 'a\udc00'] }, ['body', 'tags', 1]],
    ['a NUL in a key', { ...valid, metadata: { 'k\u0000': 'v' } }, ['body', 'metadata', 'k\u0000']],
    ['a reversed pair', { ...valid, name: '\udc00\ud800' }, ['body', 'name']],
  ])('refuses %s with a 422 issue at its field', (_label, value, loc) => {
    expect(issuesOf(Schema, value)).toEqual([{ loc, msg: expect.stringContaining('NUL'), type: 'string_unicode' }]);
  });

  it('refuses such text even where the schema accepts anything', () => {
    expect(issuesOf(z.unknown(), { deep: [[{ x: '\u0000' }]] })).toEqual([
      { loc: ['body', 'deep', 0, 0, 'x'], msg: expect.any(String), type: 'string_unicode' },
    ]);
  });

  it("lists the schema's other problems with it, one issue per field", () => {
    expect(issuesOf(Schema, { name: 'a\u0000', metadata: { k: 1 } })).toEqual([
      { loc: ['body', 'name'], msg: expect.any(String), type: 'string_unicode' },
      { loc: ['body', 'metadata', 'k'], msg: expect.any(String), type: 'string_type' },
      { loc: ['body', 'tags'], msg: 'Field required', type: 'missing' },
    ]);
  });

  it('accepts paired surrogates (emoji) and other control characters', () => {
    expect(issuesOf(Schema, { ...valid, name: 'ok 😀 \u0001\t' })).toEqual([]);
  });

  it('walks deep nesting without recursion', () => {
    let deep: unknown = 'a\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(unstorableTextIssues(deep)).toHaveLength(1);
  });
});
