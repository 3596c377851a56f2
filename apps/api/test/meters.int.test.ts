import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Meter, MeterQuantities } from '../src/modules/meters/meters.schemas.js';
import type { ManualClock } from '../src/platform/clock.js';
import { purchaseFactory } from './factories/benefit-grants.js';
import { customerFactory } from './factories/customers.js';
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

const TOKENS = {
  name: 'Pro tokens',
  filter: {
    conjunction: 'and',
    clauses: [
      { property: 'name', operator: 'eq', value: 'llm.completion' },
      {
        conjunction: 'or',
        clauses: [
          { property: 'metadata.plan', operator: 'eq', value: 'pro' },
          { property: 'plan', operator: 'like', value: 'enterprise' },
        ],
      },
    ],
  },
  aggregation: { func: 'sum', property: 'tokens' },
};

async function create(body: unknown, token = acme.token) {
  return server.inject({ method: 'POST', url: '/v1/meters/', headers: bearer(token), payload: body as object });
}

async function createMeter(body: unknown = TOKENS, token = acme.token) {
  const response = await create(body, token);
  expect(response.statusCode, response.body).toBe(201);
  return Meter.parse(json(response));
}

async function get(url: string, token = acme.token) {
  return server.inject({ method: 'GET', url, headers: bearer(token) });
}

async function patch(id: string, body: unknown, token = acme.token) {
  return server.inject({ method: 'PATCH', url: `/v1/meters/${id}`, headers: bearer(token), payload: body as object });
}

async function ingest(events: unknown[], token = acme.token) {
  const response = await server.inject({
    method: 'POST',
    url: '/v1/events/ingest',
    headers: bearer(token),
    payload: { events },
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function meterCount(organizationId = acme.organization.id) {
  const row = await db()
    .selectFrom('meters')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('auth', () => {
  it('401 without a token', async () => {
    const id = randomUUID();
    for (const [method, url] of [
      ['GET', '/v1/meters/'],
      ['POST', '/v1/meters/'],
      ['GET', `/v1/meters/${id}`],
      ['PATCH', `/v1/meters/${id}`],
      [
        'GET',
        `/v1/meters/${id}/quantities?start_timestamp=2025-01-01T00:00:00Z&end_timestamp=2025-01-02T00:00:00Z&interval=day`,
      ],
    ] as const) {
      const response = await server.inject({ method, url, payload: method === 'GET' ? undefined : {} });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('403 without the meters scope; meters:read does not write', async () => {
    const none = await tokenFactory(server, acme.organization.id, ['events:read']);
    expect((await get('/v1/meters/', none)).statusCode).toBe(403);
    const readOnly = await tokenFactory(server, acme.organization.id, ['meters:read']);
    expect((await get('/v1/meters/', readOnly)).statusCode).toBe(200);
    const before = await meterCount();
    expect((await create(TOKENS, readOnly)).statusCode).toBe(403);
    expect(await meterCount()).toBe(before);
  });

  it("404 for another organization's meter on get, update and quantities; nothing changes", async () => {
    const meter = await createMeter(TOKENS, globex.token);
    expect((await get(`/v1/meters/${meter.id}`)).statusCode).toBe(404);
    expect((await patch(meter.id, { name: 'Stolen' })).statusCode).toBe(404);
    const quantities = await get(
      `/v1/meters/${meter.id}/quantities?start_timestamp=2025-01-01T00:00:00Z&end_timestamp=2025-01-02T00:00:00Z&interval=day`,
    );
    expect(quantities.statusCode).toBe(404);
    expect(json(await get(`/v1/meters/${meter.id}`, globex.token)).name).toBe(TOKENS.name);
    expect(json(await get('/v1/meters/?limit=100')).items.map((m: { id: string }) => m.id)).not.toContain(meter.id);
  });
});

describe('create, get, list, update', () => {
  it('creates every operator, nested conjunctions and every aggregation', async () => {
    const operators = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'not_like'];
    for (const func of ['count', 'sum', 'max', 'min', 'avg', 'unique']) {
      const meter = await createMeter({
        name: `Meter ${func}`,
        filter: {
          conjunction: 'or',
          clauses: operators.map((operator, i) => ({ property: `p${i}`, operator, value: i % 2 ? i : 'v' })),
        },
        aggregation: func === 'count' ? { func } : { func, property: 'tokens' },
        metadata: { team: 'billing' },
      });
      expect(meter).toMatchObject({ organization_id: acme.organization.id, metadata: { team: 'billing' } });
      expect(Meter.parse(json(await get(`/v1/meters/${meter.id}`)))).toEqual(meter);
    }
  });

  it('bad input is a 422 that creates nothing: unknown operator, wrong value type, depth, short name', async () => {
    let deep: unknown = { property: 'a', operator: 'eq', value: 1 };
    for (let i = 0; i < 50; i++) deep = { conjunction: 'and', clauses: [deep] };
    let eleven: unknown = { conjunction: 'and', clauses: [] };
    for (let i = 1; i < 11; i++) eleven = { conjunction: 'and', clauses: [eleven] };
    let ten: unknown = { conjunction: 'and', clauses: [] };
    for (let i = 1; i < 10; i++) ten = { conjunction: 'and', clauses: [ten] };
    const wide = {
      conjunction: 'or',
      clauses: Array.from({ length: 11 }, () => ({
        conjunction: 'and',
        clauses: Array.from({ length: 100 }, (_, i) => ({ property: `p${i}`, operator: 'eq', value: i })),
      })),
    };
    const before = await meterCount();
    const cases: [unknown, string][] = [
      [{ ...TOKENS, filter: wide }, 'body.filter'],
      [
        { ...TOKENS, filter: { conjunction: 'and', clauses: [{ property: 'a', operator: 'in', value: 1 }] } },
        'body.filter',
      ],
      [
        { ...TOKENS, filter: { conjunction: 'and', clauses: [{ property: 'a', operator: 'eq', value: 1.5 }] } },
        'body.filter',
      ],
      [
        { ...TOKENS, filter: { conjunction: 'and', clauses: [{ property: 'a', operator: 'eq', value: null }] } },
        'body.filter',
      ],
      [
        { ...TOKENS, filter: { conjunction: 'and', clauses: [{ property: 'a', operator: 'eq', value: [1] }] } },
        'body.filter',
      ],
      [{ ...TOKENS, filter: { conjunction: 'nand', clauses: [] } }, 'body.filter'],
      [{ ...TOKENS, filter: deep }, 'body.filter'],
      [{ ...TOKENS, filter: eleven }, 'body.filter'],
      [{ ...TOKENS, aggregation: { func: 'median', property: 'x' } }, 'body.aggregation'],
      [{ ...TOKENS, aggregation: { func: 'sum' } }, 'body.aggregation'],
      [{ ...TOKENS, name: 'ab' }, 'body.name'],
      [{ ...TOKENS, organization_id: acme.organization.id }, 'body.organization_id'],
    ];
    for (const [body, loc] of cases) {
      const response = await create(body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 100)).toBe(422);
      expect(json(response).detail[0].loc.slice(0, 2).join('.')).toBe(loc);
    }
    expect(await meterCount()).toBe(before);
    // Ten levels is the limit, and allowed.
    expect((await create({ ...TOKENS, filter: ten })).statusCode).toBe(201);
  });

  it('lists by name by default; query, sorting, metadata and pagination', async () => {
    const org = await organizationFactory(server, { name: 'Listing' });
    for (const name of ['Gamma calls', 'Alpha calls', 'Beta tokens']) {
      (server.clock as ManualClock).advance(1000);
      await createMeter({ ...TOKENS, name, metadata: { kind: name.split(' ')[1]! } }, org.token);
    }
    const names = async (query: string) =>
      json(await get(`/v1/meters/?${query}`, org.token)).items.map((m: { name: string }) => m.name);
    expect(await names('')).toEqual(['Alpha calls', 'Beta tokens', 'Gamma calls']);
    expect(await names('sorting=-name')).toEqual(['Gamma calls', 'Beta tokens', 'Alpha calls']);
    expect(await names('sorting=-created_at')).toEqual(['Beta tokens', 'Alpha calls', 'Gamma calls']);
    expect(await names('query=CALL')).toEqual(['Alpha calls', 'Gamma calls']);
    expect(await names('metadata[kind]=tokens')).toEqual(['Beta tokens']);
    const page = json(await get('/v1/meters/?limit=2&page=2', org.token));
    expect(page).toMatchObject({ items: [{ name: 'Gamma calls' }], pagination: { total_count: 3, max_page: 2 } });
    expect((await get('/v1/meters/?sorting=filter', org.token)).statusCode).toBe(422);
  });

  it('updates name and metadata; filter and aggregation until the meter counts for a customer', async () => {
    const org = await organizationFactory(server, { name: 'Freeze' });
    const meter = await createMeter(TOKENS, org.token);
    const count = { func: 'count' };
    let response = await patch(meter.id, { name: 'Renamed', aggregation: count }, org.token);
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({ name: 'Renamed', aggregation: count });
    expect(json(response).modified_at).not.toBeNull();

    // An event for nobody known does not freeze it; an event of a customer does.
    await ingest([{ name: 'llm.completion', external_customer_id: 'nobody', metadata: { plan: 'pro' } }], org.token);
    expect((await patch(meter.id, { aggregation: { func: 'max', property: 'tokens' } }, org.token)).statusCode).toBe(
      200,
    );
    expect((await patch(meter.id, { aggregation: count }, org.token)).statusCode).toBe(200);
    await customerFactory(server, org.organization.id, { external_id: 'nobody' });

    const frozen = Meter.parse(json(await get(`/v1/meters/${meter.id}`, org.token)));
    response = await patch(
      meter.id,
      { name: 'Not applied', filter: { conjunction: 'and', clauses: [] }, aggregation: { func: 'sum', property: 'x' } },
      org.token,
    );
    expect(response.statusCode).toBe(422);
    expect(json(response).detail).toEqual([
      {
        loc: ['body', 'filter'],
        msg: "This field can't be updated because the meter is already aggregating events.",
        type: 'forbidden',
      },
      {
        loc: ['body', 'aggregation'],
        msg: "This field can't be updated because the meter is already aggregating events.",
        type: 'forbidden',
      },
    ]);
    expect(Meter.parse(json(await get(`/v1/meters/${meter.id}`, org.token)))).toEqual(frozen);
    // Sending the same filter back, and renaming, still work.
    response = await patch(meter.id, { name: 'Renamed again', filter: frozen.filter, aggregation: count }, org.token);
    expect(response.statusCode).toBe(200);
    expect(json(response).name).toBe('Renamed again');
  });
});

describe('freezing by a subscription', () => {
  it('a meter with a metered price on a subscribed product keeps its filter and aggregation', async () => {
    const org = await organizationFactory(server, { name: 'Subscribed' });
    const meter = await createMeter(TOKENS, org.token);
    const purchase = await purchaseFactory(server, org, [], { recurring: true });
    const change = { aggregation: { func: 'count' } };
    const before = await patch(meter.id, { name: 'Still free' }, org.token);
    expect(before.statusCode).toBe(200);
    await db()
      .insertInto('product_prices')
      .values({
        id: randomUUID(),
        created_at: server.clock.now(),
        modified_at: null,
        product_id: purchase.productId,
        position: 1,
        amount_type: 'metered_unit',
        is_archived: false,
        price_currency: 'usd',
        price_amount: null,
        minimum_amount: null,
        maximum_amount: null,
        preset_amount: null,
        unit_amount: '0.5',
        cap_amount: null,
        meter_id: meter.id,
      })
      .execute();
    const response = await patch(meter.id, change, org.token);
    expect(response.statusCode).toBe(422);
    expect(json(response).detail[0]).toMatchObject({ loc: ['body', 'aggregation'], type: 'forbidden' });
  });
});

describe('GET /v1/meters/{id}/quantities', () => {
  let org: OrganizationFixture;
  let customerId: string;
  const day = (d: number, hour = 12) => new Date(Date.UTC(2025, 2, d, hour)).toISOString();

  beforeAll(async () => {
    org = await organizationFactory(server, { name: 'Quantities' });
    const customer = await customerFactory(server, org.organization.id, { external_id: 'q-1' });
    customerId = customer.id;
    const e = (d: number, tokens: unknown, who: object, plan = 'pro') => ({
      name: 'llm.completion',
      timestamp: day(d),
      metadata: { plan, tokens, user: `u${d}` },
      ...who,
    });
    await ingest(
      [
        e(1, 10, { customer_id: customer.id }),
        e(1, 5, { external_customer_id: 'q-1' }),
        e(2, 7, { external_customer_id: 'other' }),
        e(2, 'many', { external_customer_id: 'other' }),
        e(3, 1.5, { customer_id: customer.id }),
        e(3, 100, { customer_id: customer.id }, 'free'),
        e(5, 2, { external_customer_id: 'other' }),
      ],
      org.token,
    );
  });

  async function quantities(meter: unknown, query: string) {
    const created = await createMeter(meter, org.token);
    const response = await get(`/v1/meters/${created.id}/quantities?${query}`, org.token);
    expect(response.statusCode, response.body).toBe(200);
    return MeterQuantities.parse(json(response));
  }

  const range = 'start_timestamp=2025-03-01T00:00:00Z&end_timestamp=2025-03-05T00:00:00Z&interval=day';

  it('daily buckets from the start, a total over the range; strings are not quantities', async () => {
    const result = await quantities(TOKENS, range);
    expect(result.quantities).toEqual([
      { timestamp: '2025-03-01T00:00:00.000Z', quantity: 15 },
      { timestamp: '2025-03-02T00:00:00.000Z', quantity: 7 },
      { timestamp: '2025-03-03T00:00:00.000Z', quantity: 1.5 },
      { timestamp: '2025-03-04T00:00:00.000Z', quantity: 0 },
      { timestamp: '2025-03-05T00:00:00.000Z', quantity: 2 },
    ]);
    expect(result.total).toBe(25.5);
  });

  it('the total of max is the overall max; count, min, avg and unique', async () => {
    const max = await quantities({ ...TOKENS, aggregation: { func: 'max', property: 'tokens' } }, range);
    expect(max.quantities.map((q) => q.quantity)).toEqual([10, 7, 1.5, 0, 2]);
    expect(max.total).toBe(10);
    const count = await quantities({ ...TOKENS, aggregation: { func: 'count' } }, range);
    expect(count.quantities.map((q) => q.quantity)).toEqual([2, 2, 1, 0, 1]);
    expect(count.total).toBe(6);
    const min = await quantities({ ...TOKENS, aggregation: { func: 'min', property: 'tokens' } }, range);
    expect(min.total).toBe(1.5);
    const avg = await quantities({ ...TOKENS, aggregation: { func: 'avg', property: 'tokens' } }, range);
    expect(avg.total).toBeCloseTo(25.5 / 5, 10);
    const unique = await quantities({ ...TOKENS, aggregation: { func: 'unique', property: 'user' } }, range);
    expect(unique.quantities.map((q) => q.quantity)).toEqual([1, 1, 1, 0, 1]);
    expect(unique.total).toBe(4);
  });

  it('buckets start at the start timestamp, not truncated', async () => {
    const result = await quantities(
      TOKENS,
      'start_timestamp=2025-03-01T12:30:00Z&end_timestamp=2025-03-03T12:30:00Z&interval=day',
    );
    expect(result.quantities.map((q) => q.timestamp)).toEqual([
      '2025-03-01T12:30:00.000Z',
      '2025-03-02T12:30:00.000Z',
      '2025-03-03T12:30:00.000Z',
    ]);
    expect(result.quantities.map((q) => q.quantity)).toEqual([15, 7, 1.5]);
  });

  it("by customer: the customer's id reaches its external-id events, and the reverse", async () => {
    const byId = await quantities(TOKENS, `${range}&customer_id=${customerId}`);
    expect(byId.quantities.map((q) => q.quantity)).toEqual([15, 0, 1.5, 0, 0]);
    const byExternal = await quantities(TOKENS, `${range}&external_customer_id=q-1`);
    expect(byExternal.total).toBe(16.5);
    const other = await quantities(TOKENS, `${range}&external_customer_id=other`);
    expect(other.total).toBe(9);
    const monthly = await quantities(
      TOKENS,
      'start_timestamp=2025-01-15T00:00:00Z&end_timestamp=2025-04-15T00:00:00Z&interval=month',
    );
    expect(monthly.quantities.map((q) => q.quantity)).toEqual([0, 0, 25.5, 0]);
  });

  it('interval limits and bad parameters are 422s', async () => {
    const meter = await createMeter(TOKENS, org.token);
    const q = (query: string) => get(`/v1/meters/${meter.id}/quantities?${query}`, org.token);
    let response = await q('start_timestamp=2025-03-01T00:00:00Z&end_timestamp=2025-03-09T00:00:00Z&interval=hour');
    expect(response.statusCode).toBe(422);
    expect(json(response).detail[0]).toMatchObject({
      loc: ['query'],
      msg: 'The interval is too big. Try to change the interval or reduce the date range.',
    });
    response = await q('start_timestamp=2025-03-01T00:00:00Z&end_timestamp=2025-03-08T00:00:00Z&interval=hour');
    expect(response.statusCode).toBe(200);
    expect(MeterQuantities.parse(json(response)).quantities).toHaveLength(7 * 24 + 1);
    for (const query of [
      'start_timestamp=2025-03-01T00:00:00Z&end_timestamp=2025-03-02T00:00:00Z&interval=minute',
      'start_timestamp=2025-03-01T00:00:00&end_timestamp=2025-03-02T00:00:00Z&interval=day',
      'end_timestamp=2025-03-02T00:00:00Z&interval=day',
      'start_timestamp=2022-12-31T00:00:00Z&end_timestamp=2023-01-02T00:00:00Z&interval=day',
      'start_timestamp=2025-03-02T00:00:00Z&end_timestamp=2025-03-01T00:00:00Z&interval=day',
      'start_timestamp=2025-03-01T00:00:00Z&end_timestamp=2025-03-02T00:00:00Z&interval=day&customer_id=nope',
    ]) {
      expect((await q(query)).statusCode, query).toBe(422);
    }
  });
});
