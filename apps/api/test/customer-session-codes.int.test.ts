import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../src/platform/clock.js';
import { customerFactory } from './factories/customers.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

/**
 * Email-code sign-in to the customer portal: how a buyer whose email was already a customer's (no
 * session at checkout) reaches the portal by proving the address.
 */
let server: TestServer;
let acme: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
});
afterAll(() => server?.stop());

const request = (payload: object) =>
  server.inject({ method: 'POST', url: '/v1/customer-portal/customer-session/request', payload });
const authenticate = (code: string) =>
  server.inject({ method: 'POST', url: '/v1/customer-portal/customer-session/authenticate', payload: { code } });

async function codeEmails(to: string) {
  const rows = await server.runtime.database.db
    .selectFrom('emails')
    .selectAll()
    .where('template', '=', 'portal_sign_in_code')
    .orderBy('created_at')
    .execute();
  return rows.filter((row) => row.to_addresses.some((address) => address.toLowerCase() === to.toLowerCase()));
}

async function requestCode(email: string): Promise<string> {
  const answer = await request({ email, organization_id: acme.organization.id });
  expect(answer.statusCode).toBe(202);
  const sent = (await codeEmails(email)).at(-1)!;
  return /is:\s+([A-Z0-9]{6})/.exec(sent.text_body)![1]!;
}

describe('email-code sign-in', () => {
  it('sends a code to a customer, which opens a portal session once', async () => {
    const customer = await customerFactory(server, acme.organization.id, { email: 'Known@Example.com' });
    const code = await requestCode('known@example.com');
    const [email] = await codeEmails('Known@Example.com');
    expect(email).toMatchObject({ subject: 'Your sign-in code for Acme', organization_id: acme.organization.id });
    expect(email!.text_body).toContain(`/portal/${acme.organization.slug}`);

    // Typed by a person: lower case and spaces are fine.
    const answer = await authenticate(` ${code.slice(0, 3).toLowerCase()} ${code.slice(3)} `);
    expect(answer.statusCode).toBe(200);
    const { token } = json(answer);
    expect(token).toMatch(/^polar_cst_/);
    const me = await server.inject({ method: 'GET', url: '/v1/customer-portal/customers/me', headers: bearer(token) });
    expect(me.statusCode).toBe(200);
    expect(json(me).id).toBe(customer.id);

    const again = await authenticate(code);
    expect(again.statusCode).toBe(401);
    expect(json(again)).toEqual({ error: 'Unauthorized', detail: 'This code is invalid or has expired.' });
  });

  it('answers the same for an address that is nobody’s, and sends nothing', async () => {
    const before = await codeEmails('nobody@example.com');
    const answer = await request({ email: 'nobody@example.com', organization_id: acme.organization.id });
    expect(answer.statusCode).toBe(202);
    expect(json(answer)).toEqual({});
    const unknownOrganization = await request({
      email: 'nobody@example.com',
      organization_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknownOrganization.statusCode).toBe(202);
    expect(await codeEmails('nobody@example.com')).toHaveLength(before.length);
    expect((await request({ email: 'not an email', organization_id: acme.organization.id })).statusCode).toBe(422);
  });

  it('a code expires after 30 minutes, and a new one replaces the earlier', async () => {
    await customerFactory(server, acme.organization.id, { email: 'late@example.com' });
    const first = await requestCode('late@example.com');
    const second = await requestCode('late@example.com');
    expect((await authenticate(first)).statusCode).toBe(401);
    (server.clock as ManualClock).advance(31 * 60 * 1000);
    expect((await authenticate(second)).statusCode).toBe(401);
  });

  it('locks an address out after 10 wrong codes (429, even for the right code), not other addresses', async () => {
    await customerFactory(server, acme.organization.id, { email: 'guessed@example.com' });
    const code = await requestCode('guessed@example.com');
    const from = (remoteAddress: string, guess: string) =>
      server.inject({
        method: 'POST',
        url: '/v1/customer-portal/customer-session/authenticate',
        payload: { code: guess },
        remoteAddress,
      });
    const wrong = code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA';
    for (let i = 0; i < 10; i++) expect((await from('203.0.113.7', wrong)).statusCode).toBe(401);
    const locked = await from('203.0.113.7', code);
    expect(locked.statusCode).toBe(429);
    expect(json(locked)).toMatchObject({ error: 'TooManyRequests' });
    expect(json(locked).detail).toMatch(/^Too many wrong codes: sign-in is locked for \d+ minutes?\.$/);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // The code was not used up by the refused attempt: the customer, from elsewhere, still signs in.
    expect((await from('198.51.100.4', code)).statusCode).toBe(200);
    // The lock ends with its window.
    (server.clock as ManualClock).advance(61 * 60 * 1000);
    expect((await from('203.0.113.7', wrong)).statusCode).toBe(401);
  });

  it('is not part of the public API document', async () => {
    const document = json(await server.inject({ method: 'GET', url: '/openapi.json' }));
    expect(Object.keys(document.paths).filter((path) => path.includes('customer-session/'))).toEqual([]);
  });
});
