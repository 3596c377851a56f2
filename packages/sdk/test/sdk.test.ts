import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../apps/api/test/harness.js';
import { organizationFactory, type OrganizationFixture } from '../../../apps/api/test/factories/organizations.js';
import {
  ConnectionError,
  HTTPValidationError,
  InsufficientScope,
  InvalidRequestError,
  InvalidToken,
  NamedAPIError,
  NotPermitted,
  ExpiredCheckoutError,
  PaymentError,
  RequestAbortedError,
  RequestTimeoutError,
  ResourceNotFound,
  ResponseValidationError,
  SDKError,
  SDKValidationError,
  SecurityError,
  Tessera,
  TesseraCore,
  UnexpectedClientError,
  call,
  customersCreate,
  customersDelete,
  customersGet,
  customersList,
  discountsCreate,
  organizationsGet,
  organizationsList,
  organizationsUpdate,
  schemas,
  type FetchLike,
  type Operation,
  type Organization,
} from '../src/index.js';
import { localServer, sendJson, type LocalServer } from './servers.js';

let server: TestServer;
let acme: OrganizationFixture;
let client: TesseraCore;
/** The organization as the real server serializes it (replayed by the local servers). */
let organization: Organization;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  acme = await organizationFactory(server, { name: 'Acme' });
  client = new TesseraCore({ serverURL: server.url, accessToken: acme.token });
  organization = await organizationsGet(client, { id: acme.organization.id });
});
afterAll(() => server?.stop());

const locals: LocalServer[] = [];
async function local(...args: Parameters<typeof localServer>): Promise<LocalServer> {
  const started = await localServer(...args);
  locals.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(locals.splice(0).map((started) => started.close()));
});

/** A fetch that counts the requests it makes. */
function countingFetch(): { fetch: FetchLike; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    fetch: (input, init) => {
      urls.push(input);
      return fetch(input, init);
    },
  };
}

describe('configuration', () => {
  it('calls the real server through standalone functions and the resource-grouped class', async () => {
    const page = await organizationsList(client, {});
    expect(page.result.items.map((item) => item.id)).toEqual([acme.organization.id]);
    expect(page.result.pagination).toEqual({ total_count: 1, max_page: 1 });

    const tessera = new Tessera({ serverURL: server.url, accessToken: acme.token });
    const updated = await tessera.organizations.update({
      id: acme.organization.id,
      body: { website: 'https://acme.example' },
    });
    expect(updated.website).toBe('https://acme.example');
    const again = await tessera.organizations.get({ id: acme.organization.id });
    expect(again.website).toBe('https://acme.example');
    expect(again.created_at).toMatch(/Z$|[+-]\d\d:\d\d$/);
  });

  it("fails with 'No base URL provided for operation' when no server URL is given, sending nothing", async () => {
    const counting = countingFetch();
    const bare = new TesseraCore({ accessToken: acme.token, fetch: counting.fetch });
    const error = await organizationsList(bare, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as Error).message).toBe('No base URL provided for operation');
    expect(counting.urls).toEqual([]);
    // A per-call server URL is enough.
    const page = await organizationsList(bare, {}, { serverURL: server.url });
    expect(page.result.items).toHaveLength(1);
  });

  it('appends the operation path to a base URL with a path prefix', async () => {
    const seen = await local((_, res) => sendJson(res, 200, organization));
    const prefixed = new TesseraCore({ serverURL: `${seen.url}/prefix`, accessToken: 't' });
    await organizationsGet(prefixed, { id: organization.id });
    expect(seen.requests[0]!.url).toBe(`/prefix/v1/organizations/${organization.id}`);
  });

  it('takes the bearer token from TESSERA_ACCESS_TOKEN when no option gives one', async () => {
    const previous = process.env.TESSERA_ACCESS_TOKEN;
    try {
      process.env.TESSERA_ACCESS_TOKEN = acme.token;
      const fromEnv = new TesseraCore({ serverURL: server.url });
      const page = await organizationsList(fromEnv, {});
      expect(page.result.items[0]!.id).toBe(acme.organization.id);

      // The option wins over the environment.
      const seen = await local((_, res) => sendJson(res, 200, organization));
      await organizationsGet(new TesseraCore({ serverURL: seen.url, accessToken: 'from-option' }), {
        id: organization.id,
      });
      await organizationsGet(new TesseraCore({ serverURL: seen.url, accessToken: async () => 'from-function' }), {
        id: organization.id,
      });
      expect(seen.requests.map((r) => r.headers.authorization)).toEqual(['Bearer from-option', 'Bearer from-function']);
    } finally {
      if (previous === undefined) delete process.env.TESSERA_ACCESS_TOKEN;
      else process.env.TESSERA_ACCESS_TOKEN = previous;
    }
  });

  it('sends no Authorization header when there is no token (the server answers 401)', async () => {
    const anonymous = new TesseraCore({ serverURL: server.url });
    const error = await organizationsList(anonymous, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NamedAPIError);
    expect((error as NamedAPIError).statusCode).toBe(401);
  });

  it('uses a custom fetch and passes per-call headers', async () => {
    const counting = countingFetch();
    const custom = new TesseraCore({ serverURL: server.url, accessToken: acme.token, fetch: counting.fetch });
    await organizationsGet(custom, { id: acme.organization.id }, { headers: { 'x-request-id': 'abc' } });
    expect(counting.urls).toEqual([`${server.url}/v1/organizations/${acme.organization.id}`]);
  });

  it('sends a customer session, never the organization token, to customer-portal operations', async () => {
    // No portal operation exists in openapi.json yet: this descriptor is what the generator emits for
    // an operation whose security requirement is a customer session (see generate.test.ts).
    const portalGet: Operation<{ id: string }, unknown> = {
      id: 'customer-portal:get',
      method: 'GET',
      path: '/v1/customer-portal/things/{id}',
      parameters: [{ name: 'id', in: 'path' }],
      request: schemas.OrganizationsGetRequestSchema,
      responses: [{ status: 200, mediaType: 'application/json' }],
      errors: {},
      security: [['customer']],
    };
    const seen = await local((_, res) => sendJson(res, 200, { ok: true }));
    const withToken = new TesseraCore({ serverURL: seen.url, accessToken: 'polar_oat_secret' });
    const error = await call(withToken, portalGet, { id: organization.id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecurityError);
    expect((error as Error).message).toBe('Security requirements not met in order to perform the operation');
    expect(seen.requests).toHaveLength(0);

    await call(withToken, portalGet, { id: organization.id }, { customerSession: 'polar_cst_abc' });
    expect(seen.requests.map((r) => r.headers.authorization)).toEqual(['Bearer polar_cst_abc']);
  });
});

describe('validation', () => {
  it("rejects invalid input with 'Input validation failed' and the server sees no request", async () => {
    const seen = await local((_, res) => sendJson(res, 200, organization));
    const counted = new TesseraCore({ serverURL: seen.url, accessToken: 't' });
    const attempts = [
      () => organizationsGet(counted, { id: 'not-a-uuid' }),
      () => organizationsList(counted, { limit: 1000 }),
      () => organizationsList(counted, { page: 1.5 }),
      () => organizationsList(counted, { sorting: ['-bogus' as never] }),
      // @ts-expect-error: the body is required
      () => organizationsUpdate(counted, { id: organization.id }),
      () => customersCreate(counted, { body: { email: 'not an email' } }),
    ];
    for (const attempt of attempts) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SDKValidationError);
      expect((error as Error).message).toBe('Input validation failed');
      expect((error as SDKValidationError).issues.length).toBeGreaterThan(0);
    }
    expect(seen.requests).toHaveLength(0);

    // Against the real server too: a counting fetch sees nothing.
    const counting = countingFetch();
    const real = new TesseraCore({ serverURL: server.url, accessToken: acme.token, fetch: counting.fetch });
    await expect(customersCreate(real, { body: { email: 'nope' } })).rejects.toThrow('Input validation failed');
    expect(counting.urls).toEqual([]);
  });

  it("validates responses: a body that does not match gives 'Response validation failed'", async () => {
    const seen = await local((_, res) =>
      sendJson(res, 200, { ...organization, slug: undefined, created_at: 'yesterday' }),
    );
    const error = await organizationsGet(new TesseraCore({ serverURL: seen.url }), { id: organization.id }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toBe('Response validation failed');
    expect((error as ResponseValidationError).statusCode).toBe(200);
    expect((error as ResponseValidationError).rawValue).toMatchObject({ created_at: 'yesterday' });
  });

  it('strips unknown response keys and returns the validated value', async () => {
    const seen = await local((_, res) => sendJson(res, 200, { ...organization, future_field: 1 }));
    const got = await organizationsGet(new TesseraCore({ serverURL: seen.url }), { id: organization.id });
    expect(got).toEqual(organization);
  });
});

describe('errors', () => {
  it('maps the catalogue errors of the real server to their classes', async () => {
    const missing = await organizationsGet(client, { id: '00000000-0000-4000-8000-000000000000' }).catch(
      (e: unknown) => e,
    );
    expect(missing).toBeInstanceOf(ResourceNotFound);
    expect(missing).toMatchObject({ statusCode: 404, error: 'ResourceNotFound' });
    expect((missing as ResourceNotFound).detail).toEqual(expect.any(String));
    expect((missing as ResourceNotFound).contentType).toMatch(/^application\/json/);

    const badToken = await organizationsList(
      new TesseraCore({ serverURL: server.url, accessToken: 'polar_oat_nope' }),
      {},
    ).catch((e: unknown) => e);
    expect(badToken).toBeInstanceOf(InvalidToken);
    expect(badToken).toMatchObject({ statusCode: 401 });
  });

  it('turns a server 422 into HTTPValidationError carrying the detail list', async () => {
    // A fixed discount without an amount passes the schema (amount is optional there) but not the server.
    const error = await discountsCreate(client, { body: { name: 'Broken', type: 'fixed', duration: 'once' } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HTTPValidationError);
    const detail = (error as HTTPValidationError).detail;
    expect(detail.length).toBeGreaterThan(0);
    expect(detail[0]).toEqual({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) });
  });

  it('has a class per catalogue name, whatever the status', async () => {
    const cases: [number, string, new (...args: never[]) => Error][] = [
      [410, 'ExpiredCheckoutError', ExpiredCheckoutError],
      [400, 'PaymentError', PaymentError],
      [403, 'NotPermitted', NotPermitted],
      [403, 'insufficient_scope', InsufficientScope],
    ];
    for (const [status, name, ErrorClass] of cases) {
      const seen = await local((_, res) => sendJson(res, status, { error: name, detail: `${name} happened` }));
      const error = await organizationsGet(new TesseraCore({ serverURL: seen.url }), { id: organization.id }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ErrorClass);
      expect(error).toBeInstanceOf(NamedAPIError);
      expect(error).toMatchObject({ statusCode: status, error: name, detail: `${name} happened` });
      expect((error as Error).message).toBe(`${name} happened`);
    }
  });

  it('gives a generic API error with status, content type and body for other 4XX/5XX', async () => {
    const seen = await local((_, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('boom');
    });
    const error = await organizationsGet(new TesseraCore({ serverURL: seen.url }), { id: organization.id }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SDKError);
    expect(error).toMatchObject({ statusCode: 500, contentType: 'text/plain', body: 'boom' });
  });

  it("answers 'Unexpected Status or Content-Type' for an undescribed success status or a non-JSON body", async () => {
    const wrongType = await local((_, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html></html>');
    });
    const wrongStatus = await local((_, res) => sendJson(res, 201, organization));
    for (const seen of [wrongType, wrongStatus]) {
      const error = await organizationsGet(new TesseraCore({ serverURL: seen.url }), { id: organization.id }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SDKError);
      expect((error as Error).message).toBe('Unexpected Status or Content-Type');
    }
  });

  it("reports 'Unable to make request' when nothing listens, and 'Unexpected HTTP client error' otherwise", async () => {
    const closed = await local((_, res) => {
      res.end();
    });
    const url = closed.url;
    await closed.close();
    const error = await organizationsGet(new TesseraCore({ serverURL: url }), { id: organization.id }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe('Unable to make request');

    const broken = new TesseraCore({
      serverURL: 'http://127.0.0.1:1',
      fetch: () => Promise.reject(new RangeError('odd')),
    });
    const unexpected = await organizationsGet(broken, { id: organization.id }).catch((e: unknown) => e);
    expect(unexpected).toBeInstanceOf(UnexpectedClientError);
    expect((unexpected as Error).message).toBe('Unexpected HTTP client error');
  });
});

describe('timeout and abort', () => {
  it("gives up a slow answer after timeoutMs with 'Request timed out' (no timeout by default)", async () => {
    const slow = await local((_, res) => {
      setTimeout(() => sendJson(res, 200, organization), 600);
    });
    const started = Date.now();
    const error = await organizationsGet(new TesseraCore({ serverURL: slow.url, timeoutMs: 100 }), {
      id: organization.id,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect((error as Error).message).toBe('Request timed out');
    expect(Date.now() - started).toBeLessThan(500);

    // Without a timeout the same answer arrives; a per-call timeout overrides the client's.
    const patient = new TesseraCore({ serverURL: slow.url, timeoutMs: 100 });
    await expect(organizationsGet(patient, { id: organization.id }, { timeoutMs: 5000 })).resolves.toEqual(
      organization,
    );
    await expect(organizationsGet(new TesseraCore({ serverURL: slow.url }), { id: organization.id })).resolves.toEqual(
      organization,
    );
  });

  it("rejects with 'Request aborted by client' when the signal aborts, before or during the call", async () => {
    // Aborted once the server holds the request, whose answer comes later: during the call, whatever the
    // machine's load.
    const controller = new AbortController();
    const slow = await local((_, res) => {
      controller.abort();
      setTimeout(() => sendJson(res, 200, organization), 600);
    });
    const slowClient = new TesseraCore({ serverURL: slow.url });
    const error = await organizationsGet(slowClient, { id: organization.id }, { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect((error as Error).message).toBe('Request aborted by client');
    expect(slow.requests).toHaveLength(1);

    const already = AbortSignal.abort();
    await expect(organizationsGet(slowClient, { id: organization.id }, { signal: already })).rejects.toBeInstanceOf(
      RequestAbortedError,
    );
    expect(slow.requests).toHaveLength(1);
  });
});

describe('retries', () => {
  it('retries 503 with Retry-After until success when configured, honouring the header', async () => {
    const flaky = await local((_, res, index) => {
      if (index < 2) sendJson(res, 503, { detail: 'busy' }, { 'retry-after': '1' });
      else sendJson(res, 200, organization);
    });
    const retrying = new TesseraCore({
      serverURL: flaky.url,
      // Tiny computed intervals: only Retry-After can make the waits last a second each.
      retryConfig: { strategy: 'backoff', backoff: { initialInterval: 1, maxInterval: 60_000, exponent: 1.5 } },
    });
    const started = Date.now();
    await expect(organizationsGet(retrying, { id: organization.id })).resolves.toEqual(organization);
    const elapsed = Date.now() - started;
    expect(flaky.requests).toHaveLength(3);
    expect(elapsed).toBeGreaterThanOrEqual(1900);
    expect(elapsed).toBeLessThan(5000);
  });

  it('does not retry by default', async () => {
    const flaky = await local((_, res) => sendJson(res, 503, { detail: 'busy' }, { 'retry-after': '1' }));
    const error = await organizationsGet(new TesseraCore({ serverURL: flaky.url }), { id: organization.id }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SDKError);
    expect((error as SDKError).statusCode).toBe(503);
    expect(flaky.requests).toHaveLength(1);
  });

  it('retries 429, 500, 502, 503 and 504 but not other statuses', async () => {
    for (const status of [429, 500, 502, 503, 504, 400, 501]) {
      const flaky = await local((_, res, index) => {
        if (index === 0) sendJson(res, status, { detail: 'no' }, { 'retry-after': '0' });
        else sendJson(res, 200, organization);
      });
      const retrying = new TesseraCore({
        serverURL: flaky.url,
        retryConfig: { strategy: 'backoff', backoff: { initialInterval: 1, maxInterval: 5 } },
      });
      const outcome = await organizationsGet(retrying, { id: organization.id }).then(
        () => 'ok',
        () => 'error',
      );
      expect([status, outcome, flaky.requests.length]).toEqual(
        [429, 500, 502, 503, 504].includes(status) ? [status, 'ok', 2] : [status, 'error', 1],
      );
    }
  });

  it('stops at the maximum elapsed time and reports the last answer', async () => {
    const flaky = await local((_, res) => sendJson(res, 503, { detail: 'busy' }, { 'retry-after': '1' }));
    const retrying = new TesseraCore({ serverURL: flaky.url });
    const error = await organizationsGet(
      retrying,
      { id: organization.id },
      { retries: { strategy: 'backoff', backoff: { maxElapsedTime: 500 } } },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SDKError);
    expect((error as SDKError).statusCode).toBe(503);
    expect(flaky.requests).toHaveLength(1);
  });

  it('aborting during a backoff wait ends the call', async () => {
    const flaky = await local((_, res) => sendJson(res, 503, { detail: 'busy' }, { 'retry-after': '30' }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await organizationsGet(
      new TesseraCore({ serverURL: flaky.url, retryConfig: { strategy: 'backoff' } }),
      { id: organization.id },
      { signal: controller.signal },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(flaky.requests).toHaveLength(1);
  });

  it('retries connection errors only when asked', async () => {
    const closed = await local((_, res) => {
      res.end();
    });
    const url = closed.url;
    await closed.close();
    let calls = 0;
    const counting: FetchLike = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    const retrying = new TesseraCore({
      serverURL: url,
      fetch: counting,
      retryConfig: {
        strategy: 'backoff',
        backoff: { initialInterval: 1, maxInterval: 5, maxElapsedTime: 1500 },
        retryConnectionErrors: true,
      },
    });
    await expect(organizationsGet(retrying, { id: organization.id })).rejects.toBeInstanceOf(ConnectionError);
    expect(calls).toBeGreaterThan(1);
  });
});

describe('paging', () => {
  it('walks three pages of the real server, asking for each next page only when needed', async () => {
    const shop = await organizationFactory(server, { name: 'Paging shop' });
    const counting = countingFetch();
    const paging = new TesseraCore({ serverURL: server.url, accessToken: shop.token, fetch: counting.fetch });
    for (let i = 0; i < 5; i++) await customersCreate(paging, { body: { email: `buyer${i}@example.com` } });
    counting.urls.length = 0;

    const first = await customersList(paging, { limit: 2, sorting: ['email'] });
    expect(first.result.pagination).toEqual({ total_count: 5, max_page: 3 });
    expect(counting.urls).toHaveLength(1);

    const pages: string[][] = [];
    for await (const page of first) pages.push(page.result.items.map((customer) => customer.email));
    expect(pages).toEqual([
      ['buyer0@example.com', 'buyer1@example.com'],
      ['buyer2@example.com', 'buyer3@example.com'],
      ['buyer4@example.com'],
    ]);
    // One request per page; none after the short last page.
    expect(counting.urls).toHaveLength(3);
    expect(counting.urls.map((url) => new URL(url).searchParams.get('page'))).toEqual([null, '2', '3']);

    const second = await first.next();
    expect(second?.result.items).toHaveLength(2);
    const third = await second!.next();
    expect(await third!.next()).toBeNull();
  });

  it('does not ask for a next page when the page was not full, even if max_page says more', async () => {
    const seen = await local((request, res) =>
      sendJson(res, 200, { items: [organization], pagination: { total_count: 9, max_page: 5 } }),
    );
    const pages = [];
    for await (const page of await organizationsList(new TesseraCore({ serverURL: seen.url }), { limit: 2 }))
      pages.push(page);
    expect(pages).toHaveLength(1);
    expect(seen.requests).toHaveLength(1);
  });

  it('does not ask for a next page when max_page does not exceed the current page', async () => {
    const seen = await local((request, res) =>
      sendJson(res, 200, { items: [organization, organization], pagination: { total_count: 2, max_page: 1 } }),
    );
    const first = await organizationsList(new TesseraCore({ serverURL: seen.url }), { limit: 2 });
    expect(await first.next()).toBeNull();
    expect(seen.requests).toHaveLength(1);
  });
});

describe('wire encoding', () => {
  it('repeats array query keys (form, explode) and writes metadata filters as deepObject', async () => {
    const seen = await local((_, res) =>
      sendJson(res, 200, { items: [], pagination: { total_count: 0, max_page: 0 } }),
    );
    const ids = ['0b9f6a52-6f1e-4f5c-9d1a-8a0f3c2b1e11', '1c9f6a52-6f1e-4f5c-9d1a-8a0f3c2b1e22'];
    await customersList(new TesseraCore({ serverURL: seen.url }), {
      organization_id: ids,
      sorting: ['-email', 'name'],
      metadata: { tier: ['gold', 'silver'], plan: 'pro' },
      limit: 5,
    });
    const query = new URL(seen.requests[0]!.url, seen.url).searchParams;
    expect(query.getAll('organization_id')).toEqual(ids);
    expect(query.getAll('sorting')).toEqual(['-email', 'name']);
    expect(query.getAll('metadata[tier]')).toEqual(['gold', 'silver']);
    expect(query.get('metadata[plan]')).toBe('pro');
    expect(query.get('limit')).toBe('5');
    expect(seen.requests[0]!.headers.accept).toBe('application/json');
  });

  it('filters by metadata on the real server and deletes with a 204 that has no body', async () => {
    const shop = await organizationFactory(server, { name: 'Metadata shop' });
    const scoped = new TesseraCore({ serverURL: server.url, accessToken: shop.token });
    const gold = await customersCreate(scoped, { body: { email: 'gold@example.com', metadata: { tier: 'gold' } } });
    await customersCreate(scoped, { body: { email: 'plain@example.com' } });
    const page = await customersList(scoped, { metadata: { tier: 'gold' } });
    expect(page.result.items.map((customer) => customer.id)).toEqual([gold.id]);

    await expect(customersDelete(scoped, { id: gold.id })).resolves.toBeUndefined();
    const gone = await customersGet(scoped, { id: gold.id }).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(ResourceNotFound);
  });
});
