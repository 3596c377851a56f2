import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { buildOpenApiDocument } from './openapi.js';
import { defineRoute, type AnyRoute } from './route.js';

// A component read both ways: as input `kind` may be left out (it has a default), as output it is always there.
const Tag = z.object({ name: z.string().max(20), kind: z.enum(['a', 'b']).default('a') }).meta({ id: 'TestTag' });
const TagSet = z
  .object({
    tags: z.array(Tag),
    note: z.string().max(10).nullable().describe('A short note.'),
    value: z.union([z.string(), z.number(), z.boolean()]),
    choice: z.discriminatedUnion('type', [
      z.object({ type: z.literal('x'), x: z.string() }),
      z.object({ type: z.literal('y'), y: z.string() }),
    ]),
    pair: z.tuple([z.string(), z.string()]).nullable(),
  })
  .meta({ id: 'TestTagSet' });
// Only ever read as input: no alternate name of its own, yet what it holds is the input side.
const TagCreate = z.object({ tag: Tag }).meta({ id: 'TestTagCreate' });

const routes = [
  defineRoute({
    method: 'POST',
    path: '/v1/test/',
    operationId: 'test:create',
    summary: 'Create',
    tags: ['test'],
    auth: { subjects: ['organization'], scopes: [] },
    body: TagSet,
    status: 200,
    response: TagSet,
    handler: async () => ({}) as never,
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/test/tags',
    operationId: 'test:tag',
    summary: 'Tag',
    tags: ['test'],
    auth: { subjects: ['organization'], scopes: [] },
    body: TagCreate,
    status: 204,
    response: undefined,
    handler: async () => undefined as never,
  }),
] as AnyRoute[];

const document = buildOpenApiDocument(routes, { version: 'test' });
const schemas = document.components.schemas as Record<string, Record<string, unknown>>;
const body = (document.paths['/v1/test/'] as any).post.requestBody.content['application/json'].schema;
const response = (document.paths['/v1/test/'] as any).post.responses['200'].content['application/json'].schema;

describe('the OpenAPI document', () => {
  it('names a schema that reads differently as input and output twice, each side referring to its own', () => {
    expect(response).toEqual({ $ref: '#/components/schemas/TestTagSet' });
    expect(body).toEqual({ $ref: '#/components/schemas/TestTagSetInput' });
    const tagsOf = (name: string) => ((schemas[name]!.properties as any).tags.items as { $ref: string }).$ref;
    expect(schemas.TestTag!.required).toEqual(['name', 'kind']);
    expect(schemas.TestTagInput!.required).toEqual(['name']);
    expect(tagsOf('TestTagSet')).toBe('#/components/schemas/TestTag');
    expect(tagsOf('TestTagSetInput')).toBe('#/components/schemas/TestTagInput');
    expect(schemas.TestTagCreateInput).toBeUndefined();
    expect((schemas.TestTagCreate!.properties as any).tag).toEqual({ $ref: '#/components/schemas/TestTagInput' });
  });

  it('spells unions of types as anyOf, with descriptions outside and constraints inside', () => {
    const properties = schemas.TestTagSet!.properties as Record<string, Record<string, unknown>>;
    expect(properties.note).toEqual({
      description: 'A short note.',
      anyOf: [{ type: 'string', maxLength: 10 }, { type: 'null' }],
    });
    expect(properties.value).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] });
    expect(Object.keys(properties.choice!)).toEqual(['anyOf']);
    const text = JSON.stringify(document);
    expect(text).not.toContain('"oneOf"');
    expect(text).not.toMatch(/"type":\[/);
    expect(text).not.toContain('"items":false');
    expect(text).not.toMatch(/"id":"TestTag/);
  });
});
