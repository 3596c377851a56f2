import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activateLicenseKey } from '../src/modules/license-keys/license-keys.service.js';
import type { ManualClock } from '../src/platform/clock.js';
import { licenseKeyFactory } from './factories/license-keys.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { userFactory } from './factories/users.js';
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

// Each test starts a fresh second of the app clock, so the per-key rate limit does not carry over.
beforeEach(() => {
  (server.clock as ManualClock).advance(1000);
});

const org = () => acme.organization.id;
const call = (action: 'validate' | 'activate' | 'deactivate', payload: object) =>
  server.inject({ method: 'POST', url: `/v1/customer-portal/license-keys/${action}`, payload });
const seller = (method: 'GET' | 'PATCH', url: string, payload?: object, token = acme.token) =>
  server.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

describe('seller routes: auth matrix', () => {
  it('401 Unauthorized without a token, 403 without the scope, 404 for another organization, 422 bad body', async () => {
    const key = await licenseKeyFactory(server, org());
    for (const url of ['/v1/license-keys/', `/v1/license-keys/${key.id}`]) {
      const response = await server.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(401);
      expect(json(response)).toEqual({ error: 'Unauthorized', detail: 'Unauthorized' });
    }
    const readOnly = await tokenFactory(server, org(), ['license_keys:read']);
    expect((await seller('GET', `/v1/license-keys/${key.id}`, undefined, readOnly)).statusCode).toBe(200);
    expect((await seller('PATCH', `/v1/license-keys/${key.id}`, { usage: 1 }, readOnly)).statusCode).toBe(403);
    const unrelated = await tokenFactory(server, org(), ['benefits:read']);
    expect((await seller('GET', '/v1/license-keys/', undefined, unrelated)).statusCode).toBe(403);
    const foreign = await licenseKeyFactory(server, other.organization.id);
    expect((await seller('GET', `/v1/license-keys/${foreign.id}`)).statusCode).toBe(404);
    expect((await seller('PATCH', `/v1/license-keys/${foreign.id}`, { status: 'disabled' })).statusCode).toBe(404);
    const bad = await seller('PATCH', `/v1/license-keys/${key.id}`, {
      limit_activations: 1001,
      limit_usage: 0,
      status: 'x',
    });
    expect(bad.statusCode).toBe(422);
    expect(
      json(bad)
        .detail.map((d: { loc: string[] }) => d.loc.join('.'))
        .sort(),
    ).toEqual(['body.limit_activations', 'body.limit_usage', 'body.status'].sort());
    expect(json(await seller('GET', `/v1/license-keys/${key.id}`)).limit_activations).toBe(3);
  });

  it('lists oldest first with filters, reads with activations, patches and reads an activation', async () => {
    const first = await licenseKeyFactory(server, org());
    (server.clock as ManualClock).advance(1000);
    const second = await licenseKeyFactory(server, org());
    const listed = json(
      await seller('GET', `/v1/license-keys/?benefit_id=${first.benefit_id}&benefit_id=${second.benefit_id}`),
    );
    expect(listed.items.map((k: { id: string }) => k.id)).toEqual([first.id, second.id]);
    expect(listed.items[0]).toMatchObject({
      display_key: `****-${first.key.slice(-6)}`,
      customer: { id: first.customer_id },
    });

    const activated = await call('activate', {
      key: first.key,
      organization_id: org(),
      label: 'laptop',
      meta: { os: 'linux' },
    });
    expect(activated.statusCode).toBe(200);
    const activation = json(activated);
    const read = json(await seller('GET', `/v1/license-keys/${first.id}`));
    expect(read.activations).toEqual([
      expect.objectContaining({ id: activation.id, label: 'laptop', meta: { os: 'linux' } }),
    ]);
    const one = await seller('GET', `/v1/license-keys/${first.id}/activations/${activation.id}`);
    expect(json(one)).toMatchObject({ id: activation.id, license_key: { id: first.id } });
    expect((await seller('GET', `/v1/license-keys/${second.id}/activations/${activation.id}`)).statusCode).toBe(404);

    const patched = await seller('PATCH', `/v1/license-keys/${first.id}`, {
      status: 'disabled',
      usage: 4,
      limit_usage: 9,
      expires_at: '2030-01-01T00:00:00Z',
    });
    expect(patched.statusCode).toBe(200);
    expect(json(patched)).toMatchObject({ status: 'disabled', usage: 4, limit_usage: 9, limit_activations: 3 });
    expect(json(patched).expires_at).toBe('2030-01-01T00:00:00.000Z');
  });
});

describe('validate', () => {
  it('404 for an unknown key, another organization, or a different case', async () => {
    const key = await licenseKeyFactory(server, org());
    expect(json(await call('validate', { key: 'NOPE', organization_id: org() }))).toEqual({
      error: 'ResourceNotFound',
      detail: 'Not found',
    });
    expect((await call('validate', { key: key.key, organization_id: other.organization.id })).statusCode).toBe(404);
    expect((await call('validate', { key: key.key.toLowerCase(), organization_id: org() })).statusCode).toBe(404);
  });

  it('checks status, expiry, activation, conditions, benefit and customer in order', async () => {
    const disabled = await licenseKeyFactory(server, org(), {}, { status: 'disabled' });
    expect(json(await call('validate', { key: disabled.key, organization_id: org() })).detail).toBe(
      'License key is no longer active.',
    );
    const revoked = await licenseKeyFactory(server, org(), {}, { status: 'revoked' });
    expect((await call('validate', { key: revoked.key, organization_id: org() })).statusCode).toBe(404);
    const expired = await licenseKeyFactory(server, org(), {}, { expires_at: server.clock.now() });
    const e = await call('validate', { key: expired.key, organization_id: org() });
    expect([e.statusCode, json(e).detail]).toEqual([404, 'License key has expired.']);

    const key = await licenseKeyFactory(server, org());
    const base = { key: key.key, organization_id: org() };
    const act = json(await call('activate', { ...base, label: 'a', conditions: { major: 1 } }));
    const free = json(await call('activate', { ...base, label: 'b' }));
    expect(json(await call('validate', { ...base, activation_id: key.id })).detail).toBe('Not found');
    const mismatch = await call('validate', { ...base, activation_id: act.id, conditions: { major: 2 } });
    expect([mismatch.statusCode, json(mismatch).detail]).toEqual([
      404,
      'License key does not match required conditions',
    ]);
    const ok = await call('validate', { ...base, activation_id: act.id, conditions: { major: 1 } });
    expect(ok.statusCode).toBe(200);
    expect(json(ok).activation).toMatchObject({ id: act.id, label: 'a' });
    (server.clock as ManualClock).advance(1000);
    expect((await call('validate', { ...base, activation_id: free.id, conditions: { any: 'x' } })).statusCode).toBe(
      200,
    );
    expect(json(await call('validate', { ...base, benefit_id: key.id })).detail).toBe(
      'License key does not match given benefit.',
    );
    expect(json(await call('validate', { ...base, customer_id: key.id })).detail).toBe(
      'License key does not match given user.',
    );
    (server.clock as ManualClock).advance(1000);
    const good = await call('validate', { ...base, benefit_id: key.benefit_id, customer_id: key.customer_id });
    expect(good.statusCode).toBe(200);
    expect(json(good)).toMatchObject({
      validations: 3,
      activation: null,
      last_validated_at: server.clock.now().toISOString(),
    });
  });

  it('increment_usage counts usage and refuses past limit_usage with 400', async () => {
    const key = await licenseKeyFactory(server, org(), { limit_usage: 5 });
    const base = { key: key.key, organization_id: org() };
    expect(json(await call('validate', { ...base, increment_usage: 3 })).usage).toBe(3);
    const over = await call('validate', { ...base, increment_usage: 3 });
    expect(over.statusCode).toBe(400);
    expect(json(over)).toEqual({ error: 'BadRequest', detail: 'License key only has 2 more usages.' });
    expect(json(await call('validate', { ...base, increment_usage: 2 })).usage).toBe(5);
    const unlimited = await licenseKeyFactory(server, org());
    (server.clock as ManualClock).advance(1000);
    expect(json(await call('validate', { key: unlimited.key, organization_id: org(), increment_usage: 7 })).usage).toBe(
      7,
    );
  });
});

describe('activate and deactivate', () => {
  it('403 when the key needs no activation or the limit is reached; deactivating frees a slot', async () => {
    const none = await licenseKeyFactory(server, org(), { activations: null });
    const refused = await call('activate', { key: none.key, organization_id: org(), label: 'x' });
    expect([refused.statusCode, json(refused)]).toEqual([
      403,
      { error: 'NotPermitted', detail: 'License key does not require activation' },
    ]);
    const key = await licenseKeyFactory(server, org(), { activations: { limit: 2, enable_customer_admin: false } });
    const base = { key: key.key, organization_id: org() };
    const a = json(await call('activate', { ...base, label: 'a' }));
    await call('activate', { ...base, label: 'b' });
    const full = await call('activate', { ...base, label: 'c' });
    expect([full.statusCode, json(full).detail]).toEqual([403, 'License key activation limit already reached']);
    (server.clock as ManualClock).advance(1000);
    const off = await call('deactivate', { ...base, activation_id: a.id });
    expect([off.statusCode, off.body]).toEqual([204, '']);
    expect((await call('deactivate', { ...base, activation_id: a.id })).statusCode).toBe(404);
    expect((await call('activate', { ...base, label: 'c' })).statusCode).toBe(200);
  });

  it('ten concurrent activations against a limit of three give exactly three', async () => {
    const key = await licenseKeyFactory(server, org(), { activations: { limit: 3, enable_customer_admin: false } });
    const db = server.runtime.database.db;
    // Straight to the service (the route's 3/s rate limit would cap the burst by itself).
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        db.transaction().execute((tx) =>
          activateLicenseKey(server.runtime.context(tx, { kind: 'anonymous' }), {
            key: key.key,
            organization_id: org(),
            label: `device-${i}`,
            conditions: {},
            meta: {},
          }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(
      results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.message),
    ).toEqual(Array(7).fill('License key activation limit already reached'));
    const live = await db
      .selectFrom('license_key_activations')
      .select('id')
      .where('license_key_id', '=', key.id)
      .where('deleted_at', 'is', null)
      .execute();
    expect(live).toHaveLength(3);
  });
});

describe('rate limit', () => {
  it('allows 3 calls per key per second, then 429 with Retry-After; the next second is free again', async () => {
    const key = await licenseKeyFactory(server, org());
    const base = { key: key.key, organization_id: org() };
    for (let i = 0; i < 3; i++) expect((await call('validate', base)).statusCode).toBe(200);
    const limited = await call('validate', base);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect(json(limited).error).toBe('TooManyRequests');
    // Another key is not affected.
    const another = await licenseKeyFactory(server, org());
    expect((await call('validate', { key: another.key, organization_id: org() })).statusCode).toBe(200);
    (server.clock as ManualClock).advance(1000);
    expect((await call('validate', base)).statusCode).toBe(200);
  });
});

describe('customer portal reads (customer session)', () => {
  async function sessionToken(customerId: string): Promise<string> {
    const response = await server.inject({
      method: 'POST',
      url: '/v1/customer-sessions/',
      headers: bearer(acme.token),
      payload: { customer_id: customerId },
    });
    expect(response.statusCode).toBe(201);
    return json(response).token;
  }

  it("lists and reads only the session customer's keys; activations only with customer admin", async () => {
    const mine = await licenseKeyFactory(server, org(), { activations: { limit: 3, enable_customer_admin: false } });
    const admin = await licenseKeyFactory(server, org(), { activations: { limit: 3, enable_customer_admin: true } });
    const theirs = await licenseKeyFactory(server, org());
    await call('activate', { key: mine.key, organization_id: org(), label: 'a' });
    await call('activate', { key: admin.key, organization_id: org(), label: 'b' });
    const token = await sessionToken(mine.customer_id);
    const portal = (url: string, t = token) => server.inject({ method: 'GET', url, headers: bearer(t) });

    expect((await server.inject({ method: 'GET', url: '/v1/customer-portal/license-keys/' })).statusCode).toBe(401);
    expect((await portal('/v1/customer-portal/license-keys/', acme.token)).statusCode).toBe(401);
    expect((await portal('/v1/license-keys/')).statusCode).toBe(401);
    const listed = json(await portal('/v1/customer-portal/license-keys/'));
    expect(listed.items.map((k: { id: string }) => k.id)).toEqual([mine.id]);
    const read = json(await portal(`/v1/customer-portal/license-keys/${mine.id}`));
    expect(read).toMatchObject({ id: mine.id, activations: [] });
    expect((await portal(`/v1/customer-portal/license-keys/${theirs.id}`)).statusCode).toBe(404);

    const adminToken = await sessionToken(admin.customer_id);
    const withActivations = json(await portal(`/v1/customer-portal/license-keys/${admin.id}`, adminToken));
    expect(withActivations.activations).toEqual([expect.objectContaining({ label: 'b' })]);
    const filtered = json(await portal(`/v1/customer-portal/license-keys/?benefit_id=${mine.benefit_id}`, adminToken));
    expect(filtered.items).toEqual([]);
  });
});

describe('bounded inputs', () => {
  const MAX = 2_147_483_647;
  const locs = (response: { body: string }) =>
    (json(response as never).detail as { loc: (string | number)[] }[]).map((issue) => issue.loc.join('.'));

  it('refuses a negative or oversized increment_usage with 422 and changes nothing', async () => {
    const key = await licenseKeyFactory(server, org(), { limit_usage: 5 });
    const base = { key: key.key, organization_id: org() };
    for (const increment of [-1000, -1, MAX + 1, 1.5]) {
      (server.clock as ManualClock).advance(1000);
      const refused = await call('validate', { ...base, increment_usage: increment });
      expect(refused.statusCode).toBe(422);
      expect(locs(refused)).toEqual(['body.increment_usage']);
    }
    const stored = json(await seller('GET', `/v1/license-keys/${key.id}`));
    expect(stored).toMatchObject({ usage: 0, validations: 0 });
    (server.clock as ManualClock).advance(1000);
    expect(json(await call('validate', { ...base, increment_usage: 0 })).usage).toBe(0);
  });

  it('refuses an increment that would overflow the usage counter of a key without a limit', async () => {
    const key = await licenseKeyFactory(server, org());
    expect((await seller('PATCH', `/v1/license-keys/${key.id}`, { usage: MAX - 1 })).statusCode).toBe(200);
    const over = await call('validate', { key: key.key, organization_id: org(), increment_usage: 2 });
    expect(over.statusCode).toBe(400);
    expect(json(over)).toEqual({ error: 'BadRequest', detail: 'License key only has 1 more usages.' });
    expect(json(await seller('GET', `/v1/license-keys/${key.id}`)).usage).toBe(MAX - 1);
  });

  it('bounds the seller update: usage ≥ 0, usage and limit_usage within the column', async () => {
    const key = await licenseKeyFactory(server, org(), { limit_usage: 5 });
    for (const [body, loc] of [
      [{ usage: -1 }, 'body.usage'],
      [{ usage: MAX + 1 }, 'body.usage'],
      [{ limit_usage: MAX + 1 }, 'body.limit_usage'],
      [{ limit_usage: 0 }, 'body.limit_usage'],
    ] as const) {
      const refused = await seller('PATCH', `/v1/license-keys/${key.id}`, body);
      expect(refused.statusCode).toBe(422);
      expect(locs(refused)).toEqual([loc]);
    }
    expect(json(await seller('GET', `/v1/license-keys/${key.id}`))).toMatchObject({ usage: 0, limit_usage: 5 });
    const patched = await seller('PATCH', `/v1/license-keys/${key.id}`, { usage: 0, limit_usage: MAX });
    expect(json(patched)).toMatchObject({ usage: 0, limit_usage: MAX });
  });
});

describe('organization calls: POST /v1/license-keys/validate, activate, deactivate', () => {
  const sellerCall = (action: 'validate' | 'activate' | 'deactivate', payload: object, headers = bearer(acme.token)) =>
    server.inject({ method: 'POST', url: `/v1/license-keys/${action}`, headers, payload });

  it('401 without a token, 403 without license_keys:write, 404 for another organization, 422 bad body', async () => {
    const key = await licenseKeyFactory(server, org());
    const bodies = {
      validate: { key: key.key, organization_id: org() },
      activate: { key: key.key, organization_id: org(), label: 'laptop' },
      deactivate: { key: key.key, organization_id: org(), activation_id: key.id },
    } as const;
    const readOnly = await tokenFactory(server, org(), ['license_keys:read']);
    for (const action of ['validate', 'activate', 'deactivate'] as const) {
      const anonymous = await server.inject({
        method: 'POST',
        url: `/v1/license-keys/${action}`,
        payload: bodies[action],
      });
      expect([anonymous.statusCode, json(anonymous)], action).toEqual([
        401,
        { error: 'Unauthorized', detail: 'Unauthorized' },
      ]);
      expect((await sellerCall(action, bodies[action], bearer(readOnly))).statusCode, action).toBe(403);
      // Another organization's key, named with its own organization: not visible to this token.
      const foreign = await sellerCall(action, { ...bodies[action], organization_id: other.organization.id });
      expect([foreign.statusCode, json(foreign)], action).toEqual([
        404,
        { error: 'ResourceNotFound', detail: 'Not found' },
      ]);
      const bad = await sellerCall(action, { key: 1, organization_id: 'nope' });
      expect(bad.statusCode, action).toBe(422);
      expect(
        json(bad).detail.map((d: { loc: string[] }) => d.loc.join('.')),
        action,
      ).toEqual(expect.arrayContaining(['body.key', 'body.organization_id']));
    }
    // Nothing was counted or activated by the refused calls.
    const stored = json(await seller('GET', `/v1/license-keys/${key.id}`));
    expect(stored).toMatchObject({ validations: 0, activations: [] });
  });

  it("refuses another organization's key even with a token of its own organization in the body", async () => {
    const foreign = await licenseKeyFactory(server, other.organization.id);
    const refused = await sellerCall('validate', { key: foreign.key, organization_id: other.organization.id });
    expect(refused.statusCode).toBe(404);
    // The key does not exist in the token's organization either.
    expect((await sellerCall('validate', { key: foreign.key, organization_id: org() })).statusCode).toBe(404);
    expect(
      (await sellerCall('validate', { key: foreign.key, organization_id: other.organization.id }, bearer(other.token)))
        .statusCode,
    ).toBe(200);
  });

  it('applies the public rules: status, expiry, conditions, benefit, customer and usage', async () => {
    const disabled = await licenseKeyFactory(server, org(), {}, { status: 'disabled' });
    const off = await sellerCall('validate', { key: disabled.key, organization_id: org() });
    expect([off.statusCode, json(off).detail]).toEqual([404, 'License key is no longer active.']);
    const expired = await licenseKeyFactory(server, org(), {}, { expires_at: server.clock.now() });
    expect(json(await sellerCall('validate', { key: expired.key, organization_id: org() })).detail).toBe(
      'License key has expired.',
    );

    const key = await licenseKeyFactory(server, org(), { limit_usage: 5 });
    const base = { key: key.key, organization_id: org() };
    const activation = json(await sellerCall('activate', { ...base, label: 'a', conditions: { major: 1 } }));
    expect(
      json(await sellerCall('validate', { ...base, activation_id: activation.id, conditions: { major: 2 } })).detail,
    ).toBe('License key does not match required conditions');
    expect(json(await sellerCall('validate', { ...base, benefit_id: key.id })).detail).toBe(
      'License key does not match given benefit.',
    );
    expect(json(await sellerCall('validate', { ...base, customer_id: key.id })).detail).toBe(
      'License key does not match given user.',
    );
    const over = await sellerCall('validate', { ...base, increment_usage: 6 });
    expect([over.statusCode, json(over)]).toEqual([
      400,
      { error: 'BadRequest', detail: 'License key only has 5 more usages.' },
    ]);
    const ok = await sellerCall('validate', {
      ...base,
      activation_id: activation.id,
      conditions: { major: 1 },
      benefit_id: key.benefit_id,
      customer_id: key.customer_id,
      increment_usage: 2,
    });
    expect(ok.statusCode).toBe(200);
    expect(json(ok)).toMatchObject({
      id: key.id,
      usage: 2,
      validations: 1,
      last_validated_at: server.clock.now().toISOString(),
      activation: { id: activation.id, label: 'a' },
      customer: { id: key.customer_id },
    });
  });

  it('is not held to the per-key rate limit of the public calls', async () => {
    const key = await licenseKeyFactory(server, org());
    const base = { key: key.key, organization_id: org() };
    for (let i = 0; i < 6; i++) expect((await sellerCall('validate', base)).statusCode).toBe(200);
    // The public path keeps its own budget, untouched by the organization's calls.
    expect((await call('validate', base)).statusCode).toBe(200);
    expect(json(await seller('GET', `/v1/license-keys/${key.id}`)).validations).toBe(7);
  });

  it('activates up to the limit (403 past it or without one) and deactivation frees a slot', async () => {
    const none = await licenseKeyFactory(server, org(), { activations: null });
    const refused = await sellerCall('activate', { key: none.key, organization_id: org(), label: 'x' });
    expect([refused.statusCode, json(refused)]).toEqual([
      403,
      { error: 'NotPermitted', detail: 'License key does not require activation' },
    ]);
    const key = await licenseKeyFactory(server, org(), { activations: { limit: 1, enable_customer_admin: false } });
    const base = { key: key.key, organization_id: org() };
    const activated = await sellerCall('activate', { ...base, label: 'desk', meta: { os: 'linux' } });
    expect(activated.statusCode).toBe(200);
    const activation = json(activated);
    expect(activation).toMatchObject({ label: 'desk', meta: { os: 'linux' }, license_key: { id: key.id } });
    const full = await sellerCall('activate', { ...base, label: 'laptop' });
    expect([full.statusCode, json(full).detail]).toEqual([403, 'License key activation limit already reached']);
    const deactivated = await sellerCall('deactivate', { ...base, activation_id: activation.id });
    expect([deactivated.statusCode, deactivated.body]).toEqual([204, '']);
    expect((await sellerCall('deactivate', { ...base, activation_id: activation.id })).statusCode).toBe(404);
    expect((await sellerCall('activate', { ...base, label: 'laptop' })).statusCode).toBe(200);
  });

  it("lets a member user call for their organization's keys, not for another's", async () => {
    const user = await userFactory(server);
    await server.runtime.database.db
      .insertInto('user_organizations')
      .values({ user_id: user.id, organization_id: org(), created_at: new Date() })
      .execute();
    const mine = await licenseKeyFactory(server, org());
    const theirs = await licenseKeyFactory(server, other.organization.id);
    const validated = await sellerCall('validate', { key: mine.key, organization_id: org() }, user.headers);
    expect([validated.statusCode, json(validated).id]).toEqual([200, mine.id]);
    const foreign = await sellerCall(
      'validate',
      { key: theirs.key, organization_id: other.organization.id },
      user.headers,
    );
    expect(foreign.statusCode).toBe(404);
  });
});
