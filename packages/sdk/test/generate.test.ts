import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../scripts/generate.js';
import { Tessera } from '../src/index.js';
import { localServer, sendJson } from './servers.js';

const sdkRoot = resolve(fileURLToPath(import.meta.url), '../..');
const document = JSON.parse(readFileSync(resolve(sdkRoot, '../../openapi.json'), 'utf8'));

/** A document with what openapi.json does not have yet: a customer-portal operation, a form body, text. */
const fixture = {
  openapi: '3.1.0',
  info: { title: 'fixture', version: '1' },
  paths: {
    '/v1/customer-portal/orders/{id}': {
      get: {
        operationId: 'customer_portal.orders:get',
        summary: 'Get an order of the customer',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } },
          },
          '404': {
            description: 'ResourceNotFound',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/NamedError' } } },
          },
        },
        security: [{ customer_session: [] }],
      },
    },
    '/v1/oauth2/token': {
      post: {
        operationId: 'oauth2:token',
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                properties: {
                  grant_type: { type: 'string', enum: ['refresh_token'] },
                  refresh_token: { type: 'string' },
                },
                required: ['grant_type', 'refresh_token'],
              },
            },
          },
        },
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: {} } } } },
        security: [{}],
      },
    },
    '/v1/subscriptions/export': {
      get: {
        operationId: 'subscriptions:export',
        responses: { '200': { description: 'csv', content: { 'text/csv': { schema: { type: 'string' } } } } },
        security: [{ access_token: [] }],
      },
    },
  },
  components: {
    schemas: {
      Order: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          status: { enum: ['paid', 'refunded', null], anyOf: [{ type: 'string' }, { type: 'null' }] },
          children: { type: 'array', items: { $ref: '#/components/schemas/Order' } },
        },
        required: ['id', 'status'],
      },
      NamedError: {
        type: 'object',
        properties: { error: { type: 'string' }, detail: { type: 'string' } },
        required: ['error', 'detail'],
      },
    },
    securitySchemes: {
      access_token: { type: 'http', scheme: 'bearer' },
      customer_session: { type: 'http', scheme: 'bearer' },
    },
  },
};

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('generator', () => {
  it('is deterministic', () => {
    expect(generate(structuredClone(document))).toEqual(generate(structuredClone(document)));
  });

  it('covers every operation of openapi.json with a function, a facade method and a reference section', async () => {
    const operations = await import('../src/generated/operations.js');
    const reference = readFileSync(resolve(sdkRoot, 'REFERENCE.md'), 'utf8');
    const tessera = new Tessera({ serverURL: 'http://127.0.0.1:1' });
    let count = 0;
    for (const [path, item] of Object.entries<Record<string, { operationId: string }>>(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        count++;
        const name = operation.operationId
          .split(/[^A-Za-z0-9]+/)
          .map((word, i) => (i === 0 ? word : word[0]!.toUpperCase() + word.slice(1)))
          .join('');
        const fn = (operations as Record<string, unknown>)[name];
        expect(typeof fn, operation.operationId).toBe('function');
        const descriptor = (operations as unknown as Record<string, { method: string; path: string }>)[
          `${name}Operation`
        ];
        expect(descriptor).toMatchObject({ method: method.toUpperCase(), path });
        // The facade nests one level per `:` segment (`customer_portal:license_keys:list`).
        const segments = operation.operationId
          .split(':')
          .map((segment) => segment.replace(/[-_](.)/g, (_, c: string) => c.toUpperCase()));
        let target: unknown = tessera;
        for (const segment of segments) target = (target as Record<string, unknown> | undefined)?.[segment];
        expect(typeof target, operation.operationId).toBe('function');
        expect(reference).toContain(`\`${operation.operationId}\` — \`${method.toUpperCase()} ${path}\``);
      }
    }
    expect(count).toBeGreaterThan(40);
  });

  it('generates customer-portal operations that require a customer session, form bodies and text answers', async () => {
    const files = generate(structuredClone(fixture));
    const operations = files['src/generated/operations.ts']!;
    expect(operations).toContain('export function customerPortalOrdersGet(');
    expect(operations).toContain('options: CustomerSessionRequestOptions');
    expect(operations).toContain('security: [["customer"]]');
    expect(operations).toContain('readonly customerPortal: CustomerPortalResource;');
    expect(operations).toContain('body: { mediaType: "application/x-www-form-urlencoded", required: true }');
    expect(files['src/generated/zod.ts']).toContain('status: z.enum(["paid", "refunded"]).nullable()');
    expect(files['src/generated/zod.ts']).toContain('children: z.array(OrderSchema).optional()');
    expect(files['REFERENCE.md']).toContain('Security: customer_session (pass `options.customerSession`)');

    // Run the generated code: write it next to the runtime and call a local server.
    const dir = mkdtempSync(join(sdkRoot, 'test', '.fixture-'));
    scratch.push(dir);
    mkdirSync(join(dir, 'src', 'generated'), { recursive: true });
    symlinkSync(resolve(sdkRoot, 'src', 'lib'), join(dir, 'src', 'lib'), 'dir');
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
    const generated = await import(join(dir, 'src', 'generated', 'operations.ts'));

    const seen = await localServer((request, res) => {
      if (request.url.startsWith('/v1/customer-portal/')) sendJson(res, 200, { id: 'o1', status: 'paid', extra: 1 });
      else if (request.url.startsWith('/v1/oauth2/token')) sendJson(res, 200, { access_token: 'x' });
      else {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.end('id\n1\n');
      }
    });
    try {
      const client = new generated.Tessera({ serverURL: seen.url, accessToken: 'polar_oat_org' });
      await expect(
        generated.customerPortalOrdersGet(client, { id: 'o1' }, { customerSession: 'polar_cst_1' }),
      ).resolves.toEqual({ id: 'o1', status: 'paid' });
      await expect(client.customerPortal.orders.get({ id: 'o1' }, {} as never)).rejects.toThrow(
        'Security requirements not met in order to perform the operation',
      );
      await expect(
        client.oauth2.token({ body: { grant_type: 'refresh_token', refresh_token: 'r t' } }),
      ).resolves.toEqual({ access_token: 'x' });
      await expect(client.subscriptions.export()).resolves.toBe('id\n1\n');

      expect(seen.requests.map((r) => [r.method, r.url, r.headers.authorization ?? null])).toEqual([
        ['GET', '/v1/customer-portal/orders/o1', 'Bearer polar_cst_1'],
        ['POST', '/v1/oauth2/token', null],
        ['GET', '/v1/subscriptions/export', 'Bearer polar_oat_org'],
      ]);
      expect(seen.requests[1]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(seen.requests[1]!.body).toBe('grant_type=refresh_token&refresh_token=r+t');
    } finally {
      await seen.close();
    }
  });
});
