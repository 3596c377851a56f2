import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../src/platform/clock.js';
import { customerFactory } from './factories/customers.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

/**
 * The portal session kept across tabs: an HttpOnly cookie of the keeper routes only, which restores the
 * bearer token in a new tab and never authenticates a portal call by itself.
 */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
});
afterAll(() => server?.stop());

const PATH = '/v1/customer-portal/customer-session';

async function sessionToken(organization: OrganizationFixture): Promise<string> {
  const customer = await customerFactory(server, organization.organization.id);
  const response = await server.inject({
    method: 'POST',
    url: '/v1/customer-sessions/',
    headers: bearer(organization.token),
    payload: { customer_id: customer.id },
  });
  expect(response.statusCode).toBe(201);
  return json(response).token as string;
}

const keep = (token: unknown) => server.inject({ method: 'POST', url: `${PATH}/keep`, payload: { token } });
const restore = (organizationId: string, cookie?: string) =>
  server.inject({
    method: 'POST',
    url: `${PATH}/restore`,
    payload: { organization_id: organizationId },
    headers: cookie ? { cookie } : {},
  });
const cookieOf = (response: Awaited<ReturnType<typeof keep>>) => {
  const header = response.headers['set-cookie'];
  return (Array.isArray(header) ? header[0] : header) ?? '';
};
const pair = (setCookie: string) => setCookie.split(';')[0]!;

describe('keeping the portal session', () => {
  it('sets an HttpOnly, SameSite=Lax cookie of the keeper routes only, expiring with the session', async () => {
    const token = await sessionToken(acme);
    const kept = await keep(token);
    expect(kept.statusCode).toBe(204);
    const cookie = cookieOf(kept);
    expect(cookie).toMatch(new RegExp(`^tessera_portal_${acme.organization.id.replaceAll('-', '')}=`));
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain(`Path=${PATH}/`);
    expect(cookie).toContain('Expires=');
    expect(cookie).not.toContain('Secure'); // the test server is reached over http
  });

  it('restores the token in a new tab from the cookie, for its organization only', async () => {
    const token = await sessionToken(acme);
    const cookie = pair(cookieOf(await keep(token)));
    const restored = await restore(acme.organization.id, cookie);
    expect(restored.statusCode).toBe(200);
    expect(json(restored)).toEqual({ token });
    expect((await restore(other.organization.id, cookie)).statusCode).toBe(401);
    expect((await restore(acme.organization.id)).statusCode).toBe(401);
  });

  it('never authenticates a portal call by itself: the token stays a bearer token', async () => {
    const token = await sessionToken(acme);
    const cookie = pair(cookieOf(await keep(token)));
    const withCookie = await server.inject({
      method: 'GET',
      url: '/v1/customer-portal/customers/me',
      headers: { cookie },
    });
    expect(withCookie.statusCode).toBe(401);
    const withBearer = await server.inject({
      method: 'GET',
      url: '/v1/customer-portal/customers/me',
      headers: bearer(token),
    });
    expect(withBearer.statusCode).toBe(200);
  });

  it('refuses to keep an unknown or ended session (401) and a bad body (422)', async () => {
    expect((await keep('polar_cst_nope')).statusCode).toBe(401);
    expect((await keep('')).statusCode).toBe(422);
    expect((await keep(42)).statusCode).toBe(422);
    expect(
      (await server.inject({ method: 'POST', url: `${PATH}/restore`, payload: { organization_id: 'x' } })).statusCode,
    ).toBe(422);
  });

  it('stops restoring once the session expired, and clears the cookie', async () => {
    const token = await sessionToken(acme);
    const cookie = pair(cookieOf(await keep(token)));
    (server.clock as ManualClock).advance(2 * 3600 * 1000);
    const late = await restore(acme.organization.id, cookie);
    expect(late.statusCode).toBe(401);
    expect(cookieOf(late)).toMatch(/Expires=Thu, 01 Jan 1970/);
  });

  it('forgets on sign-out: the cookie is cleared', async () => {
    const forgotten = await server.inject({
      method: 'POST',
      url: `${PATH}/forget`,
      payload: { organization_id: acme.organization.id },
    });
    expect(forgotten.statusCode).toBe(204);
    expect(cookieOf(forgotten)).toMatch(new RegExp(`^tessera_portal_${acme.organization.id.replaceAll('-', '')}=;`));
  });
});
