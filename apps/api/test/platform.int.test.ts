import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../src/paths.js';
import { organizationFactory } from './factories/organizations.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ token } = await organizationFactory(server));
});
afterAll(() => server?.stop());

describe('health', () => {
  it('answers /healthz while the process lives', async () => {
    const response = await server.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ status: 'ok' });
  });

  it('answers /readyz when the database is reachable and migrated', async () => {
    const response = await server.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ status: 'ready' });
  });
});

describe('request ids', () => {
  it('echoes a well-formed x-request-id and generates one otherwise', async () => {
    const given = await server.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers['x-request-id']).toBe('abc-123');
    const generated = await server.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'bad id\n' } });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('OpenAPI', () => {
  it('serves the committed document', async () => {
    const response = await server.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const committed = JSON.parse(readFileSync(join(REPO_ROOT, 'openapi.json'), 'utf8'));
    expect(json(response)).toEqual(committed);
    expect(committed.openapi).toBe('3.1.0');
  });

  it('declares scopes on every authenticated operation', async () => {
    const document = json(await server.inject({ method: 'GET', url: '/openapi.json' }));
    for (const [path, operations] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        expect(Array.isArray(operation['x-tessera-scopes']), `${method} ${path}`).toBe(true);
      }
    }
  });

  it('serves a readable API reference at /docs', async () => {
    const response = await server.inject({ method: 'GET', url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toContain('swagger');
  });

  it('answers the same document at /docs/json as at /openapi.json (both built on first request)', async () => {
    const reference = json(await server.inject({ method: 'GET', url: '/docs/json' }));
    const document = json(await server.inject({ method: 'GET', url: '/openapi.json' }));
    expect(Object.keys(reference.paths).length).toBeGreaterThan(100);
    expect(reference).toEqual(document);
  });
});

describe('web app', () => {
  it('serves the web app at /', async () => {
    const response = await server.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Tessera');
  });
});

describe('error shapes', () => {
  it('answers an unknown route with a named 404', async () => {
    const response = await server.inject({ method: 'GET', url: '/v1/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(json(response)).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
  });

  it('answers malformed JSON with a 422 in the validation shape', async () => {
    const { organization } = await organizationFactory(server);
    const { token: own } = { token: (await organizationFactory(server)).token };
    const response = await server.inject({
      method: 'PATCH',
      url: `/v1/organizations/${organization.id}`,
      headers: { ...bearer(own), 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
  });

  it('answers a wrong content type with 415', async () => {
    const response = await server.inject({
      method: 'POST',
      url: '/v1/auth/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'email=a',
    });
    expect(response.statusCode).toBe(415);
    expect(json(response).error).toBe('UnsupportedMediaType');
  });

  it('answers an oversized body with 413', async () => {
    const response = await server.inject({
      method: 'POST',
      url: '/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(json(response).error).toBe('PayloadTooLarge');
  });

  it('answers a missing body with 422 at ["body"]', async () => {
    const response = await server.inject({ method: 'POST', url: '/v1/auth/login' });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail).toEqual([{ loc: ['body'], msg: 'Field required', type: 'missing' }]);
  });
});

describe('paging conventions', () => {
  const list = (query: string) =>
    server.inject({ method: 'GET', url: `/v1/organizations/?${query}`, headers: bearer(token) });

  it.each(['page=0', 'page=-1', 'page=abc', 'limit=0', 'limit=101', 'limit=1.5', 'page=1&page=2'])(
    'rejects %s with 422',
    async (query) => {
      const response = await list(query);
      expect(response.statusCode).toBe(422);
      expect(json(response).detail[0].loc[0]).toBe('query');
    },
  );

  it('accepts limit=100 and answers items with pagination', async () => {
    const response = await list('limit=100');
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({ items: expect.any(Array), pagination: { total_count: 1, max_page: 1 } });
  });

  it('rejects an unknown sorting key at ["query","sorting",…]', async () => {
    const response = await list('sorting=-nope');
    expect(response.statusCode).toBe(422);
    expect(json(response).detail[0].loc.slice(0, 2)).toEqual(['query', 'sorting']);
  });

  it('serves collection paths with and without the trailing slash', async () => {
    const withSlash = await server.inject({ method: 'GET', url: '/v1/organizations/', headers: bearer(token) });
    const without = await server.inject({ method: 'GET', url: '/v1/organizations', headers: bearer(token) });
    expect(withSlash.statusCode).toBe(200);
    expect(without.statusCode).toBe(200);
  });
});
