import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, startTestServer, type TestServer } from './harness.js';
import { meterFactory } from './factories/benefits.js';
import { customerFactory } from './factories/customers.js';
import { licenseKeyFactory } from './factories/license-keys.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';

/**
 * Input no column can hold, integers beyond their columns and requests the framework refuses all
 * answer the documented error shape, never a 5xx, and change nothing.
 */
let server: TestServer;
let org: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  org = await organizationFactory(server);
});
afterAll(async () => {
  await server?.stop();
});

const auth = () => bearer(org.token);

function expectIssue(response: { statusCode: number; body: string }, loc: (string | number)[], type: string) {
  expect(response.statusCode, response.body).toBe(422);
  const body = json(response as never);
  expect(body.error).toBe('RequestValidationError');
  expect(body.detail).toContainEqual({ loc, msg: expect.any(String), type });
}

function expectShape(response: { statusCode: number; body: string }, status: number, error: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(JSON.parse(response.body)).toEqual({ error, detail: expect.any(String) });
}

/** A raw request over a socket, for what `inject` cannot send (bad encodings, oversized lines). */
function raw(path: string, headers: Record<string, string> = {}): Promise<{ statusCode: number; body: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method: 'GET', headers: { ...auth(), ...headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function productCount(): Promise<number> {
  const response = await server.inject({ method: 'GET', url: '/v1/products/?limit=1', headers: auth() });
  return json(response).pagination.total_count;
}

describe('text no column can hold (NUL, unpaired surrogates)', () => {
  it('is a 422 naming the query parameter', async () => {
    const response = await server.inject({ method: 'GET', url: '/v1/customers/?query=%00', headers: auth() });
    expectIssue(response, ['query', 'query'], 'string_unicode');
  });

  it('is a 422 naming the body field, and nothing is created', async () => {
    const before = await productCount();
    const response = await server.inject({
      method: 'POST',
      url: '/v1/products/',
      headers: { ...auth(), 'content-type': 'application/json' },
      payload: '{"name":"a\\u0000b","prices":[{"amount_type":"free"}]}',
    });
    expectIssue(response, ['body', 'name'], 'string_unicode');
    expect(await productCount()).toBe(before);
  });

  it('is a 422 for a lone surrogate in metadata, values and keys', async () => {
    for (const metadata of ['{"k":"\\ud800"}', '{"\\udc00":"v"}']) {
      const response = await server.inject({
        method: 'POST',
        url: '/v1/customers/',
        headers: { ...auth(), 'content-type': 'application/json' },
        payload: `{"email":"surrogate@example.com","metadata":${metadata}}`,
      });
      expect(response.statusCode, response.body).toBe(422);
      expect(json(response).detail[0]).toMatchObject({ loc: ['body', 'metadata', expect.any(String)] });
      expect(json(response).detail[0].type).toBe('string_unicode');
    }
  });

  it('is a 422 in a metadata filter and in a path value', async () => {
    expectIssue(
      await server.inject({ method: 'GET', url: '/v1/products/?metadata[k]=x%00', headers: auth() }),
      ['query', 'metadata', 'k'],
      'string_unicode',
    );
    expectIssue(
      await server.inject({ method: 'GET', url: '/v1/customers/external/a%00b', headers: auth() }),
      ['path', 'external_id'],
      'string_unicode',
    );
  });

  it('keeps accepting ordinary Unicode (emoji, accents)', async () => {
    const response = await server.inject({
      method: 'POST',
      url: '/v1/customers/',
      headers: auth(),
      payload: { email: 'unicode@example.com', name: 'Zoë 😀', metadata: { clé: 'välue 😀' } },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(json(response).name).toBe('Zoë 😀');
  });
});

const BEYOND_INT4 = 2_147_483_648;

async function postJson(url: string, payload: unknown, method: 'POST' | 'PATCH' = 'POST') {
  return server.inject({ method, url, headers: auth(), payload: payload as Record<string, unknown> });
}

describe('integers beyond their columns', () => {
  it('a discount max_redemptions beyond an integer column is a 422, and the last value that fits is kept', async () => {
    const base = { name: 'Big', type: 'percentage', duration: 'once', basis_points: 1000 };
    expectIssue(
      await postJson('/v1/discounts/', { ...base, max_redemptions: BEYOND_INT4 }),
      ['body', 'max_redemptions'],
      'less_than_equal',
    );
    const fits = await postJson('/v1/discounts/', { ...base, max_redemptions: BEYOND_INT4 - 1 });
    expect(fits.statusCode, fits.body).toBe(201);
    expect(json(fits).max_redemptions).toBe(BEYOND_INT4 - 1);
    expectIssue(
      await postJson(`/v1/discounts/${json(fits).id}`, { max_redemptions: BEYOND_INT4 }, 'PATCH'),
      ['body', 'max_redemptions'],
      'less_than_equal',
    );
  });

  it("a license-key benefit's limit_usage and ttl, and a meter credit's units, are bounded", async () => {
    const licenseKeys = (properties: Record<string, unknown>) => ({
      type: 'license_keys',
      description: 'Keys',
      properties: { prefix: null, expires: null, activations: null, limit_usage: null, ...properties },
    });
    expectIssue(
      await postJson('/v1/benefits/', licenseKeys({ limit_usage: BEYOND_INT4 })),
      ['body', 'properties', 'limit_usage'],
      'less_than_equal',
    );
    expectIssue(
      await postJson('/v1/benefits/', licenseKeys({ expires: { ttl: 2 ** 40, timeframe: 'day' } })),
      ['body', 'properties', 'expires', 'ttl'],
      'less_than_equal',
    );
    const meter = await meterFactory(server, org.organization.id);
    expectIssue(
      await postJson('/v1/benefits/', {
        type: 'meter_credit',
        description: 'Credits',
        properties: { units: BEYOND_INT4, rollover: false, meter_id: meter.id },
      }),
      ['body', 'properties', 'units'],
      'less_than_equal',
    );
  });

  it("a license key's usage and limit_usage are bounded", async () => {
    const key = await licenseKeyFactory(server, org.organization.id);
    for (const field of ['usage', 'limit_usage']) {
      expectIssue(
        await postJson(`/v1/license-keys/${key.id}`, { [field]: BEYOND_INT4 }, 'PATCH'),
        ['body', field],
        'less_than_equal',
      );
    }
  });

  it('a page beyond an integer is a 422', async () => {
    expectIssue(
      await server.inject({ method: 'GET', url: `/v1/products/?page=${BEYOND_INT4}`, headers: auth() }),
      ['query', 'page'],
      'less_than_equal',
    );
  });
});

describe('framework refusals in the documented shape', () => {
  it('a bad percent-encoding is a 400 {error, detail}', async () => {
    expectShape(await raw('/v1/benefits/%zz'), 400, 'BadRequest');
  });

  it('reads a customer by an external ID of 200 characters, and of 256 multi-byte characters', async () => {
    for (const externalId of ['x'.repeat(200), 'é'.repeat(256)]) {
      const customer = await customerFactory(server, org.organization.id, { external_id: externalId });
      const response = await raw(`/v1/customers/external/${encodeURIComponent(externalId)}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(JSON.parse(response.body).id).toBe(customer.id);
    }
  });

  it('a path parameter beyond any field is a 414 {error, detail}', async () => {
    expectShape(await raw(`/v1/customers/external/${'x'.repeat(5000)}`), 414, 'UriTooLong');
  });

  it('a huge query string is a 431 {error, detail}', async () => {
    expectShape(await raw(`/v1/products/?query=${'q'.repeat(70_000)}`), 431, 'RequestHeaderFieldsTooLarge');
  });

  it('a request the HTTP parser cannot read is a 400 {error, detail}', async () => {
    const url = new URL(server.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write('GET /v1/products/ HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n');
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(body!)).toEqual({ error: 'BadRequest', detail: expect.any(String) });
  });

  it('an unknown path under /v1 is a 404 {error, detail}', async () => {
    expectShape(await raw('/v1/nothing-here'), 404, 'ResourceNotFound');
  });

  it('a product can still be read after all of it', async () => {
    const product = await productFactory(server, org.organization.id);
    const response = await server.inject({ method: 'GET', url: `/v1/products/${product.product.id}`, headers: auth() });
    expect(response.statusCode).toBe(200);
  });
});
