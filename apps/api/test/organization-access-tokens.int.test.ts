import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationFactory, uniqueSlug } from './factories/organizations.js';
import { userFactory, type UserFixture } from './factories/users.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
let user: UserFixture;
let organizationId: string;

beforeAll(async () => {
  server = await startTestServer();
  user = await userFactory(server);
  const created = await server.inject({
    method: 'POST',
    url: '/v1/organizations/',
    headers: user.headers,
    payload: { name: 'Token Co', slug: uniqueSlug('tokens') },
  });
  organizationId = json(created).id;
});
afterAll(() => server?.stop());

const create = (payload: unknown, headers = user.headers) =>
  server.inject({ method: 'POST', url: '/v1/organization-access-tokens/', headers, payload: payload as object });

describe('organization access tokens', () => {
  it('creates a token shown once, usable at once, within its scopes', async () => {
    const response = await create({ organization_id: organizationId, comment: 'CI', scopes: ['organizations:read'] });
    expect(response.statusCode).toBe(201);
    const body = json(response);
    expect(body.token).toMatch(/^polar_oat_[0-9A-Za-z]{43}$/);
    expect(body.organization_access_token).toMatchObject({
      organization_id: organizationId,
      comment: 'CI',
      scopes: ['organizations:read'],
      expires_at: null,
      last_used_at: null,
    });
    const read = await server.inject({
      method: 'GET',
      url: `/v1/organizations/${organizationId}`,
      headers: bearer(body.token),
    });
    expect(read.statusCode).toBe(200);
    const write = await server.inject({
      method: 'PATCH',
      url: `/v1/organizations/${organizationId}`,
      headers: bearer(body.token),
      payload: { name: 'Changed' },
    });
    expect(write.statusCode).toBe(403);

    const list = async () =>
      json(
        await server.inject({
          method: 'GET',
          url: '/v1/organization-access-tokens/',
          headers: { cookie: user.cookie },
        }),
      );
    const listed = await list();
    expect(JSON.stringify(listed)).not.toContain(body.token);
    // last_used_at is written off the request path.
    await expect
      .poll(
        async () =>
          (await list()).items.find((t: { id: string }) => t.id === body.organization_access_token.id)?.last_used_at,
      )
      .toBe('2026-01-15T12:00:00.000Z');
  });

  it('sets expires_at from expires_in (seconds or ISO 8601 duration) and refuses the token after it', async () => {
    const seconds = json(
      await create({ organization_id: organizationId, scopes: ['organizations:read'], expires_in: 3600 }),
    );
    expect(seconds.organization_access_token.expires_at).toBe('2026-01-15T13:00:00.000Z');
    const iso = json(
      await create({ organization_id: organizationId, scopes: ['organizations:read'], expires_in: 'P1D' }),
    );
    expect(iso.organization_access_token.expires_at).toBe('2026-01-16T12:00:00.000Z');

    const clock = server.clock as import('../src/platform/clock.js').ManualClock;
    const start = clock.now();
    clock.advance(2 * 3600 * 1000);
    try {
      const expired = await server.inject({
        method: 'GET',
        url: `/v1/organizations/${organizationId}`,
        headers: bearer(seconds.token),
      });
      expect(expired.statusCode).toBe(401);
      const live = await server.inject({
        method: 'GET',
        url: `/v1/organizations/${organizationId}`,
        headers: bearer(iso.token),
      });
      expect(live.statusCode).toBe(200);
    } finally {
      clock.set(start);
    }
  });

  it('rejects reserved and unknown scopes, bad durations, and organizations the user is not in', async () => {
    const reserved = await create({ organization_id: organizationId, scopes: ['admin'] });
    expect(reserved.statusCode).toBe(422);
    expect(json(reserved).detail[0].loc).toEqual(['body', 'scopes', 0]);
    const unknown = await create({ organization_id: organizationId, scopes: ['everything'] });
    expect(unknown.statusCode).toBe(422);
    const empty = await create({ organization_id: organizationId, scopes: [] });
    expect(empty.statusCode).toBe(422);
    const duration = await create({
      organization_id: organizationId,
      scopes: ['organizations:read'],
      expires_in: 'tomorrow',
    });
    expect(duration.statusCode).toBe(422);
    const other = await organizationFactory(server);
    const foreign = await create({ organization_id: other.organization.id, scopes: ['organizations:read'] });
    expect(foreign.statusCode).toBe(422);
    expect(json(foreign).detail[0]).toMatchObject({ loc: ['body', 'organization_id'], msg: 'Organization not found.' });
  });

  it('updates comment and scopes', async () => {
    const created = json(await create({ organization_id: organizationId, scopes: ['organizations:read'] }));
    const response = await server.inject({
      method: 'PATCH',
      url: `/v1/organization-access-tokens/${created.organization_access_token.id}`,
      headers: user.headers,
      payload: { comment: 'renamed', scopes: ['organizations:write', 'organizations:read'] },
    });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({ comment: 'renamed', scopes: ['organizations:read', 'organizations:write'] });
    const write = await server.inject({
      method: 'PATCH',
      url: `/v1/organizations/${organizationId}`,
      headers: bearer(created.token),
      payload: { name: 'Token Co' },
    });
    expect(write.statusCode).toBe(200);
  });

  it('revokes a token: the next request with it is a 401', async () => {
    const created = json(await create({ organization_id: organizationId, scopes: ['organizations:read'] }));
    const id = created.organization_access_token.id;
    const revoke = await server.inject({
      method: 'DELETE',
      url: `/v1/organization-access-tokens/${id}`,
      headers: user.headers,
    });
    expect(revoke.statusCode).toBe(204);
    expect(revoke.body).toBe('');
    const after = await server.inject({
      method: 'GET',
      url: `/v1/organizations/${organizationId}`,
      headers: bearer(created.token),
    });
    expect(after.statusCode).toBe(401);
    const again = await server.inject({
      method: 'DELETE',
      url: `/v1/organization-access-tokens/${id}`,
      headers: user.headers,
    });
    expect(again.statusCode).toBe(404);
  });

  it("hides other users' tokens (404) and refuses management by tokens (401)", async () => {
    const created = json(await create({ organization_id: organizationId, scopes: ['organizations:read'] }));
    const stranger = await userFactory(server);
    const response = await server.inject({
      method: 'DELETE',
      url: `/v1/organization-access-tokens/${created.organization_access_token.id}`,
      headers: stranger.headers,
    });
    expect(response.statusCode).toBe(404);
    const list = json(
      await server.inject({
        method: 'GET',
        url: '/v1/organization-access-tokens/',
        headers: { cookie: stranger.cookie },
      }),
    );
    expect(list).toEqual({ items: [], pagination: { total_count: 0, max_page: 0 } });
    const byToken = await server.inject({
      method: 'GET',
      url: '/v1/organization-access-tokens/',
      headers: bearer(created.token),
    });
    expect(byToken.statusCode).toBe(401);
    const anonymous = await server.inject({ method: 'GET', url: '/v1/organization-access-tokens/' });
    expect(anonymous.statusCode).toBe(401);
  });
});
