import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestArbitraries } from './generate.js';
import type { OpenApiDocument } from './openapi.js';

const document: OpenApiDocument = { paths: {}, components: { schemas: {} } } as unknown as OpenApiDocument;
const arbitraries = new RequestArbitraries(document, { uuids: [], named: {} });

describe('RequestArbitraries.valid', () => {
  it('generates strings of a pattern longer than 40 characters when the schema sets no length', () => {
    // A SHA-256 checksum in base64 is 44 characters (files:create's parts).
    const checksum = /^[A-Za-z0-9+/]{43}=$/;
    const values = fc.sample(arbitraries.valid({ type: 'string', pattern: checksum.source }), { numRuns: 5, seed: 1 });
    expect(values).toHaveLength(5);
    for (const value of values) expect(value).toMatch(checksum);
  });

  it('keeps a pattern within the lengths the schema sets', () => {
    const values = fc.sample(
      arbitraries.valid({ type: 'string', pattern: '^[a-z]{1,30}$', minLength: 3, maxLength: 5 }),
      { numRuns: 20, seed: 1 },
    );
    for (const value of values as string[]) expect(value.length).toBeGreaterThanOrEqual(3);
    for (const value of values as string[]) expect(value.length).toBeLessThanOrEqual(5);
  });
});
