import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../src/platform/clock.js';
import { customerFactory, uniqueEmail } from './factories/customers.js';
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

type Headers = Record<string, string>;

function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Headers, payload?: unknown) {
  return server.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
}

const create = (payload: unknown, headers: Headers = bearer(acme.token)) =>
  call('POST', '/v1/customers/', headers, payload);
const get = (id: string, headers: Headers = bearer(acme.token)) => call('GET', `/v1/customers/${id}`, headers);
const patch = (id: string, payload: unknown, headers: Headers = bearer(acme.token)) =>
  call('PATCH', `/v1/customers/${id}`, headers, payload);
const list = (query: string, headers: Headers = bearer(acme.token)) => call('GET', `/v1/customers/?${query}`, headers);
const external = (externalId: string) => `/v1/customers/external/${encodeURIComponent(externalId)}`;

async function events(organizationId: string) {
  return server.runtime.database.db
    .selectFrom('webhook_events')
    .select(['type', 'payload'])
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The data of the last event of this type (events of one change share their timestamp). */
function dataOf(recorded: { type: string; payload: unknown }[], type: string): Record<string, unknown> {
  const found = recorded.filter((event) => event.type === type).at(-1);
  if (!found) throw new Error(`no ${type} event`);
  return (found.payload as { data: Record<string, unknown> }).data;
}

async function counts(organizationId: string) {
  const db = server.runtime.database.db;
  const customers = await db
    .selectFrom('customers')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return { customers: Number(customers.n), events: (await events(organizationId)).length };
}

const locs = (response: { body: string }) =>
  json(response as never).detail.map((d: { loc: (string | number)[] }) => d.loc.join('.'));

function advance(ms = 1000) {
  (server.clock as ManualClock).advance(ms);
}

describe('auth matrix', () => {
  let customer: Awaited<ReturnType<typeof customerFactory>>;
  let foreign: Awaited<ReturnType<typeof customerFactory>>;
  beforeAll(async () => {
    customer = await customerFactory(server, acme.organization.id, { external_id: 'acme-matrix' });
    foreign = await customerFactory(server, other.organization.id, { external_id: 'other-matrix', name: 'Foreign' });
  });

  const routes = (id: string, externalId: string) =>
    [
      ['GET', '/v1/customers/'],
      ['POST', '/v1/customers/'],
      ['GET', `/v1/customers/${id}`],
      ['PATCH', `/v1/customers/${id}`],
      ['DELETE', `/v1/customers/${id}`],
      ['GET', `/v1/customers/${id}/state`],
      ['GET', external(externalId)],
      ['PATCH', external(externalId)],
      ['DELETE', external(externalId)],
      ['GET', `${external(externalId)}/state`],
    ] as const;

  it('answers 401 without a token on every route', async () => {
    for (const [method, url] of routes(customer.id, 'acme-matrix')) {
      const response = await call(method, url, {}, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(json(response)).toEqual({ error: 'Unauthorized', detail: 'Unauthorized' });
    }
  });

  it('answers 403 insufficient_scope for a token without the customers scope', async () => {
    const readOnly = await tokenFactory(server, acme.organization.id, ['customers:read']);
    const unrelated = await tokenFactory(server, acme.organization.id, ['products:read', 'products:write']);
    for (const [method, url] of routes(customer.id, 'acme-matrix')) {
      const payload = method === 'GET' || method === 'DELETE' ? undefined : { email: uniqueEmail() };
      const asUnrelated = await call(method, url, bearer(unrelated), payload);
      expect(asUnrelated.statusCode, `${method} ${url}`).toBe(403);
      expect(json(asUnrelated).error).toBe('insufficient_scope');
      const asReader = await call(method, url, bearer(readOnly), payload);
      expect(asReader.statusCode, `${method} ${url}`).toBe(method === 'GET' ? 200 : 403);
    }
    expect((await get(customer.id)).statusCode).toBe(200);
  });

  it('accepts customers:write where read is required', async () => {
    const writer = await tokenFactory(server, acme.organization.id, ['customers:write']);
    expect((await get(customer.id, bearer(writer))).statusCode).toBe(200);
    expect((await list('', bearer(writer))).statusCode).toBe(200);
  });

  it("answers 404 for another organization's customer, by id and by external id, and changes nothing", async () => {
    const before = await counts(other.organization.id);
    for (const [method, url] of routes(foreign.id, 'other-matrix').slice(2)) {
      const response = await call(
        method,
        url,
        bearer(acme.token),
        method === 'PATCH' ? { name: 'Hijacked' } : undefined,
      );
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(json(response)).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    }
    const seen = json(await get(foreign.id, bearer(other.token)));
    expect(seen.name).toBe('Foreign');
    expect(seen.deleted_at).toBeNull();
    expect(await counts(other.organization.id)).toEqual(before);
    // Nor does it show in the list, even when asked for by organization.
    const listed = json(await list(`organization_id=${other.organization.id}`));
    expect(listed).toEqual({ items: [], pagination: { total_count: 0, max_page: 0 } });
  });

  it('answers 422 for a bad body and writes nothing', async () => {
    const before = await counts(acme.organization.id);
    const response = await create({
      email: 'not-an-email',
      name: 5,
      billing_address: { line1: 'Main St' },
      tax_id: ['123', 'xx_vat'],
      metadata: { ['k'.repeat(41)]: 'v' },
    });
    expect(response.statusCode).toBe(422);
    expect(locs(response)).toEqual(
      expect.arrayContaining([
        'body.email',
        'body.name',
        'body.billing_address.country',
        'body.tax_id.1',
        'body.metadata.' + 'k'.repeat(41),
      ]),
    );
    for (const issue of json(response).detail) expect(Object.keys(issue).sort()).toEqual(['loc', 'msg', 'type']);
    expect(await counts(acme.organization.id)).toEqual(before);

    const beforeCustomer = json(await get(customer.id));
    const update = await patch(customer.id, { email: 'nope', billing_address: { country: 'XX' } });
    expect(update.statusCode).toBe(422);
    expect(locs(update)).toEqual(['body.email', 'body.billing_address.country']);
    expect(json(await get(customer.id))).toEqual(beforeCustomer);
    expect(await counts(acme.organization.id)).toEqual(before);
  });

  it('answers 422 for an id that is not a UUID', async () => {
    const response = await get('not-a-uuid');
    expect(response.statusCode).toBe(422);
    expect(json(response).detail[0].loc).toEqual(['path', 'id']);
  });
});

describe('POST /v1/customers/', () => {
  it('creates a customer with every field, as the reference serializes it, and records the events', async () => {
    const org = await organizationFactory(server);
    const response = await create(
      {
        email: 'Jane.Doe@Example.com',
        name: 'Jane Doe',
        external_id: 'usr_1337',
        billing_address: { line1: '1 Main St', city: 'Springfield', postal_code: '12345', state: 'ca', country: 'us' },
        tax_id: ['12-3456789', 'us_ein'],
        metadata: { plan: 'pro', seats: 5, ratio: 0.5, beta: true },
      },
      bearer(org.token),
    );
    expect(response.statusCode).toBe(201);
    const body = json(response);
    const hash = createHash('sha256').update('jane.doe@example.com').digest('hex');
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      created_at: server.clock.now().toISOString(),
      modified_at: null,
      metadata: { plan: 'pro', seats: 5, ratio: 0.5, beta: true },
      external_id: 'usr_1337',
      email: 'Jane.Doe@Example.com',
      email_verified: false,
      type: 'individual',
      name: 'Jane Doe',
      billing_name: null,
      billing_address: {
        line1: '1 Main St',
        line2: null,
        postal_code: '12345',
        city: 'Springfield',
        state: 'US-CA',
        country: 'US',
      },
      tax_id: ['123456789', 'us_ein'],
      organization_id: org.organization.id,
      deleted_at: null,
      avatar_url: `https://www.gravatar.com/avatar/${hash}?d=blank`,
      credit_balance: 0,
      credit_balances: {},
    });
    expect(json(await get(body.id, bearer(org.token)))).toEqual(body);

    const recorded = await events(org.organization.id);
    expect(recorded.map((e) => e.type).sort()).toEqual(['customer.created', 'customer.state_changed']);
    expect(dataOf(recorded, 'customer.created')).toEqual(body);
    expect(dataOf(recorded, 'customer.state_changed')).toEqual({
      ...body,
      active_subscriptions: [],
      granted_benefits: [],
      active_meters: [],
    });
  });

  it('creates a customer from the email alone, with null for everything not given', async () => {
    const response = await create({ email: uniqueEmail('minimal') });
    expect(response.statusCode).toBe(201);
    expect(json(response)).toMatchObject({
      name: null,
      external_id: null,
      billing_address: null,
      tax_id: null,
      metadata: {},
      email_verified: false,
      organization_id: acme.organization.id,
    });
  });

  it('requires a valid email', async () => {
    const missing = await create({ name: 'No Email' });
    expect(missing.statusCode).toBe(422);
    expect(json(missing).detail).toEqual([{ loc: ['body', 'email'], msg: 'Field required', type: 'missing' }]);
    for (const email of ['plain', 'a@', '@b.com', 'a b@c.com', 'a@b', '']) {
      const response = await create({ email });
      expect(response.statusCode, email).toBe(422);
      expect(json(response).detail[0].loc).toEqual(['body', 'email']);
    }
  });

  it('rejects an email already used in the organization, whatever its case, but not in another one', async () => {
    const email = uniqueEmail('taken');
    await customerFactory(server, acme.organization.id, { email });
    const before = await counts(acme.organization.id);
    const response = await create({ email: email.toUpperCase() });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail).toEqual([
      { loc: ['body', 'email'], msg: 'A customer with this email address already exists.', type: 'value_error' },
    ]);
    expect(await counts(acme.organization.id)).toEqual(before);
    expect((await create({ email }, bearer(other.token))).statusCode).toBe(201);
  });

  it('lets exactly one of two racing creations with the same email and external id win', async () => {
    const email = uniqueEmail('race');
    const responses = await Promise.all([1, 2, 3].map(() => create({ email, external_id: `race-${email}` })));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 422, 422]);
    for (const loser of responses.filter((r) => r.statusCode === 422)) {
      expect(locs(loser)).toContain('body.email');
    }
  });

  it('rejects an external id already used in the organization, together with the email problem', async () => {
    const email = uniqueEmail('ext');
    await customerFactory(server, acme.organization.id, { email, external_id: 'dup-ext' });
    const response = await create({ email, external_id: 'dup-ext' });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail).toEqual([
      { loc: ['body', 'email'], msg: 'A customer with this email address already exists.', type: 'value_error' },
      { loc: ['body', 'external_id'], msg: 'A customer with this external ID already exists.', type: 'value_error' },
    ]);
    // External ids are case-sensitive, and other organizations have their own.
    expect((await create({ email: uniqueEmail(), external_id: 'DUP-EXT' })).statusCode).toBe(201);
    expect((await create({ email: uniqueEmail(), external_id: 'dup-ext' }, bearer(other.token))).statusCode).toBe(201);
  });

  it('validates the billing address: country required and a real ISO code, US and CA states checked', async () => {
    const missing = await create({ email: uniqueEmail(), billing_address: { city: 'Paris' } });
    expect(json(missing).detail).toEqual([
      { loc: ['body', 'billing_address', 'country'], msg: 'Field required', type: 'missing' },
    ]);
    for (const country of ['XX', 'UK', 'EU', 'FRA', 'F']) {
      const response = await create({ email: uniqueEmail(), billing_address: { country } });
      expect(response.statusCode, country).toBe(422);
      expect(json(response).detail[0].loc).toEqual(['body', 'billing_address', 'country']);
    }
    const state = await create({ email: uniqueEmail(), billing_address: { country: 'US', state: 'XY' } });
    expect(json(state).detail).toEqual([
      { loc: ['body', 'billing_address', 'state'], msg: 'Invalid US state', type: 'value_error' },
    ]);
    const canada = json(await create({ email: uniqueEmail(), billing_address: { country: 'CA', state: 'CA-QC' } }));
    expect(canada.billing_address.state).toBe('CA-QC');
    const france = json(
      await create({ email: uniqueEmail(), billing_address: { country: 'fr', state: 'Île-de-France', line2: '' } }),
    );
    expect(france.billing_address).toEqual({
      line1: null,
      line2: null,
      postal_code: null,
      city: null,
      state: 'Île-de-France',
      country: 'FR',
    });
  });

  it('validates the tax id against the billing country', async () => {
    const noAddress = await create({ email: uniqueEmail(), tax_id: ['FR12345678901', 'eu_vat'] });
    expect(json(noAddress).detail).toEqual([
      { loc: ['body', 'billing_address'], msg: 'Country is required to validate tax ID.', type: 'missing' },
    ]);
    const wrongCountry = await create({
      email: uniqueEmail(),
      tax_id: ['123456789', 'us_ein'],
      billing_address: { country: 'FR' },
    });
    expect(json(wrongCountry).detail).toEqual([{ loc: ['body', 'tax_id'], msg: 'Invalid tax ID.', type: 'invalid' }]);
    const malformed = await create({
      email: uniqueEmail(),
      tax_id: ['12345', 'us_ein'],
      billing_address: { country: 'US' },
    });
    expect(json(malformed).detail).toEqual([{ loc: ['body', 'tax_id'], msg: 'Invalid tax ID.', type: 'invalid' }]);
    const unknownFormat = await create({
      email: uniqueEmail(),
      tax_id: ['1', 'zz_vat'],
      billing_address: { country: 'US' },
    });
    expect(json(unknownFormat).detail[0].loc).toEqual(['body', 'tax_id', 1]);
    const notAPair = await create({ email: uniqueEmail(), tax_id: 'FR123', billing_address: { country: 'FR' } });
    expect(json(notAPair).detail[0].loc).toEqual(['body', 'tax_id']);
    const valid = await create({
      email: uniqueEmail(),
      tax_id: ['fr 123 456 789 01', 'eu_vat'],
      billing_address: { country: 'FR' },
    });
    expect(valid.statusCode).toBe(201);
    expect(json(valid).tax_id).toEqual(['FR12345678901', 'eu_vat']);
  });

  it('validates metadata as the reference does', async () => {
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    const cases: [unknown, string][] = [
      [tooMany, 'body.metadata'],
      [{ ['x'.repeat(41)]: 'v' }, `body.metadata.${'x'.repeat(41)}`],
      [{ long: 'v'.repeat(501) }, 'body.metadata.long'],
      [{ empty: '' }, 'body.metadata.empty'],
      [{ nested: { a: 1 } }, 'body.metadata.nested'],
      [{ list: [1] }, 'body.metadata.list'],
    ];
    for (const [metadata, loc] of cases) {
      const response = await create({ email: uniqueEmail(), metadata });
      expect(response.statusCode, loc).toBe(422);
      expect(locs(response), loc).toContain(loc);
    }
  });

  it('refuses organization_id with an organization token', async () => {
    const response = await create({ email: uniqueEmail(), organization_id: acme.organization.id });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail).toEqual([
      {
        loc: ['body', 'organization_id'],
        msg: 'Setting organization_id is disallowed when using an organization token.',
        type: 'organization_token',
      },
    ]);
  });

  it('lets a member create, read and list through the dashboard session, naming the organization', async () => {
    const user = await userFactory(server);
    const org = json(
      await server.inject({
        method: 'POST',
        url: '/v1/organizations/',
        headers: user.headers,
        payload: { name: 'Mine', slug: `mine-${Date.now()}` },
      }),
    );
    const missing = await create({ email: uniqueEmail() }, user.headers);
    expect(json(missing).detail).toEqual([
      { loc: ['body', 'organization_id'], msg: 'organization_id is required.', type: 'missing' },
    ]);
    const notMember = await create({ email: uniqueEmail(), organization_id: acme.organization.id }, user.headers);
    expect(json(notMember).detail).toEqual([
      { loc: ['body', 'organization_id'], msg: 'Organization not found.', type: 'value_error' },
    ]);
    const created = await create({ email: uniqueEmail(), organization_id: org.id }, user.headers);
    expect(created.statusCode).toBe(201);
    expect(json(created).organization_id).toBe(org.id);
    expect((await get(json(created).id, { cookie: user.cookie })).statusCode).toBe(200);
    const listed = json(await list('', { cookie: user.cookie }));
    expect(listed.items.map((c: { id: string }) => c.id)).toEqual([json(created).id]);
    // Another organization's customer stays invisible to the member.
    const foreign = await customerFactory(server, acme.organization.id);
    expect((await get(foreign.id, { cookie: user.cookie })).statusCode).toBe(404);
    // Writes with the cookie must come from our own origin.
    const crossSite = await create(
      { email: uniqueEmail(), organization_id: org.id },
      { cookie: user.cookie, origin: 'https://evil.example' },
    );
    expect(crossSite.statusCode).toBe(403);
  });
});

describe('GET /v1/customers/', () => {
  let org: OrganizationFixture;
  const made: { id: string; email: string; name: string }[] = [];
  beforeAll(async () => {
    org = await organizationFactory(server);
    const people: {
      email: string;
      name: string;
      external_id: string | null;
      metadata: Record<string, string | number | boolean>;
    }[] = [
      { email: 'carol@example.com', name: 'Carol', external_id: 'crm-300', metadata: { tier: 'gold', seats: 5 } },
      { email: 'alice@example.com', name: 'Alice', external_id: 'crm-100', metadata: { tier: 'silver', beta: true } },
      { email: 'erin@sample.org', name: 'Erin', external_id: 'erp-1', metadata: { tier: 'gold', beta: false } },
      { email: 'bob@example.com', name: 'Bob 100%', external_id: null, metadata: {} },
      { email: 'dave@sample.org', name: 'Dave', external_id: 'crm-200', metadata: { tier: 'bronze', seats: 5 } },
    ];
    for (const person of people) {
      advance();
      const row = await customerFactory(server, org.organization.id, person);
      made.push({ id: row.id, email: row.email, name: row.name! });
    }
  });
  const ids = async (query: string) =>
    json(await list(query, bearer(org.token))).items.map((c: { id: string }) => c.id);
  const emails = async (query: string) =>
    json(await list(query, bearer(org.token))).items.map((c: { email: string }) => c.email);

  it('sorts newest first by default', async () => {
    expect(await ids('')).toEqual([...made].reverse().map((c) => c.id));
  });

  it('sorts by created_at, email and name, ascending or descending', async () => {
    expect(await ids('sorting=created_at')).toEqual(made.map((c) => c.id));
    const byEmail = made.map((c) => c.email).sort();
    expect(await emails('sorting=email')).toEqual(byEmail);
    expect(await emails('sorting=-email')).toEqual([...byEmail].reverse());
    const byName = [...made].sort((a, b) => a.name.localeCompare(b.name)).map((c) => c.id);
    expect(await ids('sorting=name')).toEqual(byName);
    expect(await ids('sorting=-name')).toEqual([...byName].reverse());
  });

  it('rejects an unknown sorting key', async () => {
    const response = await list('sorting=external_id', bearer(org.token));
    expect(response.statusCode).toBe(422);
    expect(json(response).detail[0].loc).toEqual(['query', 'sorting', 0]);
  });

  it('pages across more than one page', async () => {
    const all = await ids('sorting=email');
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const body = json(await list(`sorting=email&limit=2&page=${page}`, bearer(org.token)));
      expect(body.pagination).toEqual({ total_count: 5, max_page: 3 });
      expect(body.items).toHaveLength(page < 3 ? 2 : 1);
      seen.push(...body.items.map((c: { id: string }) => c.id));
    }
    expect(seen).toEqual(all);
    const beyond = json(await list('limit=2&page=4', bearer(org.token)));
    expect(beyond).toEqual({ items: [], pagination: { total_count: 5, max_page: 3 } });
    const tooBig = await list('limit=101', bearer(org.token));
    expect(tooBig.statusCode).toBe(422);
  });

  it('filters by email exactly, case-insensitively', async () => {
    expect(await emails('email=ALICE@example.com')).toEqual(['alice@example.com']);
    expect(await emails('email=alice')).toEqual([]);
  });

  it('searches email and name by substring and external id by prefix', async () => {
    expect((await emails('query=sample.org&sorting=email')).sort()).toEqual(['dave@sample.org', 'erin@sample.org']);
    expect(await emails('query=CAROL')).toEqual(['carol@example.com']);
    expect(await emails('query=crm-&sorting=email')).toEqual([
      'alice@example.com',
      'carol@example.com',
      'dave@sample.org',
    ]);
    // "100" is inside crm-100 but not at its start; it is in Bob's name.
    expect(await emails('query=100')).toEqual(['bob@example.com']);
    // LIKE wildcards match themselves.
    expect(await emails('query=%25')).toEqual(['bob@example.com']);
    expect(await emails('query=_')).toEqual([]);
  });

  it('filters by metadata: repeated values OR, different keys AND, text comparison', async () => {
    expect(await emails('metadata[tier]=gold&sorting=email')).toEqual(['carol@example.com', 'erin@sample.org']);
    expect(await emails('metadata[tier]=gold&metadata[tier]=bronze&sorting=email')).toEqual([
      'carol@example.com',
      'dave@sample.org',
      'erin@sample.org',
    ]);
    expect(await emails('metadata[tier]=gold&metadata[seats]=5')).toEqual(['carol@example.com']);
    expect(await emails('metadata[beta]=true')).toEqual(['alice@example.com']);
    expect(await emails('metadata[beta]=false')).toEqual(['erin@sample.org']);
    expect(await emails('metadata[missing]=x')).toEqual([]);
  });

  it('filters by one or several organizations', async () => {
    expect(await ids(`organization_id=${org.organization.id}`)).toHaveLength(5);
    expect(await ids(`organization_id=${org.organization.id}&organization_id=${acme.organization.id}`)).toHaveLength(5);
    expect(await ids(`organization_id=${acme.organization.id}`)).toEqual([]);
    const bad = await list('organization_id=nope', bearer(org.token));
    expect(bad.statusCode).toBe(422);
    expect(json(bad).detail[0].loc).toEqual(['query', 'organization_id', 0]);
  });
});

describe('PATCH /v1/customers/{id} and /external/{external_id}', () => {
  it('changes only the fields sent, stamps modified_at and records the events', async () => {
    const org = await organizationFactory(server);
    const customer = await customerFactory(server, org.organization.id, {
      name: 'Before',
      metadata: { keep: 'no' },
      billing_address: { line1: null, line2: null, postal_code: null, city: null, state: null, country: 'SE' },
    });
    advance();
    const response = await patch(customer.id, { name: 'After', metadata: { fresh: 1 } }, bearer(org.token));
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(body).toMatchObject({
      name: 'After',
      metadata: { fresh: 1 },
      email: customer.email,
      billing_address: { country: 'SE' },
      modified_at: server.clock.now().toISOString(),
    });
    const recorded = await events(org.organization.id);
    expect(recorded.map((e) => e.type).sort()).toEqual([
      'customer.created',
      'customer.state_changed',
      'customer.state_changed',
      'customer.updated',
    ]);
    expect(dataOf(recorded, 'customer.updated')).toEqual(body);
    const cleared = json(await patch(customer.id, { name: null, billing_address: null }, bearer(org.token)));
    expect(cleared).toMatchObject({ name: null, billing_address: null, metadata: { fresh: 1 } });
  });

  it('changes the email only to a free one, and a change resets email_verified', async () => {
    const taken = await customerFactory(server, acme.organization.id);
    const customer = await customerFactory(server, acme.organization.id);
    await server.runtime.database.db
      .updateTable('customers')
      .set({ email_verified: true })
      .where('id', '=', customer.id)
      .execute();
    const clash = await patch(customer.id, { email: taken.email.toUpperCase() });
    expect(json(clash).detail).toEqual([
      { loc: ['body', 'email'], msg: 'A customer with this email address already exists.', type: 'value_error' },
    ]);
    // The same address in another case is no change at all.
    const same = json(await patch(customer.id, { email: customer.email.toUpperCase() }));
    expect(same).toMatchObject({ email: customer.email, email_verified: true });
    const fresh = uniqueEmail('fresh');
    const changed = json(await patch(customer.id, { email: fresh }));
    expect(changed).toMatchObject({ email: fresh, email_verified: false });
    // An explicit null email is ignored, as the reference does.
    expect(json(await patch(customer.id, { email: null })).email).toBe(fresh);
  });

  it('sets the external id once and never changes it', async () => {
    await customerFactory(server, acme.organization.id, { external_id: 'ext-taken' });
    const customer = await customerFactory(server, acme.organization.id);
    const clash = await patch(customer.id, { external_id: 'ext-taken' });
    expect(json(clash).detail).toEqual([
      { loc: ['body', 'external_id'], msg: 'A customer with this external ID already exists.', type: 'value_error' },
    ]);
    expect(json(await patch(customer.id, { external_id: 'ext-mine' })).external_id).toBe('ext-mine');
    expect((await patch(customer.id, { external_id: 'ext-mine', name: 'Same id' })).statusCode).toBe(200);
    for (const external_id of ['ext-other', null]) {
      const response = await patch(customer.id, { external_id });
      expect(json(response).detail).toEqual([
        { loc: ['body', 'external_id'], msg: 'Customer external ID cannot be updated.', type: 'value_error' },
      ]);
    }
    expect(json(await get(customer.id)).external_id).toBe('ext-mine');
  });

  it('updates by external id, where the body has no external_id', async () => {
    const customer = await customerFactory(server, acme.organization.id, { external_id: 'user/42 ü' });
    const response = await call('PATCH', external('user/42 ü'), bearer(acme.token), {
      name: 'By External',
      external_id: 'ignored',
    });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({ id: customer.id, name: 'By External', external_id: 'user/42 ü' });
    expect((await call('PATCH', external('no-such'), bearer(acme.token), { name: 'x' })).statusCode).toBe(404);
  });

  it('validates a tax id against the current or the new billing country', async () => {
    const customer = await customerFactory(server, acme.organization.id);
    const noCountry = await patch(customer.id, { tax_id: ['123456789', 'us_ein'] });
    expect(json(noCountry).detail).toEqual([
      { loc: ['body', 'billing_address'], msg: 'Country is required to validate tax ID.', type: 'missing' },
    ]);
    const both = json(
      await patch(customer.id, { tax_id: ['12-3456789', 'us_ein'], billing_address: { country: 'US' } }),
    );
    expect(both.tax_id).toEqual(['123456789', 'us_ein']);
    // Moving to a country that does not use the format is refused; clearing the address too.
    const moved = await patch(customer.id, { billing_address: { country: 'DE' } });
    expect(json(moved).detail).toEqual([{ loc: ['body', 'tax_id'], msg: 'Invalid tax ID.', type: 'invalid' }]);
    const cleared = await patch(customer.id, { billing_address: null });
    expect(json(cleared).detail[0].loc).toEqual(['body', 'billing_address']);
    // A new tax id is checked against the stored country.
    expect(json(await patch(customer.id, { tax_id: ['DE123456789', 'eu_vat'] })).detail[0].msg).toBe('Invalid tax ID.');
    const removed = json(await patch(customer.id, { tax_id: null }));
    expect(removed).toMatchObject({ tax_id: null, billing_address: { country: 'US' } });
    expect(json(await patch(customer.id, { billing_address: null })).billing_address).toBeNull();
  });
});

describe('DELETE /v1/customers/{id} and /external/{external_id}', () => {
  it('soft-deletes: 204, then 404 everywhere, and frees the email and external id', async () => {
    const org = await organizationFactory(server);
    const email = uniqueEmail('gone');
    const customer = await customerFactory(server, org.organization.id, { email, external_id: 'gone-1' });
    advance();
    const response = await call('DELETE', `/v1/customers/${customer.id}`, bearer(org.token));
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const headers = bearer(org.token);
    for (const [method, url] of [
      ['GET', `/v1/customers/${customer.id}`],
      ['GET', `/v1/customers/${customer.id}/state`],
      ['PATCH', `/v1/customers/${customer.id}`],
      ['DELETE', `/v1/customers/${customer.id}`],
      ['GET', external('gone-1')],
      ['GET', `${external('gone-1')}/state`],
      ['DELETE', external('gone-1')],
    ] as const) {
      const answer = await call(method, url, headers, method === 'PATCH' ? { name: 'x' } : undefined);
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(json(await list('', headers)).items).toEqual([]);

    const row = await server.runtime.database.db
      .selectFrom('customers')
      .selectAll()
      .where('id', '=', customer.id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at?.toISOString()).toBe(server.clock.now().toISOString());
    const recorded = await events(org.organization.id);
    expect(
      recorded
        .slice(-2)
        .map((e) => e.type)
        .sort(),
    ).toEqual(['customer.deleted', 'customer.state_changed']);
    const data = dataOf(recorded, 'customer.deleted');
    expect(data).toMatchObject({
      id: customer.id,
      email,
      external_id: 'gone-1',
      deleted_at: row.deleted_at?.toISOString(),
    });

    const again = await create({ email: email.toUpperCase(), external_id: 'gone-1' }, headers);
    expect(again.statusCode).toBe(201);
    expect(json(await call('GET', external('gone-1'), headers)).id).toBe(json(again).id);
  });

  it('deletes by external id', async () => {
    const customer = await customerFactory(server, acme.organization.id, { external_id: 'delete-me' });
    expect((await call('DELETE', external('delete-me'), bearer(acme.token))).statusCode).toBe(204);
    expect((await get(customer.id)).statusCode).toBe(404);
    expect((await call('DELETE', external('delete-me'), bearer(acme.token))).statusCode).toBe(404);
  });
});

describe('GET /v1/customers/{id}/state', () => {
  it('is the customer plus its (for now empty) subscriptions, benefits and meters', async () => {
    const customer = await customerFactory(server, acme.organization.id, { external_id: 'stateful', name: 'State' });
    const expected = {
      ...json(await get(customer.id)),
      active_subscriptions: [],
      granted_benefits: [],
      active_meters: [],
    };
    const byId = await call('GET', `/v1/customers/${customer.id}/state`, bearer(acme.token));
    expect(byId.statusCode).toBe(200);
    expect(json(byId)).toEqual(expected);
    const byExternal = await call('GET', `${external('stateful')}/state`, bearer(acme.token));
    expect(json(byExternal)).toEqual(expected);
    expect(json(await call('GET', external('stateful'), bearer(acme.token))).id).toBe(customer.id);
  });
});
