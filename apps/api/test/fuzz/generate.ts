import fc from 'fast-check';
import type { JsonSchema, OpenApiDocument, Operation, Parameter } from './openapi.js';

/**
 * fast-check arbitraries for the requests of one operation, derived from its schemas in openapi.json:
 * values the document allows (edges included: a documented integer with no maximum may be 2^53 − 1),
 * the same values with one part made hostile (wrong types, NUL and lone surrogates, integers past
 * every column, missing and unknown keys), and raw garbage.
 */

const MAX_DEPTH = 6;
const INT32_MAX = 2_147_483_647;

/** Values no well-behaved client sends, anywhere a value goes. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfff',
    '\udc00\ud800',
    '',
    ' ',
    '%00',
    '%zz',
    '../../etc/passwd',
    "' OR 1=1 --",
    '😀'.repeat(40),
    'null',
    'true',
    '-1',
    '1e999',
    'NaN',
    '2147483648',
    '9999999999999999999999',
    '2026-02-30T25:61:00Z',
    '0001-01-01T00:00:00Z',
    '9999-12-31T23:59:59+14:00',
    '__proto__',
  ),
  fc.constantFrom(
    INT32_MAX + 1,
    -INT32_MAX - 2,
    INT32_MAX,
    -INT32_MAX - 1,
    2 ** 53,
    -(2 ** 53),
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
    1e308,
    -1e308,
    -1,
    0,
    0.5,
    -0.000001,
    1.5,
  ),
  fc.constantFrom<unknown>(null, true, false, [], {}, [null], { a: 1 }, [[[[]]]]),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ minLength: 300, maxLength: 3000 }),
  fc.jsonValue({ maxDepth: 2 }),
);

export interface Pools {
  /** Ids of real resources, so generated requests reach past "not found". */
  uuids: string[];
  /** Values for properties of these names (a real product for `product_id`…), besides generated ones. */
  named: Record<string, unknown[]>;
}

export class RequestArbitraries {
  private readonly cache = new Map<JsonSchema, fc.Arbitrary<unknown>>();

  constructor(
    private readonly document: OpenApiDocument,
    private readonly pools: Pools,
  ) {}

  private resolve(schema: JsonSchema): JsonSchema {
    let current = schema;
    while (current.$ref) {
      const name = String(current.$ref).replace('#/components/schemas/', '');
      current = this.document.components.schemas[name] ?? {};
    }
    return current;
  }

  /** A value the schema documents as acceptable. */
  valid(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
    if (!schema || depth > MAX_DEPTH) return fc.constant(null);
    const cached = this.cache.get(schema);
    if (cached) return cached;
    const arbitrary = this.build(this.resolve(schema), depth);
    this.cache.set(schema, arbitrary);
    return arbitrary;
  }

  private build(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
    const branches = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(branches)) return fc.oneof(...branches.map((b: JsonSchema) => this.valid(b, depth + 1)));
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return this.valid(schema.allOf[0], depth + 1);
    const type = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (type.length > 1) return fc.oneof(...type.map((t: string) => this.build({ ...schema, type: t }, depth)));
    switch (type[0]) {
      case 'string':
        return this.string(schema);
      case 'integer':
        return this.integer(schema);
      case 'number':
        return this.number(schema);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return this.array(schema, depth);
      case 'object':
        return this.object(schema, depth);
      default:
        return schema.properties ? this.object(schema, depth) : fc.jsonValue({ maxDepth: 2 });
    }
  }

  private string(schema: JsonSchema): fc.Arbitrary<string> {
    const minLength: number = schema.minLength ?? 0;
    const maxLength: number = schema.maxLength ?? Math.max(minLength, 40);
    switch (schema.format) {
      case 'uuid':
        return fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...this.pools.uuids) },
          { weight: 1, arbitrary: fc.uuid() },
        );
      case 'date-time':
        return fc
          .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true })
          .map((date) => date.toISOString());
      case 'email':
        return fc.stringMatching(/^[a-z0-9]{1,12}$/).map((local) => `${local}@example.com`);
      case 'uri':
        return fc.constantFrom('https://example.com/a', 'http://127.0.0.1:9/hook', 'https://example.com/logo.png');
    }
    if (typeof schema.pattern === 'string') {
      try {
        // Only the lengths the schema sets: the default bound above would refuse every value of a longer
        // pattern (a 44-character checksum), and fast-check's filter would then never return.
        const upTo: number = schema.maxLength ?? Number.POSITIVE_INFINITY;
        return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= minLength && s.length <= upTo);
      } catch {
        // A pattern fast-check cannot generate from (lookarounds): plain strings, mostly refused.
      }
    }
    const short = Math.min(maxLength, minLength + 24);
    // The document says "string": any character, a NUL or half a surrogate pair included.
    const unstorable = fc
      .tuple(fc.string({ minLength, maxLength: short }), fc.constantFrom('\u0000', '\ud800', '\udfff'))
      .map(([text, bad]) => (text.slice(0, Math.max(0, maxLength - 1)) + bad).padStart(minLength, 'a'));
    return fc.oneof(
      { weight: 4, arbitrary: fc.string({ minLength, maxLength: short }) },
      { weight: 1, arbitrary: unstorable },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength, maxLength: short }) },
      { weight: 1, arbitrary: fc.string({ minLength: maxLength, maxLength }) },
    );
  }

  private integer(schema: JsonSchema): fc.Arbitrary<number> {
    const min =
      schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : Number.MIN_SAFE_INTEGER);
    const max =
      schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : Number.MAX_SAFE_INTEGER);
    return fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: Math.max(min, -100), max: Math.max(Math.min(max, 5_000), min) }) },
      { weight: 1, arbitrary: fc.constantFrom(min, max) },
      { weight: 1, arbitrary: fc.integer({ min, max }) },
    );
  }

  private number(schema: JsonSchema): fc.Arbitrary<number> {
    const min = schema.minimum ?? schema.exclusiveMinimum ?? -1e12;
    const max = schema.maximum ?? schema.exclusiveMaximum ?? 1e12;
    return fc
      .double({ min, max, noNaN: true, noDefaultInfinity: true })
      .filter((n) => (schema.exclusiveMinimum === undefined || n > schema.exclusiveMinimum) && !Object.is(n, -0));
  }

  private array(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
    if (Array.isArray(schema.prefixItems)) {
      return fc.tuple(...schema.prefixItems.map((item: JsonSchema) => this.valid(item, depth + 1)));
    }
    const minLength: number = schema.minItems ?? 0;
    const maxLength: number = Math.min(schema.maxItems ?? minLength + 3, minLength + 3);
    return fc.array(this.valid(schema.items, depth + 1), { minLength, maxLength });
  }

  private object(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
    const properties: Record<string, JsonSchema> = schema.properties ?? {};
    const required: string[] = schema.required ?? [];
    const known = fc.record(
      Object.fromEntries(
        Object.entries(properties).map(([name, prop]) => {
          const generated = this.valid(prop, depth + 1);
          const named = this.pools.named[name];
          if (!named || named.length === 0) return [name, generated];
          return [
            name,
            fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...named) }, { weight: 2, arbitrary: generated }),
          ];
        }),
      ),
      { requiredKeys: required.filter((name) => name in properties) },
    );
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
      const keys = schema.propertyNames
        ? (this.valid(schema.propertyNames, depth + 1) as fc.Arbitrary<string>)
        : fc.string({ minLength: 1, maxLength: 12 });
      const extra = fc.dictionary(keys, this.valid(schema.additionalProperties, depth + 1), { maxKeys: 4 });
      return fc.tuple(extra, known).map(([a, b]) => ({ ...a, ...(b as object) }));
    }
    return known;
  }

  /** A valid value with one part replaced, removed, or joined by an unknown key. */
  mutated(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
    return fc
      .tuple(this.valid(schema), fc.nat(), hostileValue, fc.constantFrom('replace', 'delete', 'add'))
      .map(([value, pick, hostile, how]) => mutate(value, pick, hostile, how));
  }
}

type Path = (string | number)[];

function pathsOf(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (Array.isArray(value)) value.forEach((item, i) => pathsOf(item, [...path, i], out));
  else if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) pathsOf(item, [...path, key], out);
  return out;
}

function mutate(value: unknown, pick: number, hostile: unknown, how: string): unknown {
  const copy = structuredClone(value);
  const paths = pathsOf(copy);
  const path = paths[pick % paths.length]!;
  if (path.length === 0) return how === 'add' && copy && typeof copy === 'object' ? copy : hostile;
  const parent = path.slice(0, -1).reduce<any>((node, key) => node[key], copy);
  const last = path[path.length - 1]!;
  if (how === 'delete' && !Array.isArray(parent)) delete parent[last];
  else if (how === 'add' && parent && typeof parent === 'object' && !Array.isArray(parent))
    parent[`unknown_${String(last)}`] = hostile;
  else parent[last] = hostile;
  return copy;
}

/** How a request's body is sent. */
export type BodyInput =
  { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; contentType: string };

export interface GeneratedRequest {
  path: string;
  query: string;
  body: BodyInput;
  credentials: 'own' | 'none' | 'garbage';
  /** An `Idempotency-Key` header, now and then (a few shared values, so keys meet other requests). */
  idempotencyKey?: string;
}

const rawBodies = fc.oneof(
  fc.constantFrom(
    { text: '{', contentType: 'application/json' },
    { text: '{"a":1}{"b":2}', contentType: 'application/json' },
    { text: '[1,2', contentType: 'application/json' },
    { text: '"\\u0000"', contentType: 'application/json' },
    { text: '{"__proto__":{"admin":true}}', contentType: 'application/json' },
    { text: '{"constructor":{"prototype":{"x":1}}}', contentType: 'application/json' },
    { text: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
    { text: 'plain text', contentType: 'text/plain' },
    { text: '{}', contentType: 'application/json; charset=latin1' },
    { text: '   ', contentType: 'application/json' },
    { text: '1e999', contentType: 'application/json' },
    {
      text: '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
      contentType: 'application/json',
    },
  ),
  fc
    .jsonValue({ maxDepth: 3 })
    .map((value) => ({ text: JSON.stringify(value) ?? 'null', contentType: 'application/json' })),
);

function asText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
}

/** Percent-encodes like encodeURIComponent; a lone surrogate becomes the invalid UTF-8 that would carry it. */
export function encodeLoose(text: string): string {
  let out = '';
  for (const char of text) {
    try {
      out += encodeURIComponent(char);
    } catch {
      out += '%ED%A0%80';
    }
  }
  return out;
}

function queryValue(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(queryValue);
  if (value === null || value === undefined) return [];
  if (typeof value === 'object') return [JSON.stringify(value)];
  return [String(value)];
}

function serializeQuery(entries: [string, unknown][]): string {
  const parts: string[] = [];
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    if (name === 'metadata' && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, item] of Object.entries(value))
        for (const v of queryValue(item)) parts.push(`metadata[${encodeLoose(key)}]=${encodeLoose(v)}`);
      continue;
    }
    for (const v of queryValue(value)) parts.push(`${encodeLoose(name)}=${encodeLoose(v)}`);
  }
  return parts.join('&');
}

/**
 * Every request shape for one operation. `pathValue` gives the real value of a placeholder (a
 * resource of the world); generated ones replace it now and then.
 */
export function requestArbitrary(
  arbitraries: RequestArbitraries,
  operation: Operation,
  pathValue: (name: string, source: string) => string,
): fc.Arbitrary<GeneratedRequest> {
  const placeholders = [...operation.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1]!,
    source: operation.path.slice(0, m.index + m[0].length),
  }));
  const pathArb = fc
    .tuple(
      ...placeholders.map(({ name, source }) =>
        fc.oneof(
          { weight: 8, arbitrary: fc.constant(encodeLoose(pathValue(name, source))) },
          { weight: 1, arbitrary: fc.uuid() },
          { weight: 1, arbitrary: hostileValue.map((v) => encodeLoose(asText(v))) },
          { weight: 1, arbitrary: fc.constantFrom('%zz', '%', '%E0%A4%A', '%C0%AF', 'x'.repeat(3000), '..', '%2F') },
        ),
      ),
    )
    .map((values) => {
      let path = operation.path;
      placeholders.forEach(({ name }, i) => (path = path.replace(`{${name}}`, values[i]!)));
      return path;
    });

  const queryParams = operation.parameters.filter((p: Parameter) => p.in === 'query');
  const validQuery = fc.tuple(
    ...queryParams.map((p) =>
      fc.option(
        arbitraries.valid(p.schema).map((v) => [p.name, v] as [string, unknown]),
        { nil: undefined },
      ),
    ),
  );
  const queryArb = fc.oneof(
    { weight: 5, arbitrary: validQuery.map((entries) => serializeQuery(entries.filter((e) => e !== undefined))) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(validQuery, fc.constantFrom(...queryParams.map((p) => p.name), 'unknown', 'metadata'), hostileValue)
        .map(([entries, name, hostile]) =>
          serializeQuery([
            ...entries.filter((e) => e !== undefined),
            [name, name === 'metadata' ? { k: asText(hostile) } : hostile],
          ]),
        ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'page=1&page=2',
        'limit=0',
        'limit=101',
        'page=0',
        'page=-1',
        'page=1e3',
        'sorting=nope',
        'metadata[]=x',
        'metadata[a][b]=c',
        'a=%zz',
        '%00=%00',
        '&&&=&',
        'query=' + 'q'.repeat(2000),
      ),
    },
  );

  const bodyArb: fc.Arbitrary<BodyInput> = operation.body
    ? fc.oneof(
        { weight: 5, arbitrary: arbitraries.valid(operation.body).map((value) => ({ kind: 'json' as const, value })) },
        {
          weight: 4,
          arbitrary: arbitraries.mutated(operation.body).map((value) => ({ kind: 'json' as const, value })),
        },
        { weight: 1, arbitrary: rawBodies.map((raw) => ({ kind: 'raw' as const, ...raw })) },
        { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
      )
    : fc.oneof(
        { weight: 9, arbitrary: fc.constant({ kind: 'none' as const }) },
        { weight: 1, arbitrary: rawBodies.map((raw) => ({ kind: 'raw' as const, ...raw })) },
      );

  const credentialsArb = fc.oneof(
    { weight: 18, arbitrary: fc.constant('own' as const) },
    { weight: 1, arbitrary: fc.constant('none' as const) },
    { weight: 1, arbitrary: fc.constant('garbage' as const) },
  );

  return fc
    .record({
      path: pathArb,
      query: queryArb,
      body: bodyArb,
      credentials: credentialsArb,
      idempotencyKey: fc.oneof(
        { weight: 9, arbitrary: fc.constant(undefined) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            'fuzz-key-1',
            'fuzz-key-2',
            '',
            ' ',
            'k'.repeat(300),
            'with space',
            '"quoted"',
            '%00',
          ),
        },
      ),
    })
    .map((r) => ({ ...r, path: r.path }));
}
