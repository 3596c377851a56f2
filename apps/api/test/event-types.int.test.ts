import { sql, type SqlBool } from 'kysely';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerFactory } from './factories/customers.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

/**
 * Event types: one per event name of an organization, written by the insert of its first event
 * (migration 0056's trigger), listed with the statistics of their events under the filters, and
 * labelled by the seller (`PATCH /v1/event-types/{id}`), the label every event of the name shows.
 */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;
let alice: { id: string };
let parentId: string;

const db = () => server.runtime.database.db;

async function ingest(org: OrganizationFixture, events: object[]) {
  const response = await server.inject({
    method: 'POST',
    url: '/v1/events/ingest',
    headers: bearer(org.token),
    payload: { events },
  });
  expect(response.statusCode, response.body).toBe(200);
  return json(response);
}

const get = (url: string, token?: string) => server.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
const patch = (id: string, payload: unknown, token?: string) =>
  server.inject({
    method: 'PATCH',
    url: `/v1/event-types/${id}`,
    headers: token ? bearer(token) : {},
    payload: payload as object,
  });

async function list(query: string, token = acme.token) {
  const response = await get(`/v1/event-types/${query ? `?${query}` : ''}`, token);
  expect(response.statusCode, response.body).toBe(200);
  return json(response);
}

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
  alice = await customerFactory(server, acme.organization.id, { external_id: 'alice' });
  await ingest(acme, [
    { name: 'api.call', customer_id: alice.id, timestamp: '2026-01-01T00:00:00Z', external_id: 'root-1' },
    { name: 'api.call', customer_id: alice.id, timestamp: '2026-01-03T00:00:00Z' },
    { name: 'api.call', external_customer_id: 'bob', timestamp: '2026-01-02T00:00:00Z' },
    { name: 'storage', external_customer_id: 'bob', timestamp: '2026-01-05T00:00:00Z', parent_id: 'root-1' },
  ]);
  parentId = (
    await db()
      .selectFrom('events')
      .select('id')
      .where(sql<SqlBool>`external_id = 'root-1'`)
      .executeTakeFirstOrThrow()
  ).id;
  await ingest(other, [{ name: 'api.call', external_customer_id: 'x', timestamp: '2026-01-04T00:00:00Z' }]);
});
afterAll(() => server?.stop());

async function typeId(org: OrganizationFixture, name: string): Promise<string> {
  const row = await db()
    .selectFrom('event_types')
    .select('id')
    .where('organization_id', '=', org.organization.id)
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('event types recorded at ingest', () => {
  it('writes one type per name and organization, labelled with the name', async () => {
    const rows = await db()
      .selectFrom('event_types')
      .select(['organization_id', 'name', 'label', 'modified_at'])
      .where('organization_id', 'in', [acme.organization.id, other.organization.id])
      .orderBy('organization_id')
      .orderBy('name')
      .execute();
    expect(rows).toEqual(
      expect.arrayContaining([
        { organization_id: acme.organization.id, name: 'api.call', label: 'api.call', modified_at: null },
        { organization_id: acme.organization.id, name: 'storage', label: 'storage', modified_at: null },
        { organization_id: other.organization.id, name: 'api.call', label: 'api.call', modified_at: null },
      ]),
    );
    expect(rows.filter((r) => r.organization_id === acme.organization.id)).toHaveLength(2);
  });

  it('leaves a known name alone and adds a new one, whatever the insert path', async () => {
    const org = await organizationFactory(server, { name: 'Paths' });
    await ingest(org, [{ name: 'seen', external_customer_id: 'c', timestamp: '2026-01-01T00:00:00Z' }]);
    const first = await db()
      .selectFrom('event_types')
      .selectAll()
      .where('organization_id', '=', org.organization.id)
      .execute();
    await ingest(org, [
      { name: 'seen', external_customer_id: 'c', timestamp: '2026-01-02T00:00:00Z' },
      { name: 'seen', external_customer_id: 'd', timestamp: '2026-01-02T00:00:00Z' },
    ]);
    // A system event, inserted by another module's statement.
    await db()
      .insertInto('events')
      .values({
        id: '00000000-0000-4000-8000-0000000000e1',
        organization_id: org.organization.id,
        name: 'benefit.granted',
        source: 'system',
        timestamp: new Date('2026-01-03T00:00:00Z'),
        ingested_at: new Date('2026-01-03T00:00:00Z'),
        metadata: '{}',
      } as never)
      .execute();
    const after = await db()
      .selectFrom('event_types')
      .selectAll()
      .where('organization_id', '=', org.organization.id)
      .orderBy('name')
      .execute();
    expect(after.map((r) => r.name)).toEqual(['benefit.granted', 'seen']);
    expect(after.find((r) => r.name === 'seen')).toEqual(first[0]);
  });
});

describe('migration 0056', () => {
  it("backfills one type per stored name, labelled with it, created at its first event's ingestion", async () => {
    const migration = readFileSync(new URL('../migrations/0056_event_types.sql', import.meta.url), 'utf8');
    const backfill = /INSERT INTO event_types \(organization_id, name, label, created_at\)[\s\S]*?;/.exec(
      migration,
    )![0];
    const expected = await db()
      .selectFrom('events')
      .select(['organization_id', 'name'])
      .select((eb) => eb.fn.min('ingested_at').as('first'))
      .groupBy(['organization_id', 'name'])
      .orderBy('organization_id')
      .orderBy('name')
      .execute();
    // As before the migration (no types), then its statement; rolled back.
    const rows = await db()
      .transaction()
      .execute(async (tx) => {
        await sql`DELETE FROM event_types`.execute(tx);
        await sql.raw(backfill).execute(tx);
        const written = await tx
          .selectFrom('event_types')
          .select(['organization_id', 'name', 'label', 'created_at'])
          .orderBy('organization_id')
          .orderBy('name')
          .execute();
        throw Object.assign(new Error('rollback'), { written });
      })
      .catch((error: { written?: unknown }) => error.written);
    expect(rows).toEqual(
      expected.map((e) => ({ organization_id: e.organization_id, name: e.name, label: e.name, created_at: e.first })),
    );
    expect(expected.length).toBeGreaterThanOrEqual(3);
  });
});

describe('GET /v1/event-types/', () => {
  it('lists each name with its occurrences, first and last seen, latest first', async () => {
    const body = await list('');
    expect(body.pagination).toEqual({ total_count: 2, max_page: 1 });
    expect(body.items).toEqual([
      {
        id: await typeId(acme, 'storage'),
        created_at: expect.any(String),
        modified_at: null,
        name: 'storage',
        label: 'storage',
        label_property_selector: null,
        organization_id: acme.organization.id,
        source: 'user',
        occurrences: 1,
        first_seen: '2026-01-05T00:00:00.000Z',
        last_seen: '2026-01-05T00:00:00.000Z',
      },
      expect.objectContaining({
        id: await typeId(acme, 'api.call'),
        name: 'api.call',
        occurrences: 3,
        first_seen: '2026-01-01T00:00:00.000Z',
        last_seen: '2026-01-03T00:00:00.000Z',
      }),
    ]);
  });

  it('counts only the events of the customer, by id or external id', async () => {
    const byId = await list(`customer_id=${alice.id}`);
    expect(byId.items.map((t: any) => [t.name, t.occurrences])).toEqual([['api.call', 2]]);
    const byExternal = await list('external_customer_id=bob&sorting=name');
    expect(byExternal.items.map((t: any) => [t.name, t.occurrences])).toEqual([
      ['api.call', 1],
      ['storage', 1],
    ]);
  });

  it('filters by tree, source and query, sorts as asked, and pages', async () => {
    expect((await list('root_events=true')).items.map((t: any) => [t.name, t.occurrences])).toEqual([['api.call', 3]]);
    expect((await list(`parent_id=${parentId}`)).items.map((t: any) => t.name)).toEqual(['storage']);
    expect((await list('source=system')).items).toEqual([]);
    expect((await list('query=STOR')).items.map((t: any) => t.name)).toEqual(['storage']);
    expect((await list('sorting=-occurrences')).items.map((t: any) => t.name)).toEqual(['api.call', 'storage']);
    expect((await list('sorting=first_seen')).items.map((t: any) => t.name)).toEqual(['api.call', 'storage']);
    const second = await list('sorting=name&limit=1&page=2');
    expect(second.items.map((t: any) => t.name)).toEqual(['storage']);
    expect(second.pagination).toEqual({ total_count: 2, max_page: 2 });
  });

  it("never lists another organization's types", async () => {
    expect((await list(`organization_id=${other.organization.id}`)).items).toEqual([]);
    const others = await list('', other.token);
    expect(others.items.map((t: any) => [t.organization_id, t.occurrences])).toEqual([[other.organization.id, 1]]);
  });

  it('needs a token (401) and events:read or events:write (403 otherwise)', async () => {
    expect((await get('/v1/event-types/')).statusCode).toBe(401);
    const noScope = await tokenFactory(server, acme.organization.id, ['customers:read']);
    expect((await get('/v1/event-types/', noScope)).statusCode).toBe(403);
    const writer = await tokenFactory(server, acme.organization.id, ['events:write']);
    expect((await get('/v1/event-types/', writer)).statusCode).toBe(200);
  });

  it('answers 422 for bad filters, sorting or pages', async () => {
    for (const query of [
      'sorting=occurrence',
      'source=robot',
      'parent_id=nope',
      'customer_id=nope',
      'root_events=maybe',
      'limit=0',
      'limit=101',
      'page=99999999999999999999',
      'query=a%00b',
    ]) {
      const response = await get(`/v1/event-types/?${query}`, acme.token);
      expect(response.statusCode, query).toBe(422);
      expect(json(response).detail[0].loc[0], query).toBe('query');
    }
  });
});

describe('PATCH /v1/event-types/{id}', () => {
  it('sets the label the list and every event of the name show', async () => {
    const id = await typeId(acme, 'api.call');
    const response = await patch(id, { label: 'API call', label_property_selector: 'endpoint' }, acme.token);
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({
      created_at: expect.any(String),
      modified_at: server.clock.now().toISOString(),
      id,
      name: 'api.call',
      label: 'API call',
      label_property_selector: 'endpoint',
      organization_id: acme.organization.id,
    });
    const events = json(await get('/v1/events/?name=api.call', acme.token)).items;
    expect(events.map((e: { label: string }) => e.label)).toEqual(['API call', 'API call', 'API call']);
    expect((await list('query=api%20CALL')).items.map((t: any) => t.label)).toEqual(['API call']);
    const storage = json(await get('/v1/events/?name=storage', acme.token)).items;
    expect(storage[0].label).toBe('storage');
    // The other organization's type of the same name keeps its label.
    expect((await list('', other.token)).items[0].label).toBe('api.call');
    const cleared = json(await patch(id, { label: 'Calls' }, acme.token));
    expect(cleared).toMatchObject({ label: 'Calls', label_property_selector: null });
  });

  it('is 401 without a token, 403 with events:read only, 404 for another organization or no such type', async () => {
    const id = await typeId(acme, 'storage');
    expect((await patch(id, { label: 'x' })).statusCode).toBe(401);
    const reader = await tokenFactory(server, acme.organization.id, ['events:read']);
    expect((await patch(id, { label: 'x' }, reader)).statusCode).toBe(403);
    const foreign = await patch(id, { label: 'x' }, other.token);
    expect(foreign.statusCode).toBe(404);
    expect(json(foreign).error).toBe('ResourceNotFound');
    expect((await patch('00000000-0000-4000-8000-000000000000', { label: 'x' }, acme.token)).statusCode).toBe(404);
    const row = await db().selectFrom('event_types').select('label').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.label).toBe('storage');
  });

  it('answers 422 for a bad body or id and changes nothing', async () => {
    const id = await typeId(acme, 'storage');
    const cases: [unknown, string][] = [
      [{}, 'label'],
      [{ label: '' }, 'label'],
      [{ label: 'x'.repeat(129) }, 'label'],
      [{ label: 'a\u0000b' }, 'label'],
      [{ label: 7 }, 'label'],
      [{ label: 'ok', label_property_selector: 5 }, 'label_property_selector'],
    ];
    for (const [body, field] of cases) {
      const response = await patch(id, body, acme.token);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(json(response).detail[0].loc).toEqual(['body', field]);
    }
    expect((await patch('nope', { label: 'x' }, acme.token)).statusCode).toBe(422);
    const row = await db().selectFrom('event_types').select('label').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.label).toBe('storage');
  });
});
