import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import type { ManualClock } from '../src/platform/clock.js';
import { cleanIdempotencyKeysJob, LOCK_SECONDS } from '../src/platform/http/idempotency.js';
import { defineRoute } from '../src/platform/http/route.js';
import { buildOpenApiDocument } from '../src/platform/http/openapi.js';
import { routes } from '../src/modules/index.js';
import { checkoutFactory } from './factories/checkouts.js';
import { customerFactory } from './factories/customers.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { OWN_ORIGIN } from './factories/users.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;

/** Requests of the slow route wait here until the test lets them go. */
const gates: (() => void)[] = [];
let flakyCalls = 0;

const probeRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v1/test-probe/slow',
    operationId: 'test:slow',
    summary: 'Answers once the test opens its gate',
    tags: ['test'],
    auth: { subjects: ['organization'], scopes: [] },
    body: z.object({ n: z.number() }),
    internal: true,
    transaction: false,
    status: 200,
    response: z.object({ n: z.number(), run: z.number() }),
    handler: async (_ctx, { body }) => {
      await new Promise<void>((resolve) => gates.push(resolve));
      return { n: body.n, run: gates.length };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/test-probe/flaky',
    operationId: 'test:flaky',
    summary: 'Fails with a 500 the first time',
    tags: ['test'],
    auth: { subjects: ['organization'], scopes: [] },
    internal: true,
    status: 200,
    response: z.object({ call: z.number() }),
    handler: async () => {
      flakyCalls += 1;
      if (flakyCalls === 1) throw new Error('boom');
      return { call: flakyCalls };
    },
  }),
];

beforeAll(async () => {
  server = await startTestServer({ extraRoutes: probeRoutes });
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
});
afterAll(() => server?.stop());

const withKey = (key: string, token = acme.token) => ({ ...bearer(token), 'idempotency-key': key });
const createProduct = (key: string, name: string, token = acme.token) =>
  server.inject({
    method: 'POST',
    url: '/v1/products/',
    headers: withKey(key, token),
    payload: { name, recurring_interval: null, prices: [{ amount_type: 'fixed', price_amount: 1000 }] },
  });
const countProducts = async (organizationId: string, name: string) =>
  (
    await server.runtime.database.db
      .selectFrom('products')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('name', '=', name)
      .execute()
  ).length;

async function waitFor(condition: () => boolean) {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

describe('Idempotency-Key', () => {
  it('replays the first answer byte for byte for the same key and body, and creates once', async () => {
    const key = randomUUID();
    const first = await createProduct(key, 'Replayed');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await createProduct(key, 'Replayed');
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await countProducts(acme.organization.id, 'Replayed')).toBe(1);
  });

  it('refuses the same key with another body (422) and changes nothing', async () => {
    const key = randomUUID();
    expect((await createProduct(key, 'First body')).statusCode).toBe(201);
    const reused = await createProduct(key, 'Second body');
    expect(reused.statusCode).toBe(422);
    expect(json(reused).detail[0].loc).toEqual(['header', 'Idempotency-Key']);
    expect(await countProducts(acme.organization.id, 'Second body')).toBe(0);
  });

  it('scopes keys to the organization of the token', async () => {
    const key = randomUUID();
    const mine = await createProduct(key, 'Scoped');
    const theirs = await createProduct(key, 'Scoped', other.token);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(json(theirs).id).not.toBe(json(mine).id);
    expect(await countProducts(other.organization.id, 'Scoped')).toBe(1);
  });

  it('answers 409 while a request with the key is in flight, then replays its answer', async () => {
    const key = randomUUID();
    const send = () =>
      server.inject({ method: 'POST', url: '/v1/test-probe/slow', headers: withKey(key), payload: { n: 1 } });
    const first = send();
    await waitFor(() => gates.length === 1);
    const concurrent = await send();
    expect(concurrent.statusCode).toBe(409);
    expect(json(concurrent)).toMatchObject({ error: 'IdempotencyKeyInUse', detail: expect.any(String) });
    gates[0]!();
    const answered = await first;
    expect(answered.statusCode).toBe(200);
    const replay = await send();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(answered.body);
    expect(gates.length).toBe(1);
    gates.length = 0;
  });

  it('lets the same request take over a claim whose request died, once its lock has ended', async () => {
    const key = randomUUID();
    const send = () =>
      server.inject({ method: 'POST', url: '/v1/test-probe/slow', headers: withKey(key), payload: { n: 2 } });
    const stuck = send();
    await waitFor(() => gates.length === 1);
    (server.clock as ManualClock).advance((LOCK_SECONDS + 1) * 1000);
    const retry = send();
    await waitFor(() => gates.length === 2);
    gates[1]!();
    expect((await retry).statusCode).toBe(200);
    gates[0]!();
    await stuck;
    gates.length = 0;
  });

  it('keeps no answer of 500 or more: the key is released and the retry runs', async () => {
    const key = randomUUID();
    const send = () => server.inject({ method: 'POST', url: '/v1/test-probe/flaky', headers: withKey(key) });
    expect((await send()).statusCode).toBe(500);
    const retry = await send();
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(json(retry)).toEqual({ call: 2 });
  });

  it('replays client errors, on PATCH and DELETE too', async () => {
    const bad = randomUUID();
    const invalid = () =>
      server.inject({ method: 'POST', url: '/v1/products/', headers: withKey(bad), payload: { name: '' } });
    const refused = await invalid();
    expect(refused.statusCode).toBe(422);
    const again = await invalid();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(refused.body);

    const { product } = await productFactory(server, acme.organization.id);
    const patchKey = randomUUID();
    const patch = (name: string) =>
      server.inject({
        method: 'PATCH',
        url: `/v1/products/${product.id}`,
        headers: withKey(patchKey),
        payload: { name },
      });
    const patched = await patch('Renamed once');
    expect(patched.statusCode).toBe(200);
    expect((await patch('Renamed once')).body).toBe(patched.body);
    expect((await patch('Renamed twice')).statusCode).toBe(422);

    const webhook = await server.inject({
      method: 'POST',
      url: '/v1/webhooks/endpoints',
      headers: bearer(acme.token),
      payload: { url: 'https://hooks.example/in', format: 'raw', secret: 'whsec_abc', events: ['order.paid'] },
    });
    expect(webhook.statusCode).toBe(201);
    const deleteKey = randomUUID();
    const remove = () =>
      server.inject({
        method: 'DELETE',
        url: `/v1/webhooks/endpoints/${json(webhook).id}`,
        headers: withKey(deleteKey),
      });
    const deleted = await remove();
    expect(deleted.statusCode).toBe(204);
    const replayed = await remove();
    expect(replayed.statusCode).toBe(204);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
  });

  it('scopes anonymous checkout calls to the client secret', async () => {
    const { product } = await productFactory(server, acme.organization.id);
    const one = await checkoutFactory(server, acme.organization.id, [product.id]);
    const two = await checkoutFactory(server, acme.organization.id, [product.id]);
    const key = randomUUID();
    const update = (secret: string) =>
      server.inject({
        method: 'PATCH',
        url: `/v1/checkouts/client/${secret}`,
        headers: { 'idempotency-key': key },
        payload: { customer_name: 'Ada' },
      });
    const first = await update(one.client_secret);
    expect(first.statusCode).toBe(200);
    expect((await update(one.client_secret)).headers['idempotent-replayed']).toBe('true');
    const elsewhere = await update(two.client_secret);
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.headers['idempotent-replayed']).toBeUndefined();
  });

  it('never stores sign-in answers (session cookies)', async () => {
    const key = randomUUID();
    const signup = () =>
      server.inject({
        method: 'POST',
        url: '/v1/auth/signup',
        headers: { origin: OWN_ORIGIN, 'idempotency-key': key },
        payload: { email: 'idempotent@example.com', password: 'a long passphrase' },
      });
    expect((await signup()).statusCode).toBe(201);
    const again = await signup();
    expect(again.statusCode).toBe(422);
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('keeps answers encrypted: a token handed out once is replayed but never stored in clear', async () => {
    const customer = await customerFactory(server, acme.organization.id);
    const key = randomUUID();
    const create = () =>
      server.inject({
        method: 'POST',
        url: '/v1/customer-sessions/',
        headers: withKey(key),
        payload: { customer_id: customer.id },
      });
    const first = await create();
    expect(first.statusCode).toBe(201);
    const token: string = json(first).token;
    const replay = await create();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(json(replay).token).toBe(token);
    const stored = await server.runtime.database.db
      .selectFrom('idempotency_keys')
      .select(['response_body', 'response_headers'])
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(JSON.stringify(stored)).not.toContain(customer.id);
  });

  it('refuses (422, never a 500) to replay an answer sealed under another server secret, and runs nothing again', async () => {
    const key = randomUUID();
    const name = `Sealed ${key}`;
    expect((await createProduct(key, name)).statusCode).toBe(201);
    await server.runtime.database.db
      .updateTable('idempotency_keys')
      .set({ response_body: Buffer.from('sealed under a secret this server does not have').toString('base64') })
      .where('key', '=', key)
      .execute();
    const replay = await createProduct(key, name);
    expect(replay.statusCode).toBe(422);
    expect(json(replay).detail[0]).toMatchObject({
      loc: ['header', 'Idempotency-Key'],
      type: 'idempotency_key_unreadable',
    });
    expect(await countProducts(acme.organization.id, name)).toBe(1);
  });

  it('refuses a malformed key with a 422 and changes nothing', async () => {
    for (const key of ['x'.repeat(256), '', 'with space', 'tab\tinside']) {
      const response = await createProduct(key, 'Bad key');
      expect(response.statusCode).toBe(422);
      expect(json(response).detail[0].loc).toEqual(['header', 'Idempotency-Key']);
    }
    expect(await countProducts(acme.organization.id, 'Bad key')).toBe(0);
  });

  it('forgets keys after 24 hours (the cleanup job deletes them)', async () => {
    const key = randomUUID();
    expect((await createProduct(key, 'Day one')).statusCode).toBe(201);
    (server.clock as ManualClock).advance(24 * 3600 * 1000);
    const later = await createProduct(key, 'Day two');
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    (server.clock as ManualClock).advance(24 * 3600 * 1000);
    await cleanIdempotencyKeysJob.handle(server.context(), {});
    const rows = await server.runtime.database.db.selectFrom('idempotency_keys').select('key').execute();
    expect(rows).toEqual([]);
  });

  it('is documented as a header parameter of every write operation', () => {
    const document = buildOpenApiDocument(routes, { version: 'test' }) as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    };
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const documented = (operation.parameters ?? []).some(
          (parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key',
        );
        expect(documented, `${method} ${path}`).toBe(
          method !== 'get' && !path.startsWith('/v1/auth/') && !path.startsWith('/v1/oauth2/'),
        );
      }
    }
  });
});
