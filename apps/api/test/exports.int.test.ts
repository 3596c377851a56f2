import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_BATCH } from '../src/platform/http/csv.js';
import type { ManualClock } from '../src/platform/clock.js';
import { customerFactory } from './factories/customers.js';
import { orderFactory } from './factories/orders.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { subscriptionFactory } from './factories/subscriptions.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

/**
 * The CSV exports (`GET /v1/orders/export`, `/v1/customers/export`, `/v1/subscriptions/export`):
 * the reference's header and rows, newest first, streamed in batches (a body of several batches has
 * every row once), the caller's organizations only; the subscriptions export still answers SDK
 * 0.33.2's JSON string when CSV is not asked for.
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

const csv = (url: string, token?: string, accept = 'text/csv') =>
  server.inject({ method: 'GET', url, headers: { ...(token ? bearer(token) : {}), accept } });
const lines = (body: string) => body.split('\r\n').slice(0, -1);
const tick = () => (server.clock as ManualClock).advance(1000);

function expectCsv(response: Awaited<ReturnType<typeof csv>>, filename: string) {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(response.headers['content-disposition']).toBe(`attachment; filename="${filename}"`);
  // Streamed: no length known before the body is written.
  expect(response.headers['content-length']).toBeUndefined();
  expect(response.headers['transfer-encoding']).toBe('chunked');
}

async function authMatrix(url: string, scope: string) {
  expect((await csv(url)).statusCode).toBe(401);
  const wrong = await tokenFactory(server, acme.organization.id, ['benefits:read']);
  expect((await csv(url, wrong)).statusCode).toBe(403);
  const enough = await tokenFactory(server, acme.organization.id, [scope]);
  expect((await csv(url, enough)).statusCode).toBe(200);
  const bad = await csv(`${url}?organization_id=nope`, acme.token);
  expect(bad.statusCode).toBe(422);
  expect(json(bad).detail[0].loc.slice(0, 2)).toEqual(['query', 'organization_id']);
  expect((await csv(`${url}?organization_id=a%00b`, acme.token)).statusCode).toBe(422);
}

describe('GET /v1/orders/export', () => {
  it('writes the reference columns, newest first, filtered by product', async () => {
    const org = await organizationFactory(server, { name: 'Orders' });
    const basic = await productFactory(server, org.organization.id, {
      name: 'Basic, one-time',
      prices: [{ amount_type: 'fixed', price_amount: 1250 }],
    });
    const pro = await productFactory(server, org.organization.id, {
      name: 'Pro',
      prices: [{ amount_type: 'fixed', price_amount: 9900 }],
    });
    const ada = await customerFactory(server, org.organization.id, { email: 'ada@example.com' });
    tick();
    const first = await orderFactory(server, org.organization.id, { customer: ada, product: basic });
    tick();
    const second = await orderFactory(server, org.organization.id, { customer: ada, product: pro });
    await orderFactory(server, other.organization.id);

    const numbers = new Map(
      (
        await server.runtime.database.db
          .selectFrom('orders')
          .select(['id', 'invoice_number'])
          .where('id', 'in', [first.id, second.id])
          .execute()
      ).map((row) => [row.id, row.invoice_number]),
    );
    const response = await csv('/v1/orders/export', org.token);
    expectCsv(response, 'orders.csv');
    const iso = (at: string) => at.replace(/\.000Z$/, '+00:00').replace(/Z$/, '+00:00');
    expect(lines(response.body)).toEqual([
      'Email,Created At,Product,Net Amount,Currency,Status,Invoice number',
      `ada@example.com,${iso(second.created_at)},Pro,99.0,usd,paid,${numbers.get(second.id)}`,
      `ada@example.com,${iso(first.created_at)},"Basic, one-time",12.5,usd,paid,${numbers.get(first.id)}`,
    ]);
    const filtered = await csv(`/v1/orders/export?product_id=${basic.product.id}`, org.token);
    expect(lines(filtered.body).slice(1)).toEqual([
      `ada@example.com,${iso(first.created_at)},"Basic, one-time",12.5,usd,paid,${numbers.get(first.id)}`,
    ]);
    // Another organization's filter lists nothing of it.
    const foreign = await csv(`/v1/orders/export?organization_id=${other.organization.id}`, org.token);
    expect(lines(foreign.body)).toHaveLength(1);
  });

  it('is 401, 403 without orders:read, 422 for a bad filter', async () => {
    await authMatrix('/v1/orders/export', 'orders:read');
    expect((await csv('/v1/orders/export?product_id=x', acme.token)).statusCode).toBe(422);
  });
});

describe('GET /v1/customers/export', () => {
  it('writes the reference columns of each live customer, newest first', async () => {
    const org = await organizationFactory(server, { name: 'Customers' });
    tick();
    const plain = await customerFactory(server, org.organization.id, { email: 'plain@example.com' });
    tick();
    const full = await customerFactory(server, org.organization.id, {
      email: 'full@example.com',
      name: 'Ada "Countess" Lovelace',
      external_id: 'u-1',
      billing_address: {
        line1: '1 Rue X',
        line2: null,
        city: 'Austin',
        state: 'US-TX',
        postal_code: '73301',
        country: 'US',
      },
      tax_id: ['12-3456789', 'us_ein'],
      metadata: { plan: 'pro', seats: 3 },
    });
    tick();
    const gone = await customerFactory(server, org.organization.id);
    await server.inject({ method: 'DELETE', url: `/v1/customers/${gone.id}`, headers: bearer(org.token) });

    const response = await csv('/v1/customers/export', org.token);
    expectCsv(response, 'customers.csv');
    // The reference's isoformat(): microseconds only when there are any, and +00:00.
    const at = (d: Date) =>
      d.toISOString().replace(/\.(\d{3})Z$/, (_, ms) => (ms === '000' ? '' : `.${ms}000`) + '+00:00');
    expect(lines(response.body)).toEqual([
      'ID,External ID,Created At,Email,Name,Tax ID,Billing Address Line 1,Billing Address Line 2,' +
        'Billing Address City,Billing Address State,Billing Address Zip,Billing Address Country,Metadata',
      `${full.id},u-1,${at(full.created_at)},full@example.com,"Ada ""Countess"" Lovelace",` +
        '123456789,1 Rue X,,Austin,US-TX,73301,US,"{""plan"": ""pro"", ""seats"": 3}"',
      `${plain.id},,${at(plain.created_at)},plain@example.com,,,,,,,,,`,
    ]);
  });

  it('streams an export of several batches with every customer once', async () => {
    const org = await organizationFactory(server, { name: 'Many' });
    const template = await customerFactory(server, org.organization.id);
    const count = CSV_BATCH * 2 + 37;
    // The same instant for many rows: the keyset's id breaks the ties.
    await sql`
      INSERT INTO customers (id, organization_id, email, created_at, modified_at, metadata)
      SELECT gen_random_uuid(), ${org.organization.id}::uuid, 'bulk-' || n || '@example.com',
             ${template.created_at}::timestamptz - ((n % 7) || ' microseconds')::interval, NULL, '{}'::jsonb
      FROM generate_series(1, ${count - 1}) AS n`.execute(server.runtime.database.db);
    const response = await csv('/v1/customers/export', org.token);
    expectCsv(response, 'customers.csv');
    const rows = lines(response.body).slice(1);
    expect(rows).toHaveLength(count);
    const ids = rows.map((row) => row.split(',')[0]);
    expect(new Set(ids).size).toBe(count);
    const stored = await server.runtime.database.db
      .selectFrom('customers')
      .select('id')
      .where('organization_id', '=', org.organization.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    expect(ids).toEqual(stored.map((row) => row.id));
  });

  it('is 401, 403 without customers:read, 422 for a bad filter', async () => {
    await authMatrix('/v1/customers/export', 'customers:read');
  });
});

describe('GET /v1/subscriptions/export', () => {
  it('answers CSV with the 2026 reference columns when asked for text/csv', async () => {
    const org = await organizationFactory(server, { name: 'Subscriptions' });
    const subscription = await subscriptionFactory(server, org.organization.id, {
      price: 1999,
      email: 'sub@example.com',
    });
    await subscriptionFactory(server, other.organization.id);
    const response = await csv('/v1/subscriptions/export', org.token);
    expectCsv(response, 'subscriptions.csv');
    const started = subscription.started_at!.replace(/\.000Z$/, '+00:00').replace(/Z$/, '+00:00');
    const product = json(
      await server.inject({
        method: 'GET',
        url: `/v1/products/${subscription.product_id}`,
        headers: bearer(org.token),
      }),
    ).name;
    expect(lines(response.body)).toEqual([
      'Email,Started At,Product,Amount,Currency,Status,Billing Interval',
      `sub@example.com,${started},${product},19.99,usd,active,month`,
    ]);
  });

  it('answers the CSV as a JSON string otherwise, as before', async () => {
    const org = await organizationFactory(server, { name: 'Legacy' });
    await subscriptionFactory(server, org.organization.id, { price: 1234, email: 'csv@example.com' });
    const response = await csv('/v1/subscriptions/export', org.token, 'application/json');
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect((json(response) as string).split('\r\n')[0]).toBe('Email,Created At,Active,Product,Price,Currency,Interval');
  });

  it('is 401, 403 without subscriptions:read, 422 for a bad filter', async () => {
    await authMatrix('/v1/subscriptions/export', 'subscriptions:read');
  });
});
