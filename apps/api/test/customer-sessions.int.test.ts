import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLiveCustomerSessionByTokenHash } from '../src/modules/customer-sessions/customer-sessions.repository.js';
import { hashToken, isWellFormedToken, TOKEN_PREFIX } from '../src/platform/auth/tokens.js';
import type { ManualClock } from '../src/platform/clock.js';
import { customerFactory } from './factories/customers.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { userFactory } from './factories/users.js';
import { bearer, json, startTestServer, TEST_SECRET, type TestServer } from './harness.js';

let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
});
afterAll(() => server?.stop());

const create = (payload: unknown, headers: Record<string, string> = bearer(acme.token)) =>
  server.inject({ method: 'POST', url: '/v1/customer-sessions/', headers, payload: payload as object });

async function sessionCount(): Promise<number> {
  const row = await server.runtime.database.db
    .selectFrom('customer_sessions')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('auth matrix', () => {
  it('answers 401 without a token', async () => {
    const customer = await customerFactory(server, acme.organization.id);
    const response = await create({ customer_id: customer.id }, {});
    expect(response.statusCode).toBe(401);
    expect(json(response)).toEqual({ error: 'Unauthorized', detail: 'Unauthorized' });
  });

  it('answers 403 without customer_sessions:write, whatever the customers scopes', async () => {
    const customer = await customerFactory(server, acme.organization.id);
    const customersOnly = await tokenFactory(server, acme.organization.id, ['customers:read', 'customers:write']);
    const response = await create({ customer_id: customer.id }, bearer(customersOnly));
    expect(response.statusCode).toBe(403);
    expect(json(response).error).toBe('insufficient_scope');
    const sessionsOnly = await tokenFactory(server, acme.organization.id, ['customer_sessions:write']);
    expect((await create({ customer_id: customer.id }, bearer(sessionsOnly))).statusCode).toBe(201);
  });

  it("answers 422 Customer does not exist for another organization's customer and writes nothing", async () => {
    const foreign = await customerFactory(server, other.organization.id, { external_id: 'foreign-ext' });
    const before = await sessionCount();
    const byId = await create({ customer_id: foreign.id });
    expect(byId.statusCode).toBe(422);
    expect(json(byId).detail).toEqual([
      { loc: ['body', 'customer_id'], msg: 'Customer does not exist.', type: 'value_error' },
    ]);
    const byExternal = await create({ customer_external_id: 'foreign-ext' });
    expect(json(byExternal).detail).toEqual([
      { loc: ['body', 'customer_external_id'], msg: 'Customer does not exist.', type: 'value_error' },
    ]);
    expect(await sessionCount()).toBe(before);
  });

  it('answers 422 for a body naming no customer or a malformed id', async () => {
    const before = await sessionCount();
    const empty = await create({});
    expect(empty.statusCode).toBe(422);
    expect(json(empty).detail[0]).toMatchObject({ loc: ['body', 'customer_id'], type: 'missing' });
    const malformed = await create({ customer_id: 'nope' });
    expect(json(malformed).detail[0]).toMatchObject({ loc: ['body', 'customer_id'], type: 'uuid_parsing' });
    expect(await sessionCount()).toBe(before);
  });
});

describe('POST /v1/customer-sessions/', () => {
  it('opens a one-hour session by customer id, storing only the token HMAC', async () => {
    const customer = await customerFactory(server, acme.organization.id, { name: 'Portal User' });
    const response = await create({ customer_id: customer.id });
    expect(response.statusCode).toBe(201);
    const body = json(response);
    const customerWire = json(
      await server.inject({ method: 'GET', url: `/v1/customers/${customer.id}`, headers: bearer(acme.token) }),
    );
    const now = server.clock.now();
    expect(body).toEqual({
      created_at: now.toISOString(),
      modified_at: null,
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      token: expect.stringMatching(/^polar_cst_/),
      expires_at: new Date(now.getTime() + 3600_000).toISOString(),
      customer_portal_url: `${server.config.baseUrl}/portal/${acme.organization.slug}?customer_session_token=${body.token}`,
      customer_id: customer.id,
      customer: customerWire,
    });
    expect(isWellFormedToken(body.token, TOKEN_PREFIX.customerSession)).toBe(true);

    const row = await server.runtime.database.db
      .selectFrom('customer_sessions')
      .selectAll()
      .where('id', '=', body.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(body.token, TEST_SECRET));
    expect(JSON.stringify(row)).not.toContain(body.token);
    // Creating a session is not a webhook event.
    const events = await server.runtime.database.db
      .selectFrom('webhook_events')
      .select('type')
      .where('organization_id', '=', acme.organization.id)
      .execute();
    expect(events.every((e) => e.type.startsWith('customer.'))).toBe(true);
    expect(events.some((e) => e.type.includes('session'))).toBe(false);
  });

  it('opens a session by external id under either body key', async () => {
    const customer = await customerFactory(server, acme.organization.id, { external_id: 'crm-42' });
    for (const key of ['customer_external_id', 'external_customer_id']) {
      const response = await create({ [key]: 'crm-42' });
      expect(response.statusCode, key).toBe(201);
      expect(json(response).customer_id).toBe(customer.id);
    }
    const unknown = await create({ external_customer_id: 'crm-missing' });
    expect(json(unknown).detail).toEqual([
      { loc: ['body', 'external_customer_id'], msg: 'Customer does not exist.', type: 'value_error' },
    ]);
  });

  it('refuses a deleted customer', async () => {
    const customer = await customerFactory(server, acme.organization.id, { external_id: 'deleted-ext' });
    await server.inject({ method: 'DELETE', url: `/v1/customers/${customer.id}`, headers: bearer(acme.token) });
    expect(json(await create({ customer_id: customer.id })).detail[0].msg).toBe('Customer does not exist.');
    expect(json(await create({ customer_external_id: 'deleted-ext' })).detail[0].msg).toBe('Customer does not exist.');
  });

  it('lets a member open a session through the dashboard session', async () => {
    const user = await userFactory(server);
    const org = json(
      await server.inject({
        method: 'POST',
        url: '/v1/organizations/',
        headers: user.headers,
        payload: { name: 'Mine', slug: `mine-${Date.now()}` },
      }),
    );
    const customer = await customerFactory(server, org.id);
    const response = await create({ customer_id: customer.id }, user.headers);
    expect(response.statusCode).toBe(201);
    expect(json(response).customer_portal_url).toContain(`/portal/${org.slug}?customer_session_token=`);
    const foreign = await customerFactory(server, acme.organization.id);
    expect((await create({ customer_id: foreign.id }, user.headers)).statusCode).toBe(422);
  });
});

describe('findLiveCustomerSessionByTokenHash', () => {
  it('finds a live session and its customer; not once expired, nor after the customer is deleted', async () => {
    const db = server.runtime.database.db;
    const customer = await customerFactory(server, acme.organization.id);
    const { token } = json(await create({ customer_id: customer.id }));
    const hash = hashToken(token, TEST_SECRET);
    const found = await findLiveCustomerSessionByTokenHash(db, hash, server.clock.now());
    expect(found?.customer.id).toBe(customer.id);
    expect(
      await findLiveCustomerSessionByTokenHash(db, hashToken('polar_cst_other', TEST_SECRET), server.clock.now()),
    ).toBeUndefined();
    const later = new Date(server.clock.now().getTime() + 3600_000);
    expect(await findLiveCustomerSessionByTokenHash(db, hash, later)).toBeUndefined();

    const second = json(await create({ customer_id: customer.id }));
    await server.inject({ method: 'DELETE', url: `/v1/customers/${customer.id}`, headers: bearer(acme.token) });
    (server.clock as ManualClock).advance(1000);
    expect(
      await findLiveCustomerSessionByTokenHash(db, hashToken(second.token, TEST_SECRET), server.clock.now()),
    ).toBeUndefined();
  });
});
