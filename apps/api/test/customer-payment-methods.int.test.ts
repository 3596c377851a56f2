import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../src/platform/clock.js';
import { confirmationToken } from './factories/checkouts.js';
import { customerFactory } from './factories/customers.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

/**
 * The seller's read of a customer's saved payment methods (`GET /v1/customers/{id}/payment-methods`
 * and by external id): the methods the customer saved in the portal, newest first, the default
 * flagged; only usable ones; another organization's customer is not found.
 */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;
let customerId: string;
let cards: { visa: string; mastercard: string };

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
  const customer = await customerFactory(server, acme.organization.id, { external_id: 'user-7' });
  customerId = customer.id;
  const session = json(
    await server.inject({
      method: 'POST',
      url: '/v1/customer-sessions/',
      headers: bearer(acme.token),
      payload: { customer_id: customerId },
    }),
  ).token as string;
  const add = async (number: string, setDefault: boolean) => {
    (server.clock as ManualClock).advance(1000);
    const response = await server.inject({
      method: 'POST',
      url: '/v1/customer-portal/customers/me/payment-methods',
      headers: bearer(session),
      payload: {
        confirmation_token_id: await confirmationToken(server, number),
        set_default: setDefault,
        return_url: '/portal/acme/payment-methods',
      },
    });
    expect(response.statusCode).toBe(201);
    return json(response).id as string;
  };
  cards = { visa: await add('4242424242424242', true), mastercard: await add('5555555555554444', false) };
});
afterAll(() => server?.stop());

const get = (url: string, token?: string) => server.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });

describe('GET /v1/customers/{id}/payment-methods', () => {
  it('lists the saved methods newest first, in the reference shape', async () => {
    const response = await get(`/v1/customers/${customerId}/payment-methods`, acme.token);
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(body.pagination).toEqual({ total_count: 2, max_page: 1 });
    expect(body.items).toEqual([
      {
        id: cards.mastercard,
        created_at: expect.any(String),
        modified_at: expect.any(String),
        processor: 'stripe',
        customer_id: customerId,
        is_default: false,
        type: 'card',
        method_metadata: { brand: 'mastercard', last4: '4444', exp_month: 12, exp_year: 2034, wallet: null },
      },
      expect.objectContaining({
        id: cards.visa,
        is_default: true,
        method_metadata: expect.objectContaining({ brand: 'visa', last4: '4242' }),
      }),
    ]);
  });

  it('pages', async () => {
    const body = json(await get(`/v1/customers/${customerId}/payment-methods?limit=1&page=2`, acme.token));
    expect(body.items.map((m: { id: string }) => m.id)).toEqual([cards.visa]);
    expect(body.pagination).toEqual({ total_count: 2, max_page: 2 });
  });

  it('leaves out a removed method', async () => {
    const customer = await customerFactory(server, acme.organization.id);
    await server.runtime.database.db
      .insertInto('customer_payment_methods')
      .values({
        id: '00000000-0000-4000-8000-000000000077',
        organization_id: acme.organization.id,
        customer_id: customer.id,
        processor: 'simulated',
        status: 'removed',
        idempotency_key: 'removed-77',
        type: 'card',
        created_at: new Date(),
        removed_at: new Date(),
      })
      .execute();
    const body = json(await get(`/v1/customers/${customer.id}/payment-methods`, acme.token));
    expect(body).toEqual({ items: [], pagination: { total_count: 0, max_page: 0 } });
  });

  it('needs a token (401), customers:read (403), and the customer of its organization (404)', async () => {
    const url = `/v1/customers/${customerId}/payment-methods`;
    expect((await get(url)).statusCode).toBe(401);
    const noScope = await tokenFactory(server, acme.organization.id, ['orders:read']);
    expect((await get(url, noScope)).statusCode).toBe(403);
    const writer = await tokenFactory(server, acme.organization.id, ['customers:write']);
    expect((await get(url, writer)).statusCode).toBe(200);
    const foreign = await get(url, other.token);
    expect(foreign.statusCode).toBe(404);
    expect(json(foreign)).toMatchObject({ error: 'ResourceNotFound' });
    const missing = await get('/v1/customers/00000000-0000-4000-8000-000000000000/payment-methods', acme.token);
    expect(missing.statusCode).toBe(404);
  });

  it('answers 422 for a bad id, page or limit', async () => {
    const badId = await get('/v1/customers/nope/payment-methods', acme.token);
    expect(badId.statusCode).toBe(422);
    expect(json(badId).detail[0].loc).toEqual(['path', 'id']);
    for (const query of ['limit=0', 'limit=101', 'page=0', 'page=99999999999999999999', 'page=x']) {
      const response = await get(`/v1/customers/${customerId}/payment-methods?${query}`, acme.token);
      expect(response.statusCode, query).toBe(422);
      expect(json(response).detail[0].loc[0]).toBe('query');
    }
  });
});

describe('GET /v1/customers/external/{external_id}/payment-methods', () => {
  it('lists the methods of the customer with that external id', async () => {
    const response = await get('/v1/customers/external/user-7/payment-methods', acme.token);
    expect(response.statusCode).toBe(200);
    expect(json(response).items.map((m: { id: string }) => m.id)).toEqual([cards.mastercard, cards.visa]);
  });

  it('is 401 without a token, 403 without the scope, 404 for another organization or no such id', async () => {
    const url = '/v1/customers/external/user-7/payment-methods';
    expect((await get(url)).statusCode).toBe(401);
    const noScope = await tokenFactory(server, acme.organization.id, ['events:read']);
    expect((await get(url, noScope)).statusCode).toBe(403);
    expect((await get(url, other.token)).statusCode).toBe(404);
    expect((await get('/v1/customers/external/nobody/payment-methods', acme.token)).statusCode).toBe(404);
  });

  it('refuses a NUL in the external id or a bad limit with 422', async () => {
    expect((await get('/v1/customers/external/a%00b/payment-methods', acme.token)).statusCode).toBe(422);
    expect((await get('/v1/customers/external/user-7/payment-methods?limit=-1', acme.token)).statusCode).toBe(422);
  });
});
