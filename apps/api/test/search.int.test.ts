import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { likePrefix } from '../src/modules/search/search.service.js';
import { customerFactory } from './factories/customers.js';
import { licenseKeyFactory } from './factories/license-keys.js';
import { orderFactory } from './factories/orders.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { subscriptionFactory } from './factories/subscriptions.js';
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

interface Hit {
  type: string;
  id: string;
  organization_id: string;
  title: string;
  description: string | null;
}

async function search(query: string, token = acme.token, extra = ''): Promise<Hit[]> {
  const response = await server.inject({
    method: 'GET',
    url: `/v1/search/?query=${encodeURIComponent(query)}${extra}`,
    headers: bearer(token),
  });
  expect(response.statusCode, response.body).toBe(200);
  return json(response).items;
}

const kinds = (hits: Hit[]) => hits.map((hit) => `${hit.type}:${hit.id}`);

describe('GET /v1/search/: auth matrix', () => {
  it('401 without a token, 403 without a read scope of a searched type, 422 for a bad query', async () => {
    const anonymous = await server.inject({ method: 'GET', url: '/v1/search/?query=a' });
    expect(anonymous.statusCode).toBe(401);
    expect(json(anonymous)).toEqual({ error: 'Unauthorized', detail: 'Unauthorized' });

    const unrelated = await tokenFactory(server, acme.organization.id, ['benefits:read', 'webhooks:write']);
    const forbidden = await server.inject({ method: 'GET', url: '/v1/search/?query=a', headers: bearer(unrelated) });
    expect(forbidden.statusCode).toBe(403);

    for (const [url, loc] of [
      ['/v1/search/', 'query.query'],
      ['/v1/search/?query=%20%20', 'query.query'],
      [`/v1/search/?query=${'x'.repeat(101)}`, 'query.query'],
      ['/v1/search/?query=a&query=b', 'query.query'],
      ['/v1/search/?query=a&organization_id=nope', 'query.organization_id'],
    ] as const) {
      const response = await server.inject({ method: 'GET', url, headers: bearer(acme.token) });
      expect(response.statusCode, url).toBe(422);
      expect(json(response).detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual([loc]);
    }
  });

  it("never answers another organization's rows, by id or by email", async () => {
    const theirs = await customerFactory(server, other.organization.id, { email: 'shared-prefix@example.com' });
    expect(await search(theirs.id)).toEqual([]);
    expect(await search('shared-prefix')).toEqual([]);
    // Naming the other organization does not open it either.
    expect(await search('shared-prefix', acme.token, `&organization_id=${other.organization.id}`)).toEqual([]);
    expect(kinds(await search('shared-prefix', other.token))).toEqual([`customer:${theirs.id}`]);
  });

  it('a user searches the organizations they belong to, and only those', async () => {
    const user = await userFactory(server);
    const created = await server.inject({
      method: 'POST',
      url: '/v1/organizations/',
      headers: user.headers,
      payload: { name: 'Users Shop', slug: `users-shop-${Date.now()}` },
    });
    const organizationId = json(created).id as string;
    const own = await customerFactory(server, organizationId, { email: 'member-find@example.com' });
    await customerFactory(server, acme.organization.id, { email: 'member-find-not@example.com' });
    const response = await server.inject({
      method: 'GET',
      url: `/v1/search/?query=member-find&organization_id=${organizationId}`,
      headers: user.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(kinds(json(response).items)).toEqual([`customer:${own.id}`]);
    const elsewhere = await server.inject({
      method: 'GET',
      url: `/v1/search/?query=member-find&organization_id=${acme.organization.id}`,
      headers: user.headers,
    });
    expect(json(elsewhere).items).toEqual([]);
  });
});

describe('GET /v1/search/: what it finds', () => {
  it('customers by the start of their email or name (any case), by id; their orders, subscriptions, keys', async () => {
    const grace = await customerFactory(server, acme.organization.id, {
      email: 'grace.hopper@navy.example',
      name: 'Grace Hopper',
    });
    const order = await orderFactory(server, acme.organization.id, { customer: grace });
    const key = await licenseKeyFactory(server, acme.organization.id);

    const byEmail = await search('GRACE.HOP');
    expect(byEmail[0]).toEqual({
      type: 'customer',
      id: grace.id,
      organization_id: acme.organization.id,
      title: 'Grace Hopper',
      description: 'grace.hopper@navy.example',
    });
    expect(kinds(byEmail)).toContain(`order:${order.id}`);
    expect(kinds(await search('hopper'))).toEqual([]);
    expect(kinds(await search('grace h'))).toContain(`customer:${grace.id}`);
    expect(kinds(await search(grace.id.toUpperCase()))).toEqual([`customer:${grace.id}`, `order:${order.id}`]);
    expect(kinds(await search(order.id))).toEqual([`order:${order.id}`]);
    const { invoice_number } = await server.runtime.database.db
      .selectFrom('orders')
      .select('invoice_number')
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(kinds(await search(invoice_number))).toContain(`order:${order.id}`);

    const byKey = await search(key.key.slice(0, 13).toLowerCase());
    expect(kinds(byKey)).toEqual([`license_key:${key.id}`]);
    // The key itself is never answered, only its display form.
    expect(byKey[0]!.title).toBe(`****-${key.key.slice(-6)}`);
    expect(JSON.stringify(byKey)).not.toContain(key.key);
  });

  it('products by the start of their name; subscriptions of the customer found', async () => {
    const product = await productFactory(server, acme.organization.id, { name: 'Zephyr Pro' });
    const subscription = await subscriptionFactory(server, acme.organization.id, { email: 'zed@buyers.example' });
    expect(await search('zephyr')).toEqual([
      {
        type: 'product',
        id: product.product.id,
        organization_id: acme.organization.id,
        title: 'Zephyr Pro',
        description: 'One-time',
      },
    ]);
    const hits = await search('zed@buyers');
    expect(hits.map((hit) => hit.type)).toEqual(['customer', 'order', 'subscription']);
    expect(hits[2]).toMatchObject({ id: subscription.id, description: 'zed@buyers.example · active' });
  });

  it('answers only the types the token may read', async () => {
    const ada = await customerFactory(server, acme.organization.id, { email: 'scoped-ada@example.com' });
    await orderFactory(server, acme.organization.id, { customer: ada });
    const ordersOnly = await tokenFactory(server, acme.organization.id, ['orders:read']);
    expect((await search('scoped-ada', ordersOnly)).map((hit) => hit.type)).toEqual(['order']);
    const customersOnly = await tokenFactory(server, acme.organization.id, ['customers:write']);
    expect((await search('scoped-ada', customersOnly)).map((hit) => hit.type)).toEqual(['customer']);
  });

  it('takes LIKE wildcards literally and answers at most five of a type', async () => {
    for (let index = 0; index < 7; index += 1) {
      await customerFactory(server, acme.organization.id, { email: `bulk${index}@many.example` });
    }
    expect(await search('%')).toEqual([]);
    expect(await search('bulk_')).toEqual([]);
    expect(await search('bulk')).toHaveLength(5);
  });
});

describe('likePrefix', () => {
  it.each([
    ['Ada', 'ada%'],
    ['50%_off', '50\\%\\_off%'],
    ['back\\slash', 'back\\\\slash%'],
  ])('%s → %s', (query, expected) => {
    expect(likePrefix(query)).toBe(expected);
  });
});

describe('indexes', () => {
  // With sequential scans and sorts priced out, the plan shows whether an index serves the statement's
  // shape as a range read in order: without one, the plan falls back to a sequential scan or a filter.
  // The statements are the repository's shapes (search.repository.ts), on migration 0042's C-collated
  // indexes.
  it.each([
    [
      'lower(email)',
      sql`SELECT id FROM customers WHERE organization_id = ${'00000000-0000-4000-8000-000000000000'}
          AND deleted_at IS NULL AND lower(email) COLLATE "C" LIKE ${'ada%'} ORDER BY lower(email) COLLATE "C" LIMIT 5`,
    ],
    [
      'lower(name)',
      sql`SELECT id FROM customers WHERE organization_id = ${'00000000-0000-4000-8000-000000000000'}
          AND deleted_at IS NULL AND lower(name) COLLATE "C" LIKE ${'ada%'} ORDER BY lower(name) COLLATE "C" LIMIT 5`,
    ],
    [
      'lower(name)',
      sql`SELECT id FROM products WHERE organization_id = ${'00000000-0000-4000-8000-000000000000'}
          AND lower(name) COLLATE "C" LIKE ${'pro%'} ORDER BY lower(name) COLLATE "C" LIMIT 5`,
    ],
    [
      'key',
      sql`SELECT id FROM license_keys WHERE organization_id = ${'00000000-0000-4000-8000-000000000000'}
          AND deleted_at IS NULL AND key COLLATE "C" LIKE ${'TEST-AB%'} ORDER BY key COLLATE "C" LIMIT 5`,
    ],
  ])('a prefix of %s is an index range', async (column, statement) => {
    const plan = await server.runtime.database.db.transaction().execute(async (db) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(db);
      await sql`SET LOCAL enable_sort = off`.execute(db);
      const explained = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${statement}`.execute(db);
      return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(new RegExp(`Index Cond: .*${column.replace(/[()]/g, '\\$&')}.* >= '`));
    expect(plan).not.toMatch(/Seq Scan|Sort/);
  });
});
