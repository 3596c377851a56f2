import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { credentialHeaders, loadDocument, operationsOf, type Operation } from './fuzz/openapi.js';
import { buildWorld, fillPath, worldValue, type World } from './fuzz/world.js';

/**
 * Every operation of openapi.json that pages (a `page` or `limit` query parameter), plain routes
 * included: 1 ≤ page ≤ 2^31 − 1 and 1 ≤ limit ≤ 100, anything else a 422 at the parameter in the
 * validation error shape, never a 500.
 */
let server: TestServer;
let world: World;

beforeAll(async () => {
  server = await startTestServer({ work: false });
  world = await buildWorld(server, 'Pages');
});
afterAll(async () => {
  await server?.stop();
});

const paged = operationsOf(loadDocument()).filter((op) =>
  op.parameters.some((parameter) => parameter.in === 'query' && ['page', 'limit'].includes(parameter.name)),
);

async function get(op: Operation, query: string) {
  const path = fillPath(op.path, (_name, source) => worldValue(world, source));
  return server.inject({ method: 'GET', url: `${path}?${query}`, headers: credentialHeaders(op, world) });
}

const OUT_OF_BOUNDS: Record<'page' | 'limit', string[]> = {
  page: ['99999999999999999999', '2147483648', '0', '-1', '1.5', '1e3'],
  limit: ['99999999999999999999', '101', '0', '-1', '2.5'],
};

describe('the paged operations of openapi.json', () => {
  it('are every list, the plain ones included, all GETs documenting the same bounds', () => {
    const ids = paged.map((op) => op.operationId);
    expect(ids).toEqual(
      expect.arrayContaining(['oauth2:clients:list', 'products:list', 'customer_portal:orders:list']),
    );
    expect(ids.length).toBeGreaterThan(30);
    for (const op of paged) {
      expect(op.method, op.operationId).toBe('GET');
      const schemas = Object.fromEntries(op.parameters.map((parameter) => [parameter.name, parameter.schema]));
      expect(schemas.page, op.operationId).toEqual({ default: 1, type: 'integer', minimum: 1, maximum: 2147483647 });
      expect(schemas.limit, op.operationId).toEqual({ default: 10, type: 'integer', minimum: 1, maximum: 100 });
    }
  });

  it.each(paged.map((op) => [op.operationId, op] as const))(
    '%s: a page or limit out of bounds is a 422 at it, the bounds themselves are served',
    async (_id, op) => {
      for (const [field, values] of Object.entries(OUT_OF_BOUNDS)) {
        for (const value of values) {
          const response = await get(op, `${field}=${value}`);
          expect(response.statusCode, `${field}=${value}: ${response.body}`).toBe(422);
          const body = response.json();
          expect(body.error, `${field}=${value}`).toBe('RequestValidationError');
          expect(body.detail.length, `${field}=${value}`).toBeGreaterThan(0);
          for (const issue of body.detail) {
            expect(issue, `${field}=${value}`).toEqual({
              loc: ['query', field],
              msg: expect.any(String),
              type: expect.any(String),
            });
          }
        }
      }
      for (const query of ['page=1&limit=1', 'page=2147483647&limit=100']) {
        const response = await get(op, query);
        expect(response.statusCode, `${query}: ${response.body}`).toBe(200);
      }
      expect((await get(op, 'page=2147483647&limit=100')).json().items).toEqual([]);
    },
  );
});
