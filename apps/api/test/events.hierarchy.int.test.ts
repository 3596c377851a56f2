import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Event, ListResourceEvent } from '../src/modules/events/events.schemas.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

/**
 * Event hierarchies (Polar's `parent_id`): an event names its parent by the parent's id or external id,
 * in the database or earlier in its batch; events answer `parent_id`, `child_count` and `label`; the
 * list walks a tree by `parent_id` and `depth`.
 */
let server: TestServer;
let acme: OrganizationFixture;
let globex: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
  globex = await organizationFactory(server, { name: 'Globex' });
});
afterAll(() => server?.stop());

const ingest = (events: unknown[], token = acme.token) =>
  server.inject({ method: 'POST', url: '/v1/events/ingest', headers: bearer(token), payload: { events } });
const get = (url: string, token = acme.token) => server.inject({ method: 'GET', url, headers: bearer(token) });

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${++sequence}-${Math.random().toString(36).slice(2, 8)}`;

async function byExternalId(externalId: string) {
  const { rows } = await sql<{ id: string; parent_id: string | null }>`
    SELECT id, parent_id FROM events WHERE external_id = ${externalId}`.execute(server.runtime.database.db);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** A run of an agent: a root, two steps under it, a call under the first step. */
async function tree() {
  const customer = unique('user');
  const [root, stepA, stepB, call] = ['run', 'step-a', 'step-b', 'call'].map(unique) as [
    string,
    string,
    string,
    string,
  ];
  const response = await ingest([
    { name: 'run', external_customer_id: customer, external_id: root },
    { name: 'step', external_customer_id: customer, external_id: stepA, parent_id: root },
    { name: 'step', external_customer_id: customer, external_id: stepB, parent_id: root },
    { name: 'llm_call', external_customer_id: customer, external_id: call, parent_id: stepA },
  ]);
  expect(response.statusCode, response.body).toBe(200);
  expect(json(response)).toEqual({ inserted: 4, duplicates: 0 });
  const ids = await Promise.all([root, stepA, stepB, call].map(async (external) => (await byExternalId(external)).id));
  return {
    customer,
    external: { root, stepA, stepB, call },
    ids: { root: ids[0]!, stepA: ids[1]!, stepB: ids[2]!, call: ids[3]! },
  };
}

describe('ingest with parent_id', () => {
  it('links to a parent earlier in the batch by its external id, and answers the tree on read', async () => {
    const { ids } = await tree();
    const root = json(await get(`/v1/events/${ids.root}`));
    expect(Event.parse(root)).toBeTruthy();
    expect(root).toMatchObject({ id: ids.root, parent_id: null, child_count: 2, label: 'run' });
    const step = json(await get(`/v1/events/${ids.stepA}`));
    expect(step).toMatchObject({ parent_id: ids.root, child_count: 1 });
    expect(json(await get(`/v1/events/${ids.call}`))).toMatchObject({ parent_id: ids.stepA, child_count: 0 });
  });

  it('links to an event already stored, by its id or its external id', async () => {
    const { customer, external, ids } = await tree();
    const [byId, byExternal] = [unique('late'), unique('late')];
    const response = await ingest([
      { name: 'late', external_customer_id: customer, external_id: byId, parent_id: ids.stepB },
      { name: 'late', external_customer_id: customer, external_id: byExternal, parent_id: external.stepB },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    expect((await byExternalId(byId)).parent_id).toBe(ids.stepB);
    expect((await byExternalId(byExternal)).parent_id).toBe(ids.stepB);
    expect(json(await get(`/v1/events/${ids.stepB}`)).child_count).toBe(2);
  });

  it("refuses an unknown parent, a later one of the batch, itself and another organization's, inserting nothing", async () => {
    const { ids } = await tree();
    const customer = unique('user');
    const [self, later] = [unique('self'), unique('later')];
    const foreign = await ingest(
      [{ name: 'x', external_customer_id: customer, external_id: unique('g') }],
      globex.token,
    );
    expect(foreign.statusCode).toBe(200);
    const [globexEvent] = (
      await server.runtime.database.db
        .selectFrom('events')
        .select('id')
        .where('organization_id', '=', globex.organization.id)
        .execute()
    ).map((row) => row.id);
    const before = json(await get('/v1/events/?limit=1')).pagination.total_count;
    const refused = await ingest([
      { name: 'a', external_customer_id: customer, parent_id: 'no-such-event' },
      { name: 'b', external_customer_id: customer, parent_id: later },
      { name: 'c', external_customer_id: customer, external_id: later },
      { name: 'd', external_customer_id: customer, external_id: self, parent_id: self },
      { name: 'e', external_customer_id: customer, parent_id: globexEvent },
      { name: 'f', external_customer_id: customer, parent_id: ids.root },
    ]);
    expect(refused.statusCode, refused.body).toBe(422);
    const locs = json(refused).detail.map((issue: { loc: (string | number)[] }) => issue.loc.join('.'));
    expect(locs).toEqual([
      'body.events.0.parent_id',
      'body.events.1.parent_id',
      'body.events.3.parent_id',
      'body.events.4.parent_id',
    ]);
    expect(json(await get('/v1/events/?limit=1')).pagination.total_count).toBe(before);
  });

  it('a duplicate parent sent again still takes children: they link to the stored event', async () => {
    const { customer, external, ids } = await tree();
    const child = unique('child');
    const response = await ingest([
      { name: 'run', external_customer_id: customer, external_id: external.root },
      { name: 'step', external_customer_id: customer, external_id: child, parent_id: external.root },
    ]);
    expect(json(response)).toEqual({ inserted: 1, duplicates: 1 });
    expect((await byExternalId(child)).parent_id).toBe(ids.root);
  });

  it('refuses a parent_id that is not text of 1 to 500 characters', async () => {
    for (const parent_id of ['', 'x'.repeat(501), 42, 'a\u0000b']) {
      const response = await ingest([{ name: 'a', external_customer_id: 'u', parent_id }]);
      expect(response.statusCode, JSON.stringify(parent_id)).toBe(422);
    }
  });
});

describe('GET /v1/events/ by parent_id and depth', () => {
  const idsOf = async (query: string) => {
    const response = await get(`/v1/events/?limit=100&sorting=timestamp&${query}`);
    expect(response.statusCode, response.body).toBe(200);
    const page = ListResourceEvent.parse(json(response));
    return page.items.map((item) => item.id).sort();
  };

  it('depth alone: the roots and their descendants down to depth; parent_id: under that event', async () => {
    const { customer, ids } = await tree();
    const scope = `external_customer_id=${customer}`;
    expect(await idsOf(scope)).toEqual([ids.root, ids.stepA, ids.stepB, ids.call].sort());
    expect(await idsOf(`${scope}&depth=0`)).toEqual([ids.root]);
    expect(await idsOf(`${scope}&depth=1`)).toEqual([ids.root, ids.stepA, ids.stepB].sort());
    expect(await idsOf(`${scope}&depth=5`)).toEqual([ids.root, ids.stepA, ids.stepB, ids.call].sort());
    // Under an anchor: its children at depth 0, every descendant without depth.
    expect(await idsOf(`${scope}&parent_id=${ids.root}&depth=0`)).toEqual([ids.stepA, ids.stepB].sort());
    expect(await idsOf(`${scope}&parent_id=${ids.root}`)).toEqual([ids.stepA, ids.stepB, ids.call].sort());
    expect(await idsOf(`${scope}&parent_id=${ids.stepB}`)).toEqual([]);
  });

  it('refuses a depth outside 0 to 5 and a parent_id that is not an event id', async () => {
    for (const query of ['depth=-1', 'depth=6', 'depth=x', 'parent_id=nope']) {
      expect((await get(`/v1/events/?${query}`)).statusCode, query).toBe(422);
    }
  });

  it("another organization's anchor shows nothing", async () => {
    const { ids } = await tree();
    expect(json(await get(`/v1/events/?parent_id=${ids.root}`, globex.token)).items).toEqual([]);
  });
});
