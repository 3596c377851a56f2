import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  matchesFilter,
  type MeterEvent,
  type MeterFilter,
} from '../src/modules/customer-meters/customer-meters.window.js';
import { Event, EventName, EventsIngestResponse } from '../src/modules/events/events.schemas.js';
import { customerFactory } from './factories/customers.js';
import { userFactory } from './factories/users.js';
import { meterFactory } from './factories/benefits.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
let acme: OrganizationFixture;
let globex: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  globex = await organizationFactory(server, { name: 'Globex' });
});
afterAll(() => server?.stop());

const db = () => server.runtime.database.db;

async function ingest(events: unknown[], token = acme.token) {
  return server.inject({ method: 'POST', url: '/v1/events/ingest', headers: bearer(token), payload: { events } });
}

async function get(url: string, token = acme.token) {
  return server.inject({ method: 'GET', url, headers: bearer(token) });
}

async function eventCount(organizationId = acme.organization.id): Promise<number> {
  const row = await db()
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const past = (seconds: number) => new Date(server.clock.now().getTime() - seconds * 1000).toISOString();

describe('auth', () => {
  it('401 without a token on every route', async () => {
    for (const [method, url] of [
      ['POST', '/v1/events/ingest'],
      ['GET', '/v1/events/'],
      ['GET', '/v1/events/names'],
      ['GET', `/v1/events/${randomUUID()}`],
    ] as const) {
      const response = await server.inject({ method, url, payload: method === 'POST' ? { events: [] } : undefined });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('403 without an events scope; events:read does not ingest', async () => {
    const customersOnly = await tokenFactory(server, acme.organization.id, ['customers:read']);
    expect((await get('/v1/events/', customersOnly)).statusCode).toBe(403);
    expect((await get('/v1/events/names', customersOnly)).statusCode).toBe(403);
    const readOnly = await tokenFactory(server, acme.organization.id, ['events:read']);
    expect((await get('/v1/events/', readOnly)).statusCode).toBe(200);
    const before = await eventCount();
    const response = await ingest([{ name: 'x', external_customer_id: 'u1' }], readOnly);
    expect(response.statusCode).toBe(403);
    expect(await eventCount()).toBe(before);
  });

  it("404 for another organization's event; its lists do not show it", async () => {
    const customer = await customerFactory(server, globex.organization.id);
    expect((await ingest([{ name: 'globex.only', customer_id: customer.id }], globex.token)).statusCode).toBe(200);
    const event = await db()
      .selectFrom('events')
      .select('id')
      .where('organization_id', '=', globex.organization.id)
      .executeTakeFirstOrThrow();
    expect((await get(`/v1/events/${event.id}`)).statusCode).toBe(404);
    expect((await get(`/v1/events/${event.id}`, globex.token)).statusCode).toBe(200);
    expect(json(await get('/v1/events/?name=globex.only')).items).toEqual([]);
    expect(json(await get('/v1/events/names?query=globex')).items).toEqual([]);
  });
});

describe('POST /v1/events/ingest', () => {
  it('inserts a batch and answers {inserted, duplicates}', async () => {
    const customer = await customerFactory(server, acme.organization.id);
    const response = await ingest([
      { name: 'api.call', customer_id: customer.id, metadata: { route: '/a', ms: 12 } },
      { name: 'api.call', external_customer_id: 'ext-1', timestamp: past(60) },
    ]);
    expect(response.statusCode).toBe(200);
    expect(EventsIngestResponse.parse(json(response))).toEqual({ inserted: 2, duplicates: 0 });
  });

  it('is all or nothing: every invalid event in one 422 at body.events.<i>.<field>, nothing inserted', async () => {
    const other = await customerFactory(server, globex.organization.id);
    const before = await eventCount();
    const future = new Date(server.clock.now().getTime() + 60_000).toISOString();
    const response = await ingest([
      { name: 'ok', external_customer_id: 'u1' },
      { name: 'unknown customer', customer_id: randomUUID() },
      { name: 'future', external_customer_id: 'u1', timestamp: future },
      { name: 'other organization customer', customer_id: other.id },
      { name: 'ok again', external_customer_id: 'u2' },
    ]);
    expect(response.statusCode).toBe(422);
    const locs = json(response).detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(locs).toEqual(['body.events.1.customer_id', 'body.events.2.timestamp', 'body.events.3.customer_id']);
    expect(json(response).detail[1].msg).toMatch(/in the past/);
    expect(await eventCount()).toBe(before);
  });

  it('reports every malformed event at once (name, customer, timestamp without zone, metadata, NaN-free)', async () => {
    const before = await eventCount();
    const response = await ingest([
      { external_customer_id: 'u1' },
      { name: 'no customer' },
      { name: 'naive', external_customer_id: 'u1', timestamp: '2025-01-01T00:00:00' },
      { name: 'x'.repeat(129), external_customer_id: 'u1' },
      { name: 'both', customer_id: randomUUID(), external_customer_id: 'u1' },
      { name: 'bad metadata', external_customer_id: 'u1', metadata: { nested: { a: 1 } } },
    ]);
    expect(response.statusCode).toBe(422);
    const locs = json(response).detail.map((d: { loc: unknown[] }) => d.loc.slice(0, 4).join('.'));
    for (const loc of [
      'body.events.0.name',
      'body.events.1.customer_id',
      'body.events.2.timestamp',
      'body.events.3.name',
      'body.events.4.external_customer_id',
      'body.events.5.metadata',
    ]) {
      expect(locs).toContain(loc);
    }
    expect(await eventCount()).toBe(before);
  });

  it('numbers no double holds (1e400) are a 422, never stored as infinities', async () => {
    const before = await eventCount();
    const response = await server.inject({
      method: 'POST',
      url: '/v1/events/ingest',
      headers: { ...bearer(acme.token), 'content-type': 'application/json' },
      payload: '{"events":[{"name":"x","external_customer_id":"u1","metadata":{"tokens":1e400}}]}',
    });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail[0].loc.slice(0, 4)).toEqual(['body', 'events', 0, 'metadata']);
    const nan = await server.inject({
      method: 'POST',
      url: '/v1/events/ingest',
      headers: { ...bearer(acme.token), 'content-type': 'application/json' },
      payload: '{"events":[{"name":"x","external_customer_id":"u1","metadata":{"tokens":NaN}}]}',
    });
    expect(nan.statusCode).toBe(422);
    expect(await eventCount()).toBe(before);
  });

  it('organization_id: refused with an organization token', async () => {
    const response = await ingest([{ name: 'x', external_customer_id: 'u1', organization_id: acme.organization.id }]);
    expect(response.statusCode).toBe(422);
    expect(json(response).detail[0]).toMatchObject({
      loc: ['body', 'events', 0, 'organization_id'],
      type: 'organization_token',
    });
  });

  it('organization_id: required for a dashboard user, and one of their organizations', async () => {
    const user = await userFactory(server);
    const org = json(
      await server.inject({
        method: 'POST',
        url: '/v1/organizations/',
        headers: user.headers,
        payload: { name: 'User Org', slug: `user-org-${randomUUID().slice(0, 8)}` },
      }),
    );
    const send = (events: unknown[]) =>
      server.inject({ method: 'POST', url: '/v1/events/ingest', headers: user.headers, payload: { events } });
    const before = await eventCount(org.id);
    const response = await send([
      { name: 'x', external_customer_id: 'u1' },
      { name: 'x', external_customer_id: 'u1', organization_id: acme.organization.id },
      { name: 'x', external_customer_id: 'u1', organization_id: org.id },
    ]);
    expect(response.statusCode).toBe(422);
    expect(json(response).detail).toEqual([
      { loc: ['body', 'events', 0, 'organization_id'], msg: 'organization_id is required.', type: 'missing' },
      { loc: ['body', 'events', 1, 'organization_id'], msg: 'Organization not found.', type: 'value_error' },
    ]);
    expect(await eventCount(org.id)).toBe(before);
    expect(json(await send([{ name: 'x', external_customer_id: 'u1', organization_id: org.id }]))).toEqual({
      inserted: 1,
      duplicates: 0,
    });
    expect(await eventCount(org.id)).toBe(before + 1);
  });

  it('stores an external customer id before the customer exists and attaches it once one does', async () => {
    const external = `later-${randomUUID()}`;
    expect((await ingest([{ name: 'early', external_customer_id: external }])).statusCode).toBe(200);
    const [before] = json(await get(`/v1/events/?external_customer_id=${external}`)).items;
    expect(before).toMatchObject({ external_customer_id: external, customer_id: null, customer: null });

    const customer = await customerFactory(server, acme.organization.id, { external_id: external });
    const after = json(await get(`/v1/events/${before.id}`));
    expect(Event.parse(after).customer?.id).toBe(customer.id);
    // The customer's id finds the events sent under its external id.
    const byId = json(await get(`/v1/events/?customer_id=${customer.id}`)).items;
    expect(byId.map((e: { id: string }) => e.id)).toEqual([before.id]);
  });

  it('deduplicates by external_id: a batch sent again inserts nothing twice', async () => {
    const batch = [
      { name: 'dedup', external_customer_id: 'u1', external_id: `a-${randomUUID()}` },
      { name: 'dedup', external_customer_id: 'u1', external_id: `b-${randomUUID()}` },
      { name: 'dedup', external_customer_id: 'u1' },
    ];
    expect(json(await ingest(batch))).toEqual({ inserted: 3, duplicates: 0 });
    const before = await eventCount();
    expect(json(await ingest(batch))).toEqual({ inserted: 1, duplicates: 2 });
    expect(await eventCount()).toBe(before + 1);
    // Another organization's external ids are its own.
    expect(json(await ingest(batch, globex.token))).toEqual({ inserted: 3, duplicates: 0 });
  });

  it('a duplicate external_id inside one batch is a 422 naming both positions', async () => {
    const before = await eventCount();
    const response = await ingest([
      { name: 'a', external_customer_id: 'u1', external_id: 'same' },
      { name: 'b', external_customer_id: 'u1', external_id: 'other' },
      { name: 'c', external_customer_id: 'u1', external_id: 'same' },
    ]);
    expect(response.statusCode).toBe(422);
    expect(json(response).detail).toEqual([
      {
        loc: ['body', 'events', 2, 'external_id'],
        msg: 'Duplicate external_id in this batch: events 0 and 2 have the same one.',
        type: 'duplicate',
      },
    ]);
    expect(await eventCount()).toBe(before);
  });

  it('takes a large batch in one statement (more values than a statement may have parameters)', async () => {
    const before = await eventCount();
    const events = Array.from({ length: 7000 }, (_, i) => ({ name: 'bulk', external_customer_id: `b${i % 7}` }));
    const response = await ingest(events);
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ inserted: 7000, duplicates: 0 });
    expect(await eventCount()).toBe(before + 7000);
  });

  it('a batch over the body limit is a 413 that names the limit, and inserts nothing', async () => {
    const before = await eventCount();
    const events = Array.from({ length: 12_000 }, (_, i) => ({
      name: 'too.many',
      external_customer_id: `customer-${i}`,
      metadata: { padding: 'x'.repeat(60) },
    }));
    const response = await ingest(events);
    expect(response.statusCode).toBe(413);
    expect(json(response)).toEqual({
      error: 'PayloadTooLarge',
      detail: `Request body is larger than the limit of ${server.config.bodyLimit} bytes (BODY_LIMIT)`,
    });
    expect(await eventCount()).toBe(before);
  });

  it('records customer.state_changed for customers whose meters an event counts, and only for them', async () => {
    const org = await organizationFactory(server, { name: 'Metered' });
    await meterFactory(server, org.organization.id, {
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'llm' }] },
    });
    const counted = await customerFactory(server, org.organization.id, { external_id: 'counted' });
    const ignored = await customerFactory(server, org.organization.id);
    // Events are told apart by id: a table's rows come in no set order, and the runs' instants need not
    // follow the order they were recorded in.
    const seen = new Set<string>();
    const newStateChanges = async () => {
      const rows = await db()
        .selectFrom('webhook_events')
        .select(['id', 'payload'])
        .where('organization_id', '=', org.organization.id)
        .where('type', '=', 'customer.state_changed')
        .execute();
      const fresh = rows.filter((row) => !seen.has(row.id));
      for (const row of fresh) seen.add(row.id);
      return fresh.map((row) => (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload).data);
    };
    await newStateChanges();
    expect(
      (
        await ingest(
          [
            { name: 'llm', external_customer_id: 'counted' },
            { name: 'other', customer_id: ignored.id },
          ],
          org.token,
        )
      ).statusCode,
    ).toBe(200);
    // The job records them together: once one is there, any other would be too.
    let changes: any[] = [];
    for (const deadline = Date.now() + 20_000; changes.length === 0 && Date.now() < deadline;) {
      changes = await newStateChanges();
      if (changes.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(changes.map((c) => c.id)).toEqual([counted.id]);
    expect(changes[0].active_meters).toMatchObject([{ consumed_units: 1, credited_units: 0, balance: -1 }]);

    // Batches in a row mark the customer; the runs record its state (once per run, not per batch) and
    // leave no mark behind; the last run's event carries every batch.
    for (let i = 0; i < 3; i++) {
      expect((await ingest([{ name: 'llm', external_customer_id: 'counted' }], org.token)).statusCode).toBe(200);
    }
    const marks = () => db().selectFrom('customer_state_changes').select('customer_id').execute();
    const later: any[] = [];
    const consumed = () => later.map((change) => change.active_meters[0]?.consumed_units as number);
    for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
      later.push(...(await newStateChanges()));
      if ((await marks()).length === 0 && consumed().includes(4)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await marks()).toEqual([]);
    expect(later.map((change) => change.id)).toEqual(later.map(() => counted.id));
    // One event per run (each saw 2, 3 or 4 events), the last run all four.
    expect(later.length).toBeGreaterThanOrEqual(1);
    expect(later.length).toBeLessThanOrEqual(3);
    expect(Math.max(...consumed())).toBe(4);
    expect(consumed().every((units) => units >= 2 && units <= 4)).toBe(true);
  });
});

describe('GET /v1/events/', () => {
  let org: OrganizationFixture;
  let customerId: string;
  const rows: (MeterEvent & { id: string })[] = [];

  beforeAll(async () => {
    org = await organizationFactory(server, { name: 'Queries' });
    const customer = await customerFactory(server, org.organization.id, { external_id: 'q-ext' });
    customerId = customer.id;
    const metadata = [
      { plan: 'pro', tokens: 10, ok: true, region: 'eu-west' },
      { plan: 'free', tokens: 2.5, ok: false, region: 'us_east' },
      { plan: 'pro', tokens: '30', region: '50%' },
      { plan: 'Pro', tokens: 7 },
      { tokens: -3, note: 'a\\b' },
      {},
    ];
    const events = metadata.map((m, i) => ({
      name: i % 2 === 0 ? 'llm.completion' : 'api.call',
      ...(i < 3 ? { customer_id: customer.id } : { external_customer_id: i === 3 ? 'q-ext' : 'someone' }),
      timestamp: new Date(Date.parse('2025-03-01T00:00:00Z') + i * 3_600_000).toISOString(),
      metadata: m,
    }));
    expect((await ingest(events, org.token)).statusCode).toBe(200);
    const stored = await db()
      .selectFrom('events')
      .selectAll()
      .where('organization_id', '=', org.organization.id)
      .execute();
    rows.push(...(stored as (MeterEvent & { id: string })[]));
  });

  const list = async (query: string) => {
    const response = await get(`/v1/events/?limit=100&${query}`, org.token);
    expect(response.statusCode, response.body).toBe(200);
    return json(response).items.map((e: unknown) => Event.parse(e));
  };

  it('sorts by -timestamp by default, and by timestamp on request', async () => {
    const items = await list('');
    expect(items.map((e: { timestamp: string }) => e.timestamp)).toEqual(
      [...items.map((e: { timestamp: string }) => e.timestamp)].sort().reverse(),
    );
    const ascending = await list('sorting=timestamp');
    expect(ascending.map((e: { id: string }) => e.id)).toEqual(items.map((e: { id: string }) => e.id).reverse());
  });

  it('filters by name, source, customer (both columns), time (exclusive) and metadata', async () => {
    expect(await list('name=api.call')).toHaveLength(3);
    expect(await list('source=system')).toHaveLength(0);
    expect(await list(`customer_id=${customerId}`)).toHaveLength(4);
    expect(await list('external_customer_id=q-ext')).toHaveLength(4);
    expect(await list('start_timestamp=2025-03-01T00:00:00Z&end_timestamp=2025-03-01T03:00:00Z')).toHaveLength(2);
    expect(await list('metadata[plan]=pro')).toHaveLength(2);
    expect(await list('metadata[plan]=pro&metadata[plan]=free')).toHaveLength(3);
  });

  it('a JSON filter selects exactly what the meter rules select (SQL and the pure rules agree)', async () => {
    const filters: MeterFilter[] = [
      { conjunction: 'and', clauses: [] },
      { conjunction: 'and', clauses: [{ property: 'plan', operator: 'eq', value: 'pro' }] },
      { conjunction: 'and', clauses: [{ property: 'metadata.plan', operator: 'ne', value: 'pro' }] },
      { conjunction: 'and', clauses: [{ property: 'plan', operator: 'gt', value: 'Pro' }] },
      { conjunction: 'and', clauses: [{ property: 'tokens', operator: 'gte', value: 7 }] },
      { conjunction: 'and', clauses: [{ property: 'tokens', operator: 'lt', value: 3 }] },
      { conjunction: 'and', clauses: [{ property: 'tokens', operator: 'eq', value: '30' }] },
      { conjunction: 'and', clauses: [{ property: 'ok', operator: 'eq', value: true }] },
      { conjunction: 'and', clauses: [{ property: 'ok', operator: 'lt', value: true }] },
      { conjunction: 'and', clauses: [{ property: 'ok', operator: 'like', value: 't' }] },
      { conjunction: 'and', clauses: [{ property: 'region', operator: 'like', value: 'west' }] },
      { conjunction: 'and', clauses: [{ property: 'region', operator: 'like', value: 'us_' }] },
      { conjunction: 'and', clauses: [{ property: 'region', operator: 'not_like', value: '%' }] },
      { conjunction: 'and', clauses: [{ property: 'note', operator: 'like', value: 'a\\' }] },
      { conjunction: 'and', clauses: [{ property: 'tokens', operator: 'like', value: '.5' }] },
      { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api.call' }] },
      { conjunction: 'and', clauses: [{ property: 'name', operator: 'like', value: 'llm' }] },
      { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 1 }] },
      { conjunction: 'and', clauses: [{ property: 'source', operator: 'eq', value: 'user' }] },
      { conjunction: 'and', clauses: [{ property: 'timestamp', operator: 'gte', value: 1740801600 }] },
      { conjunction: 'and', clauses: [{ property: 'timestamp', operator: 'gte', value: 'x' }] },
      {
        conjunction: 'or',
        clauses: [
          { property: 'plan', operator: 'eq', value: 'free' },
          {
            conjunction: 'and',
            clauses: [
              { property: 'name', operator: 'eq', value: 'llm.completion' },
              { property: 'tokens', operator: 'lte', value: 10 },
            ],
          },
        ],
      },
    ];
    for (const filter of filters) {
      const items = await list(`filter=${encodeURIComponent(JSON.stringify(filter))}`);
      const expected = rows.filter((row) => matchesFilter(filter, row)).map((row) => row.id);
      expect(items.map((e: { id: string }) => e.id).sort(), JSON.stringify(filter)).toEqual(expected.sort());
    }
  });

  it('meter_id applies the meter filter and its aggregation guard; an unknown meter is a 422', async () => {
    const meter = await meterFactory(server, org.organization.id, {
      filter: { conjunction: 'and', clauses: [{ property: 'plan', operator: 'like', value: 'ro' }] },
      aggregation: { func: 'sum', property: 'tokens' },
    });
    const items = await list(`meter_id=${meter.id}`);
    // plan pro (10), plan Pro (7); plan pro with tokens "30" carries no number.
    expect(items.map((e: { metadata: { tokens: unknown } }) => e.metadata.tokens).sort()).toEqual([10, 7]);
    const unknown = await get(`/v1/events/?meter_id=${randomUUID()}`, org.token);
    expect(unknown.statusCode).toBe(422);
    expect(json(unknown).detail[0]).toMatchObject({ loc: ['query', 'meter_id'], msg: 'Meter not found.' });
    const others = await meterFactory(server, acme.organization.id);
    expect((await get(`/v1/events/?meter_id=${others.id}`, org.token)).statusCode).toBe(422);
  });

  it('a bad filter is a 422 at query.filter, never a 500', async () => {
    let deep: unknown = { property: 'a', operator: 'eq', value: 1 };
    for (let i = 0; i < 50; i++) deep = { conjunction: 'and', clauses: [deep] };
    for (const filter of [
      'not json',
      JSON.stringify({ conjunction: 'and', clauses: [{ property: 'a', operator: 'regex', value: 1 }] }),
      JSON.stringify({ conjunction: 'and', clauses: [{ property: 'a', operator: 'eq', value: { x: 1 } }] }),
      JSON.stringify({ conjunction: 'and', clauses: [{ property: 'a', operator: 'eq', value: 1.5 }] }),
      JSON.stringify({ conjunction: 'xor', clauses: [] }),
      JSON.stringify(deep),
    ]) {
      const response = await get(`/v1/events/?filter=${encodeURIComponent(filter)}`, org.token);
      expect(response.statusCode, filter.slice(0, 80)).toBe(422);
      expect(json(response).detail[0].loc.slice(0, 2)).toEqual(['query', 'filter']);
    }
  });

  it('an unknown sorting key is a 422', async () => {
    expect((await get('/v1/events/?sorting=name', org.token)).statusCode).toBe(422);
  });
});

describe('GET /v1/events/names', () => {
  it('groups by name and source with occurrences, first and last seen; query and sorting', async () => {
    const org = await organizationFactory(server, { name: 'Names' });
    const at = (hours: number) => new Date(Date.parse('2025-04-01T00:00:00Z') + hours * 3_600_000).toISOString();
    await ingest(
      [
        { name: 'b.event', external_customer_id: 'x', timestamp: at(1) },
        { name: 'b.event', external_customer_id: 'x', timestamp: at(5) },
        { name: 'b.event', external_customer_id: 'y', timestamp: at(3) },
        { name: 'a.event', external_customer_id: 'x', timestamp: at(9) },
      ],
      org.token,
    );
    const names = json(await get('/v1/events/names', org.token));
    expect(names.items.map((n: unknown) => EventName.parse(n))).toEqual([
      { name: 'a.event', source: 'user', occurrences: 1, first_seen: at(9), last_seen: at(9) },
      { name: 'b.event', source: 'user', occurrences: 3, first_seen: at(1), last_seen: at(5) },
    ]);
    expect(names.pagination).toEqual({ total_count: 2, max_page: 1 });
    const byCount = json(await get('/v1/events/names?sorting=-occurrences', org.token)).items;
    expect(byCount.map((n: { name: string }) => n.name)).toEqual(['b.event', 'a.event']);
    const searched = json(await get('/v1/events/names?query=A.EV', org.token)).items;
    expect(searched.map((n: { name: string }) => n.name)).toEqual(['a.event']);
    const forY = json(await get('/v1/events/names?external_customer_id=y', org.token)).items;
    expect(forY).toMatchObject([{ name: 'b.event', occurrences: 1 }]);
  });
});
