import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNetworks } from '../src/modules/webhooks/webhooks.url-guard.js';
import type { ManualClock } from '../src/platform/clock.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { userFactory } from './factories/users.js';
import { emitWebhookEvent, webhookEndpointFactory } from './factories/webhooks.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
});
afterAll(() => server?.stop());

const base = '/v1/webhooks/endpoints';
const valid = { url: 'https://example.com/hook', format: 'raw', secret: 'whsec_abc', events: ['order.paid'] };
const create = (payload: unknown, token = acme.token, target = server) =>
  target.inject({ method: 'POST', url: base, headers: bearer(token), payload: payload as object });
const get = (id: string, token = acme.token) =>
  server.inject({ method: 'GET', url: `${base}/${id}`, headers: bearer(token) });
const patch = (id: string, payload: unknown, token = acme.token, target = server) =>
  target.inject({ method: 'PATCH', url: `${base}/${id}`, headers: bearer(token), payload: payload as object });
const del = (id: string, token = acme.token) =>
  server.inject({ method: 'DELETE', url: `${base}/${id}`, headers: bearer(token) });
const list = (query: string, token = acme.token) =>
  server.inject({ method: 'GET', url: `${base}?${query}`, headers: bearer(token) });

async function endpointCount(target = server): Promise<number> {
  const row = await target.runtime.database.db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('auth matrix', () => {
  it('answers 401 without a token on every route', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, url] of [
      ['GET', base],
      ['POST', base],
      ['GET', `${base}/${id}`],
      ['PATCH', `${base}/${id}`],
      ['DELETE', `${base}/${id}`],
      ['GET', '/v1/webhooks/deliveries'],
      ['POST', `/v1/webhooks/events/${id}/redeliver`],
    ] as const) {
      expect((await server.inject({ method, url })).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('answers 403 when the token lacks the scope', async () => {
    const endpoint = await webhookEndpointFactory(server, acme.organization.id);
    const readOnly = await tokenFactory(server, acme.organization.id, ['webhooks:read']);
    expect((await list('', readOnly)).statusCode).toBe(200);
    expect((await get(endpoint.id, readOnly)).statusCode).toBe(200);
    expect((await create(valid, readOnly)).statusCode).toBe(403);
    expect((await patch(endpoint.id, { url: 'https://x.example' }, readOnly)).statusCode).toBe(403);
    expect((await del(endpoint.id, readOnly)).statusCode).toBe(403);
    const redeliver = await server.inject({
      method: 'POST',
      url: `/v1/webhooks/events/${endpoint.id}/redeliver`,
      headers: bearer(readOnly),
    });
    expect(redeliver.statusCode).toBe(403);
    const unrelated = await tokenFactory(server, acme.organization.id, ['products:read']);
    expect((await list('', unrelated)).statusCode).toBe(403);
    const deliveries = await server.inject({
      method: 'GET',
      url: '/v1/webhooks/deliveries',
      headers: bearer(unrelated),
    });
    expect(deliveries.statusCode).toBe(403);
  });

  it("answers 404 for another organization's endpoint and event", async () => {
    const foreign = await webhookEndpointFactory(server, other.organization.id, { events: ['order.paid'] });
    expect((await get(foreign.id)).statusCode).toBe(404);
    expect((await patch(foreign.id, { url: 'https://mine.example' })).statusCode).toBe(404);
    expect((await del(foreign.id)).statusCode).toBe(404);
    expect(json(await get(foreign.id, other.token)).url).toBe(foreign.url);
    await emitWebhookEvent(server, other.organization.id, 'order.paid', { id: 'o' });
    const event = await server.runtime.database.db
      .selectFrom('webhook_endpoint_events')
      .select('id')
      .where('endpoint_id', '=', foreign.id)
      .executeTakeFirstOrThrow();
    const redeliver = await server.inject({
      method: 'POST',
      url: `/v1/webhooks/events/${event.id}/redeliver`,
      headers: bearer(acme.token),
    });
    expect(redeliver.statusCode).toBe(404);
    expect(json(redeliver).error).toBe('ResourceNotFound');
  });

  it('answers 422 listing every problem, and writes nothing', async () => {
    const before = await endpointCount();
    const response = await create({ url: 'not a url', format: 'xml', secret: '', events: ['order.shipped'] });
    expect(response.statusCode).toBe(422);
    const locs = json(response).detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.format', 'body.secret', 'body.events.0']));
    expect(await endpointCount()).toBe(before);
    const invalidUrl = await create({ ...valid, url: 'not a url' });
    expect(invalidUrl.statusCode).toBe(422);
    expect(json(invalidUrl).detail[0].loc).toEqual(['body', 'url']);
    expect(await endpointCount()).toBe(before);
  });

  it('lets a member user act for their organization, and requires organization_id', async () => {
    const user = await userFactory(server);
    await server.runtime.database.db
      .insertInto('user_organizations')
      .values({ user_id: user.id, organization_id: acme.organization.id, created_at: new Date() })
      .execute();
    const missing = await server.inject({ method: 'POST', url: base, headers: user.headers, payload: valid });
    expect(missing.statusCode).toBe(422);
    const created = await server.inject({
      method: 'POST',
      url: base,
      headers: user.headers,
      payload: { ...valid, organization_id: acme.organization.id },
    });
    expect(created.statusCode).toBe(201);
    const foreign = await server.inject({
      method: 'POST',
      url: base,
      headers: user.headers,
      payload: { ...valid, organization_id: other.organization.id },
    });
    expect(foreign.statusCode).toBe(422);
    const withOrgToken = await create({ ...valid, organization_id: acme.organization.id });
    expect(withOrgToken.statusCode).toBe(422);
  });
});

describe('endpoints', () => {
  it('creates, reads, updates and soft-deletes, never returning the secret', async () => {
    const created = await create({ ...valid, format: 'slack', events: ['order.paid', 'order.paid', 'refund.created'] });
    expect(created.statusCode).toBe(201);
    const endpoint = json(created);
    expect(endpoint).toMatchObject({
      url: valid.url,
      format: 'slack',
      organization_id: acme.organization.id,
      events: ['order.paid', 'refund.created'],
      enabled: true,
      modified_at: null,
    });
    expect(endpoint).not.toHaveProperty('secret');
    expect(json(await get(endpoint.id))).toEqual(endpoint);

    const updated = json(
      await patch(endpoint.id, { url: 'https://example.org/new', secret: 'whsec_new', events: null }),
    );
    expect(updated).toMatchObject({ url: 'https://example.org/new', events: ['order.paid', 'refund.created'] });
    expect(updated.modified_at).not.toBeNull();
    expect(updated).not.toHaveProperty('secret');
    const stored = await server.runtime.database.db
      .selectFrom('webhook_endpoints')
      .select('secret')
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret).toBe('whsec_new');

    expect(json(await patch(endpoint.id, { enabled: false })).enabled).toBe(false);
    expect(json(await patch(endpoint.id, { enabled: true })).enabled).toBe(true);

    const removed = await del(endpoint.id);
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expect((await get(endpoint.id)).statusCode).toBe(404);
    expect((await del(endpoint.id)).statusCode).toBe(404);
    const row = await server.runtime.database.db
      .selectFrom('webhook_endpoints')
      .select('deleted_at')
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
  });

  it('lists newest first, filtered by organization, paged', async () => {
    const org = await organizationFactory(server, { name: 'Lister' });
    const ids = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await create(valid, org.token)).json().id);
      (server.clock as ManualClock).advance(1000);
    }
    const page1 = json(await list('limit=2&page=1', org.token));
    expect(page1.items.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
    expect(page1.pagination).toEqual({ total_count: 3, max_page: 2 });
    const page2 = json(await list('limit=2&page=2', org.token));
    expect(page2.items.map((e: { id: string }) => e.id)).toEqual([ids[0]]);
    const filtered = json(await list(`organization_id=${other.organization.id}`, org.token));
    expect(filtered.items).toEqual([]);
  });
});

describe('PATCH /v1/webhooks/endpoints/{id}/secret', () => {
  const reset = (id: string, headers: Record<string, string> = bearer(acme.token)) =>
    server.inject({ method: 'PATCH', url: `${base}/${id}/secret`, headers });
  const storedSecret = async (id: string) =>
    (
      await server.runtime.database.db
        .selectFrom('webhook_endpoints')
        .select('secret')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).secret;

  it('401 without a token, 403 without webhooks:write, 404 for another organization or a deleted endpoint, 422 bad id', async () => {
    const endpoint = await webhookEndpointFactory(server, acme.organization.id);
    expect((await server.inject({ method: 'PATCH', url: `${base}/${endpoint.id}/secret` })).statusCode).toBe(401);
    const readOnly = await tokenFactory(server, acme.organization.id, ['webhooks:read']);
    expect((await reset(endpoint.id, bearer(readOnly))).statusCode).toBe(403);
    const foreign = await webhookEndpointFactory(server, other.organization.id);
    const refused = await reset(foreign.id);
    expect([refused.statusCode, json(refused).error]).toEqual([404, 'ResourceNotFound']);
    expect(await storedSecret(foreign.id)).toBe('whsec_test_secret');
    const bad = await reset('nope');
    expect(bad.statusCode).toBe(422);
    expect(json(bad).detail[0].loc).toEqual(['path', 'id']);
    expect((await del(endpoint.id)).statusCode).toBe(204);
    expect((await reset(endpoint.id)).statusCode).toBe(404);
  });

  it('answers the endpoint with a new server-generated whsec_ secret, stored for signing; reads never show it', async () => {
    const endpoint = await webhookEndpointFactory(server, acme.organization.id, { events: ['order.paid'] });
    (server.clock as ManualClock).advance(1000);
    const response = await reset(endpoint.id);
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(body).toMatchObject({
      id: endpoint.id,
      url: endpoint.url,
      format: 'raw',
      events: ['order.paid'],
      enabled: true,
      modified_at: server.clock.now().toISOString(),
    });
    // `whsec_`, 37 base62 characters and a 6-character checksum, as the reference generates them.
    expect(body.secret).toMatch(/^whsec_[0-9A-Za-z]{43}$/);
    expect(await storedSecret(endpoint.id)).toBe(body.secret);
    const again = json(await reset(endpoint.id));
    expect(again.secret).not.toBe(body.secret);
    expect(await storedSecret(endpoint.id)).toBe(again.secret);
    expect(json(await get(endpoint.id))).not.toHaveProperty('secret');
    expect(json(await list(`organization_id=${acme.organization.id}`)).items[0]).not.toHaveProperty('secret');
    // The seller may still choose the secret through the endpoint update.
    expect((await patch(endpoint.id, { secret: 'whsec_chosen' })).statusCode).toBe(200);
    expect(await storedSecret(endpoint.id)).toBe('whsec_chosen');
  });

  it("lets a member user reset their organization's endpoint, not another's", async () => {
    const user = await userFactory(server);
    await server.runtime.database.db
      .insertInto('user_organizations')
      .values({ user_id: user.id, organization_id: acme.organization.id, created_at: new Date() })
      .execute();
    const mine = await webhookEndpointFactory(server, acme.organization.id);
    const theirs = await webhookEndpointFactory(server, other.organization.id);
    expect((await reset(mine.id, user.headers)).statusCode).toBe(200);
    expect((await reset(theirs.id, user.headers)).statusCode).toBe(404);
  });
});

describe('URL guard outside development', () => {
  let production: TestServer;
  let org: OrganizationFixture;
  beforeAll(async () => {
    production = await startTestServer({ config: { devMode: false } });
    org = await organizationFactory(production, { name: 'Prod' });
  });
  afterAll(() => production?.stop());

  it.each([
    ['http://example.com/hook', 'URL scheme should be https'],
    ['https://127.0.0.1/hook', 'loopback'],
    ['https://10.1.2.3/hook', 'private'],
    ['https://169.254.169.254/latest', 'link-local'],
    ['https://100.64.0.1/', 'CGNAT'],
    ['https://[::1]/hook', 'loopback'],
    ['https://[fd00::1]/hook', 'unique local'],
    ['https://[::ffff:192.168.0.1]/hook', 'IPv4-mapped private'],
    ['https://localhost/hook', 'loopback'],
    ['https://no-such-host.invalid/hook', 'could not be resolved'],
  ])('refuses %s at create and update (422, nothing written)', async (url, message) => {
    const before = await endpointCount(production);
    const response = await create({ ...valid, url }, org.token, production);
    expect(response.statusCode).toBe(422);
    expect(json(response).detail).toEqual([
      expect.objectContaining({ loc: ['body', 'url'], msg: expect.stringContaining(message) }),
    ]);
    expect(await endpointCount(production)).toBe(before);
    const existing = await webhookEndpointFactory(production, org.organization.id, { url: 'https://8.8.8.8/hook' });
    const updated = await patch(existing.id, { url }, org.token, production);
    expect(updated.statusCode).toBe(422);
    const stored = await production.runtime.database.db
      .selectFrom('webhook_endpoints')
      .select('url')
      .where('id', '=', existing.id)
      .executeTakeFirstOrThrow();
    expect(stored.url).toBe('https://8.8.8.8/hook');
  });

  it('accepts a public https address', async () => {
    const response = await create({ ...valid, url: 'https://8.8.8.8/hook' }, org.token, production);
    expect(response.statusCode).toBe(201);
  });

  it('checks again right before delivery: an address that became private is refused, not called', async () => {
    const endpoint = await webhookEndpointFactory(production, org.organization.id, { url: 'https://1.1.1.1/hook' });
    // As if DNS now pointed somewhere private: the row changes behind the API's back.
    await production.runtime.database.db
      .updateTable('webhook_endpoints')
      .set({ url: 'https://127.0.0.1:9/hook' })
      .where('id', '=', endpoint.id)
      .execute();
    await emitWebhookEvent(production, org.organization.id, 'order.paid', { id: 'o' });
    await expect
      .poll(
        () =>
          production.runtime.database.db
            .selectFrom('webhook_deliveries')
            .selectAll()
            .where('endpoint_id', '=', endpoint.id)
            .execute(),
        { timeout: 20_000, interval: 100 },
      )
      .toEqual([
        expect.objectContaining({ succeeded: false, http_code: null, error: 'non-public address (loopback)' }),
      ]);
  });
});

describe('URL guard in development', () => {
  let org: OrganizationFixture;
  beforeAll(async () => {
    org = await organizationFactory(server, { name: 'Dev' });
  });

  it.each([
    ['http://127.0.0.1:3000/hook', 201],
    ['http://localhost:3000/hook', 201],
    ['http://[::1]:3000/hook', 201],
    ['http://169.254.169.254/latest/meta-data/', 422],
    ['http://[fe80::1]/hook', 422],
    ['http://10.0.0.8/hook', 422],
    ['http://172.16.5.4/hook', 422],
    ['http://192.168.1.1/hook', 422],
    ['http://100.64.0.1/hook', 422],
    ['http://[fd00:ec2::254]/hook', 422],
  ])('%s → %s (loopback for local receivers; link-local, metadata and private ranges refused)', async (url, status) => {
    const before = await endpointCount();
    const response = await create({ ...valid, url }, org.token);
    expect(response.statusCode).toBe(status);
    if (status === 422) {
      expect(json(response).detail).toEqual([
        expect.objectContaining({ loc: ['body', 'url'], msg: expect.stringContaining('non-public address') }),
      ]);
      expect(await endpointCount()).toBe(before);
    }
  });

  it('refuses at delivery a private address the endpoint came to point at, without calling it', async () => {
    const endpoint = await webhookEndpointFactory(server, org.organization.id, { url: 'http://127.0.0.1:9/hook' });
    await server.runtime.database.db
      .updateTable('webhook_endpoints')
      .set({ url: 'http://169.254.169.254/latest/meta-data/' })
      .where('id', '=', endpoint.id)
      .execute();
    await emitWebhookEvent(server, org.organization.id, 'order.paid', { id: 'o' });
    await expect
      .poll(
        () =>
          server.runtime.database.db
            .selectFrom('webhook_deliveries')
            .selectAll()
            .where('endpoint_id', '=', endpoint.id)
            .execute(),
        { timeout: 20_000, interval: 100 },
      )
      .toEqual([
        expect.objectContaining({
          succeeded: false,
          http_code: null,
          response: null,
          error: 'non-public address (link-local)',
        }),
      ]);
  });
});

describe('networks the operator allowed', () => {
  let allowing: TestServer;
  let org: OrganizationFixture;
  beforeAll(async () => {
    allowing = await startTestServer({
      config: { webhookAllowedNetworks: parseNetworks('10.20.0.0/16') },
    });
    org = await organizationFactory(allowing, { name: 'Allowing' });
  });
  afterAll(() => allowing?.stop());

  it('accepts an address inside them and still refuses the rest', async () => {
    expect((await create({ ...valid, url: 'http://10.20.1.2/hook' }, org.token, allowing)).statusCode).toBe(201);
    expect((await create({ ...valid, url: 'http://10.21.1.2/hook' }, org.token, allowing)).statusCode).toBe(422);
  });
});
