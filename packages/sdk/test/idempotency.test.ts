import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../apps/api/test/harness.js';
import { organizationFactory, type OrganizationFixture } from '../../../apps/api/test/factories/organizations.js';
import {
  customersCreate,
  customersGet,
  customersList,
  IdempotencyKeyInUse,
  TesseraCore,
  type FetchLike,
} from '../src/index.js';
import { localServer, sendJson } from './servers.js';

let server: TestServer;
let acme: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  acme = await organizationFactory(server, { name: 'Acme' });
});
afterAll(() => server?.stop());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const retries = { strategy: 'backoff', backoff: { initialInterval: 1, maxInterval: 5 } } as const;

/**
 * Forwards to the real server and records each attempt's Idempotency-Key; the first write's answer is
 * lost on the way back (a 503 instead), as a proxy or a dropped connection would lose it.
 */
function losingFirstAnswer(): { fetch: FetchLike; keys: (string | null)[] } {
  const keys: (string | null)[] = [];
  return {
    keys,
    fetch: async (input, init) => {
      const key = new Headers(init.headers).get('idempotency-key');
      keys.push(key);
      const response = await fetch(input, init);
      if (init.method === 'POST' && keys.length === 1) {
        await response.text();
        return new Response(JSON.stringify({ detail: 'upstream lost' }), {
          status: 503,
          headers: { 'content-type': 'application/json' },
        });
      }
      return response;
    },
  };
}

async function customersNamed(email: string): Promise<number> {
  const client = new TesseraCore({ serverURL: server.url, accessToken: acme.token });
  const page = await customersList(client, { email });
  return page.result.items.length;
}

describe('Idempotency-Key', () => {
  it('gives a retried write one key for all its attempts, so a lost answer does not write twice', async () => {
    const losing = losingFirstAnswer();
    const client = new TesseraCore({
      serverURL: server.url,
      accessToken: acme.token,
      retryConfig: retries,
      fetch: losing.fetch,
    });
    const created = await customersCreate(client, { body: { email: 'once@example.com' } });
    expect(losing.keys).toHaveLength(2);
    expect(losing.keys[0]).toMatch(UUID);
    expect(losing.keys[1]).toBe(losing.keys[0]);
    expect(await customersNamed('once@example.com')).toBe(1);
    expect((await customersGet(client, { id: created.id })).email).toBe('once@example.com');
  });

  it('gives each call its own key', async () => {
    const seen: (string | null)[] = [];
    const client = new TesseraCore({
      serverURL: server.url,
      accessToken: acme.token,
      retryConfig: retries,
      fetch: (input, init) => {
        seen.push(new Headers(init.headers).get('idempotency-key'));
        return fetch(input, init);
      },
    });
    await customersCreate(client, { body: { email: 'first@example.com' } });
    await customersCreate(client, { body: { email: 'second@example.com' } });
    await customersList(client, {});
    expect(seen[0]).toMatch(UUID);
    expect(seen[1]).toMatch(UUID);
    expect(seen[1]).not.toBe(seen[0]);
    // Reads carry none.
    expect(seen[2]).toBeNull();
  });

  it('sends none without retries, and the one given when asked', async () => {
    const seen: (string | null)[] = [];
    const client = new TesseraCore({
      serverURL: server.url,
      accessToken: acme.token,
      fetch: (input, init) => {
        seen.push(new Headers(init.headers).get('idempotency-key'));
        return fetch(input, init);
      },
    });
    await customersCreate(client, { body: { email: 'plain@example.com' } });
    const first = await customersCreate(
      client,
      { body: { email: 'given@example.com' } },
      { idempotencyKey: 'order-4711' },
    );
    const again = await customersCreate(
      client,
      { body: { email: 'given@example.com' } },
      { idempotencyKey: 'order-4711' },
    );
    const fromRequest = await customersCreate(client, {
      'Idempotency-Key': 'order-4711',
      body: { email: 'given@example.com' },
    });
    expect(seen).toEqual([null, 'order-4711', 'order-4711', 'order-4711']);
    expect(again).toEqual(first);
    expect(fromRequest).toEqual(first);
    expect(await customersNamed('given@example.com')).toBe(1);
  });

  it('raises IdempotencyKeyInUse for a 409 while the first request runs', async () => {
    const busy = await localServer((_, res) =>
      sendJson(res, 409, {
        error: 'IdempotencyKeyInUse',
        detail: 'A request with this Idempotency-Key is still in progress.',
      }),
    );
    try {
      const client = new TesseraCore({ serverURL: busy.url, accessToken: acme.token });
      const error = await customersCreate(
        client,
        { body: { email: 'busy@example.com' } },
        { idempotencyKey: 'k1' },
      ).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(IdempotencyKeyInUse);
      expect(busy.requests[0]!.headers['idempotency-key']).toBe('k1');
    } finally {
      await busy.close();
    }
  });
});
