import { randomUUID } from 'node:crypto';
import { CustomerCustomerMeter$inboundSchema } from '@polar-sh/sdk/models/components/customercustomermeter.js';
import { CustomerMeter$inboundSchema } from '@polar-sh/sdk/models/components/customermeter.js';
import { CustomerStateMeter$inboundSchema } from '@polar-sh/sdk/models/components/customerstatemeter.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cycleGrantsForSubscription } from '../src/modules/benefit-grants/benefit-grants.service.js';
import { CustomerMeter } from '../src/modules/customer-meters/customer-meters.schemas.js';
import { customerMeterUsage } from '../src/modules/customer-meters/customer-meters.service.js';
import { ingestEvents } from '../src/modules/events/events.service.js';
import { usageInstant } from '../src/modules/meters/meter-rollups.repository.js';
import type { ManualClock } from '../src/platform/clock.js';
import { meterFactory } from './factories/benefits.js';
import { inTransaction, purchaseFactory, typedBenefitFactory, waitForGrant } from './factories/benefit-grants.js';
import { customerFactory } from './factories/customers.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';
import { installStatementCounter } from './support/statement-counter.js';

let server: TestServer;
let acme: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer();
  acme = await organizationFactory(server, { name: 'Acme' });
});
afterAll(() => server?.stop());

const db = () => server.runtime.database.db;
const clock = () => server.clock as ManualClock;
const granted = (g: { granted_at: Date | null }) => g.granted_at !== null;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Tokens of `llm.completion` events on the pro plan. */
const PRO_TOKENS = {
  filter: {
    conjunction: 'and',
    clauses: [
      { property: 'name', operator: 'eq', value: 'llm.completion' },
      { property: 'metadata.plan', operator: 'eq', value: 'pro' },
    ],
  },
  aggregation: { func: 'sum', property: 'tokens' },
};

/**
 * A usage event ingested now, as `POST /v1/events/ingest` does (rollups included); answers its
 * `ingested_at` (the database's clock, not the test's).
 */
async function ingest(
  customer: { customer_id?: string | null; external_customer_id?: string | null },
  name: string,
  metadata: Record<string, unknown>,
  organizationId = acme.organization.id,
) {
  const now = clock().now();
  await inTransaction(server, (ctx) =>
    ingestEvents(
      { ...ctx, subject: { kind: 'organization', organizationId, tokenId: 'test', scopes: new Set() } },
      {
        events: [
          {
            name,
            timestamp: now.toISOString(),
            customer_id: customer.customer_id ?? undefined,
            external_customer_id: customer.external_customer_id ?? undefined,
            metadata: metadata as never,
          },
        ],
      },
    ),
  );
  return lastIngest(organizationId);
}

/** The latest `ingested_at` of the organization's user events. */
async function lastIngest(organizationId = acme.organization.id): Promise<Date> {
  const { ingested_at } = await db()
    .selectFrom('events')
    .select('ingested_at')
    .where('organization_id', '=', organizationId)
    .where('source', '=', 'user')
    .orderBy('ingested_at', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return ingested_at;
}

async function activeMeters(customerId: string): Promise<any[]> {
  const response = await server.inject({
    method: 'GET',
    url: `/v1/customers/${customerId}/state`,
    headers: bearer(acme.token),
  });
  expect(response.statusCode).toBe(200);
  const meters = json(response).active_meters;
  for (const meter of meters) CustomerStateMeter$inboundSchema.parse(meter);
  return meters;
}

async function creditsOf(customerId: string, meterId: string) {
  const rows = await db()
    .selectFrom('events')
    .select('metadata')
    .where('customer_id', '=', customerId)
    .where('name', '=', 'meter.credited')
    .orderBy('ingested_at')
    .orderBy('id')
    .execute();
  return rows
    .map((row) => row.metadata as { meter_id: string; units: number; rollover: boolean })
    .filter((m) => m.meter_id === meterId)
    .map(({ units, rollover }) => ({ units, rollover }));
}

describe('customer state: active_meters', () => {
  it('shows consumption of the events the meter counts, credits and balance', async () => {
    const meter = await meterFactory(server, acme.organization.id, { name: 'Pro tokens', ...PRO_TOKENS });
    const everything = await meterFactory(server, acme.organization.id, { name: 'All events' });
    const credit = await typedBenefitFactory(server, acme.organization.id, 'meter_credit', {
      units: 100,
      rollover: false,
      meter_id: meter.id,
    });
    const purchase = await purchaseFactory(server, acme, [credit.id]);
    await waitForGrant(server, purchase.customerId, credit.id, granted);
    const { ingested_at: creditedAt } = await db()
      .selectFrom('events')
      .select('ingested_at')
      .where('customer_id', '=', purchase.customerId)
      .where('name', '=', 'meter.credited')
      .executeTakeFirstOrThrow();

    clock().advance(60_000);
    const own = { customer_id: purchase.customerId };
    await ingest(own, 'llm.completion', { plan: 'pro', tokens: 30 });
    await ingest(own, 'llm.completion', { plan: 'free', tokens: 1000 });
    await ingest(own, 'api.call', { plan: 'pro', tokens: 1000 });
    await ingest(own, 'llm.completion', { plan: 'pro', tokens: 'many' });
    clock().advance(60_000);
    const lastAt = await ingest(own, 'llm.completion', { plan: 'pro', tokens: 12.5 });
    clock().advance(60_000);
    await ingest(own, 'api.call', {});

    const meters = await activeMeters(purchase.customerId);
    const tokens = meters.find((m) => m.meter_id === meter.id);
    expect(tokens).toEqual({
      id: expect.stringMatching(UUID),
      created_at: creditedAt.toISOString(),
      modified_at: lastAt.toISOString(),
      meter_id: meter.id,
      consumed_units: 42.5,
      credited_units: 100,
      balance: 57.5,
    });
    // A count meter with an empty filter counts every user event of the customer.
    expect(meters.find((m) => m.meter_id === everything.id)).toMatchObject({
      consumed_units: 6,
      credited_units: 0,
      balance: -6,
    });
    // The id is derived from (customer, meter): the same on every read.
    expect((await activeMeters(purchase.customerId)).find((m) => m.meter_id === meter.id).id).toBe(tokens.id);
  });

  it('lists only meters with events in their window, never archived ones', async () => {
    const counted = await meterFactory(server, acme.organization.id, {
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'export.run' }] },
    });
    const archived = await meterFactory(server, acme.organization.id, { archived_at: clock().now() });
    const customer = await customerFactory(server, acme.organization.id);
    expect((await activeMeters(customer.id)).map((m) => m.meter_id)).not.toContain(counted.id);

    await ingest({ customer_id: customer.id }, 'export.run', {});
    const meters = await activeMeters(customer.id);
    expect(meters.find((m) => m.meter_id === counted.id)).toMatchObject({ consumed_units: 1, balance: -1 });
    expect(meters.map((m) => m.meter_id)).not.toContain(archived.id);
    // Another customer has its own id for the same meter.
    const other = await customerFactory(server, acme.organization.id);
    await ingest({ customer_id: other.id }, 'export.run', {});
    const otherMeter = (await activeMeters(other.id)).find((m) => m.meter_id === counted.id);
    expect(otherMeter.id).not.toBe(meters.find((m) => m.meter_id === counted.id).id);
  });

  it("counts events sent with the customer's external id", async () => {
    const meter = await meterFactory(server, acme.organization.id, {
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'sync.job' }] },
    });
    const customer = await customerFactory(server, acme.organization.id, { external_id: `ext-${randomUUID()}` });
    await ingest({ customer_id: customer.id }, 'sync.job', {});
    await ingest({ external_customer_id: customer.external_id }, 'sync.job', {});
    await ingest({ external_customer_id: 'someone-else' }, 'sync.job', {});
    const other = await organizationFactory(server, { name: 'Other' });
    await ingest({ external_customer_id: customer.external_id }, 'sync.job', {}, other.organization.id);
    expect((await activeMeters(customer.id)).find((m) => m.meter_id === meter.id)).toMatchObject({
      consumed_units: 2,
    });
  });

  it('starts the window at the latest reset of the meter', async () => {
    const meter = await meterFactory(server, acme.organization.id, {
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'render' }] },
    });
    const customer = await customerFactory(server, acme.organization.id);
    await ingest({ customer_id: customer.id }, 'render', {});
    // Stamped as billing stamps its resets: after the events ingested before it.
    const resetAt = await usageInstant(db(), acme.organization.id, { testClocks: true, after: await lastIngest() });
    await db()
      .insertInto('events')
      .values({
        id: randomUUID(),
        timestamp: resetAt,
        ingested_at: resetAt,
        organization_id: acme.organization.id,
        customer_id: customer.id,
        external_customer_id: null,
        name: 'meter.reset',
        source: 'system',
        metadata: JSON.stringify({ meter_id: meter.id }),
      })
      .execute();
    expect((await activeMeters(customer.id)).find((m) => m.meter_id === meter.id)).toMatchObject({
      created_at: resetAt.toISOString(),
      consumed_units: 0,
      balance: 0,
    });
    clock().advance(1_000);
    await ingest({ customer_id: customer.id }, 'render', {});
    expect((await activeMeters(customer.id)).find((m) => m.meter_id === meter.id)).toMatchObject({
      created_at: resetAt.toISOString(),
      consumed_units: 1,
    });
  });
});

describe('meter credits at renewal', () => {
  /** A subscription to a product with a credit of 100 units on its own meter (sum of `tokens`). */
  async function subscribedWithCredits(rollover: boolean) {
    const meter = await meterFactory(server, acme.organization.id, PRO_TOKENS);
    const credit = await typedBenefitFactory(server, acme.organization.id, 'meter_credit', {
      units: 100,
      rollover,
      meter_id: meter.id,
    });
    const purchase = await purchaseFactory(server, acme, [credit.id], { recurring: true });
    await waitForGrant(server, purchase.customerId, credit.id, granted);
    return { meter, credit, purchase };
  }

  async function use(customerId: string, tokens: number) {
    clock().advance(60_000);
    await ingest({ customer_id: customerId }, 'llm.completion', { plan: 'pro', tokens });
  }

  async function renew(setup: Awaited<ReturnType<typeof subscribedWithCredits>>) {
    const { purchase, credit } = setup;
    clock().advance(3_600_000);
    const before = await waitForGrant(server, purchase.customerId, credit.id, granted);
    const lastCredited = (before.properties as { last_credited_at: string }).last_credited_at;
    await inTransaction(server, (ctx) => cycleGrantsForSubscription(ctx, purchase.subscriptionId!));
    await waitForGrant(
      server,
      purchase.customerId,
      credit.id,
      (g) => (g.properties as { last_credited_at: string }).last_credited_at !== lastCredited,
    );
  }

  const balanceOf = async (customerId: string, meterId: string) =>
    (await activeMeters(customerId)).find((m) => m.meter_id === meterId);

  it('carries unused rollover credits into the next period', async () => {
    const setup = await subscribedWithCredits(true);
    const { meter, purchase } = setup;
    await use(purchase.customerId, 40);
    expect(await balanceOf(purchase.customerId, meter.id)).toMatchObject({
      consumed_units: 40,
      credited_units: 100,
      balance: 60,
    });

    await renew(setup);
    expect(await balanceOf(purchase.customerId, meter.id)).toMatchObject({
      consumed_units: 0,
      credited_units: 160,
      balance: 160,
    });
    // The purchase's credit, then the cycle's two (same instant: their order between them is not kept).
    const credits = await creditsOf(purchase.customerId, meter.id);
    expect(credits[0]).toEqual({ units: 100, rollover: true });
    expect(credits.slice(1).sort((a, b) => a.units - b.units)).toEqual([
      { units: 60, rollover: true },
      { units: 100, rollover: true },
    ]);
    const resets = await db()
      .selectFrom('events')
      .select('metadata')
      .where('customer_id', '=', purchase.customerId)
      .where('name', '=', 'meter.reset')
      .execute();
    expect(resets.map((r) => r.metadata)).toEqual([{ meter_id: meter.id }]);

    // The customer is told: the state sent after the renewal carries the new balance.
    await expect
      .poll(async () => {
        const rows = await db()
          .selectFrom('webhook_events')
          .select('payload')
          .where('type', '=', 'customer.state_changed')
          .execute();
        return rows
          .map((row) => (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload).data)
          .filter((data) => data.id === purchase.customerId)
          .flatMap((data) => data.active_meters)
          .some((m) => m.meter_id === meter.id && m.balance === 160);
      })
      .toBe(true);

    // Usage beyond what the period holds rolls nothing over.
    await use(purchase.customerId, 200);
    expect(await balanceOf(purchase.customerId, meter.id)).toMatchObject({ balance: -40 });
    await renew(setup);
    expect(await balanceOf(purchase.customerId, meter.id)).toMatchObject({
      consumed_units: 0,
      credited_units: 100,
      balance: 100,
    });
    expect((await creditsOf(purchase.customerId, meter.id)).slice(3)).toEqual([{ units: 100, rollover: true }]);
  });

  it('does not carry credits granted without rollover', async () => {
    const setup = await subscribedWithCredits(false);
    const { meter, purchase } = setup;
    await use(purchase.customerId, 40);
    await renew(setup);
    expect(await balanceOf(purchase.customerId, meter.id)).toMatchObject({
      consumed_units: 0,
      credited_units: 100,
      balance: 100,
    });
    expect(await creditsOf(purchase.customerId, meter.id)).toEqual([
      { units: 100, rollover: false },
      { units: 100, rollover: false },
    ]);
  });

  it('carries only what is left of the period, capped by the rollover credits', async () => {
    const setup = await subscribedWithCredits(true);
    const { meter, purchase } = setup;
    await use(purchase.customerId, 99.5);
    await renew(setup);
    // 0.5 unit left: whole units carry over, so nothing does.
    expect(await balanceOf(purchase.customerId, meter.id)).toMatchObject({ credited_units: 100, balance: 100 });
    expect(await creditsOf(purchase.customerId, meter.id)).toHaveLength(2);
  });
});

describe('GET /v1/customer-meters/ and /{id}', () => {
  let org: OrganizationFixture;
  let meterId: string;
  let otherMeterId: string;
  let ada: { id: string };
  let bob: { id: string };

  async function ingestOver(events: unknown[], token = org.token) {
    const response = await server.inject({
      method: 'POST',
      url: '/v1/events/ingest',
      headers: bearer(token),
      payload: { events },
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  async function get(url: string, token = org.token) {
    return server.inject({ method: 'GET', url, headers: bearer(token) });
  }

  beforeAll(async () => {
    org = await organizationFactory(server, { name: 'Customer meters' });
    meterId = (await meterFactory(server, org.organization.id, { name: 'Pro tokens', ...PRO_TOKENS })).id;
    otherMeterId = (await meterFactory(server, org.organization.id, { name: 'All events' })).id;
    ada = await customerFactory(server, org.organization.id, { name: 'Ada', external_id: 'ada' });
    bob = await customerFactory(server, org.organization.id, { name: 'Bob' });
    await customerFactory(server, org.organization.id, { name: 'Idle' });
    await ingestOver([
      { name: 'llm.completion', customer_id: ada.id, metadata: { plan: 'pro', tokens: 30 } },
      { name: 'llm.completion', external_customer_id: 'ada', metadata: { plan: 'pro', tokens: 12.5 } },
      { name: 'llm.completion', customer_id: bob.id, metadata: { plan: 'pro', tokens: 'lots' } },
      { name: 'llm.completion', customer_id: bob.id, metadata: { plan: 'pro', tokens: 5 } },
    ]);
  });

  it('lists consumption, credits and balance per customer and meter, with customer and meter', async () => {
    const response = await get('/v1/customer-meters/?limit=100');
    expect(response.statusCode).toBe(200);
    const page = json(response);
    for (const item of page.items) {
      CustomerMeter.parse(item);
      // The SDK's Meter schema accepts only the count and avg aggregations (its union maps every
      // property aggregation to "avg"), so only count meters go through it here.
      if (item.meter.aggregation.func === 'count') CustomerMeter$inboundSchema.parse(item);
    }
    const byPair = Object.fromEntries(
      page.items.map((i: any) => [
        `${i.customer.name}/${i.meter.name}`,
        [i.consumed_units, i.credited_units, i.balance],
      ]),
    );
    expect(byPair).toEqual({
      'Ada/Pro tokens': [42.5, 0, -42.5],
      'Ada/All events': [2, 0, -2],
      'Bob/Pro tokens': [5, 0, -5],
      'Bob/All events': [2, 0, -2],
    });
    expect(page.pagination).toEqual({ total_count: 4, max_page: 1 });
    const item = page.items.find((i: any) => i.customer_id === ada.id && i.meter_id === meterId);
    expect(item.id).toMatch(UUID);
    const one = await get(`/v1/customer-meters/${item.id}`);
    expect(one.statusCode).toBe(200);
    expect(json(one)).toEqual(item);
  });

  it("one customer meter by id reads its own customer's events only, not every customer's", async () => {
    // Ids are derived from (customer, meter): the pair is found first. Reading which customers have
    // events over the whole organization took 13 s with 10 million events and 1,000 customers.
    const { items } = json(await get(`/v1/customer-meters/?customer_id=${ada.id}&meter_id=${meterId}`));
    const counter = installStatementCounter();
    try {
      const { result, statements } = await counter.count(() => get(`/v1/customer-meters/${items[0].id}`));
      expect(result.statusCode).toBe(200);
      const withEvents = statements.filter((s) => /from "customers"/.test(s) && /exists/.test(s));
      expect(withEvents.length).toBeGreaterThan(0);
      for (const statement of withEvents) expect(statement).toMatch(/"customers"\."id" in/);
    } finally {
      counter.uninstall();
    }
  });

  it('filters by customer (id or external id) and meter; sorts; paginates', async () => {
    const ids = async (query: string) =>
      json(await get(`/v1/customer-meters/?${query}`)).items.map((i: any) => `${i.customer.name}/${i.meter.name}`);
    expect(await ids(`customer_id=${bob.id}&sorting=meter_name`)).toEqual(['Bob/All events', 'Bob/Pro tokens']);
    expect(await ids('external_customer_id=ada&sorting=-consumed_units')).toEqual(['Ada/Pro tokens', 'Ada/All events']);
    expect(await ids(`meter_id=${meterId}&sorting=balance`)).toEqual(['Ada/Pro tokens', 'Bob/Pro tokens']);
    expect(await ids(`meter_id=${otherMeterId}&sorting=-customer_name`)).toEqual(['Bob/All events', 'Ada/All events']);
    const second = json(await get('/v1/customer-meters/?limit=3&page=2&sorting=customer_name&sorting=meter_name'));
    expect(second.pagination).toEqual({ total_count: 4, max_page: 2 });
    expect(second.items.map((i: any) => `${i.customer.name}/${i.meter.name}`)).toEqual(['Bob/Pro tokens']);
    expect((await get('/v1/customer-meters/?sorting=email')).statusCode).toBe(422);
    expect((await get('/v1/customer-meters/?customer_id=nope')).statusCode).toBe(422);
  });

  it('401 without a token, 403 without customer_meters:read, 404 for another organization', async () => {
    const { id } = json(await get('/v1/customer-meters/')).items[0];
    expect((await server.inject({ method: 'GET', url: '/v1/customer-meters/' })).statusCode).toBe(401);
    expect((await server.inject({ method: 'GET', url: `/v1/customer-meters/${id}` })).statusCode).toBe(401);
    const metersOnly = await tokenFactory(server, org.organization.id, ['meters:read', 'customers:read']);
    expect((await get('/v1/customer-meters/', metersOnly)).statusCode).toBe(403);
    expect((await get(`/v1/customer-meters/${id}`, metersOnly)).statusCode).toBe(403);
    const scoped = await tokenFactory(server, org.organization.id, ['customer_meters:read']);
    expect((await get(`/v1/customer-meters/${id}`, scoped)).statusCode).toBe(200);
    expect((await get(`/v1/customer-meters/${id}`, acme.token)).statusCode).toBe(404);
    expect(json(await get('/v1/customer-meters/', acme.token)).items.map((i: any) => i.id)).not.toContain(id);
    expect((await get(`/v1/customer-meters/${randomUUID()}`)).statusCode).toBe(404);
  });

  it("the portal shows the session's customer its own meters, never another's", async () => {
    const session = async (customerId: string) => {
      const response = await server.inject({
        method: 'POST',
        url: '/v1/customer-sessions/',
        headers: bearer(org.token),
        payload: { customer_id: customerId },
      });
      expect(response.statusCode).toBe(201);
      return json(response).token as string;
    };
    const adaToken = await session(ada.id);
    const list = await get('/v1/customer-portal/meters/?sorting=meter_name', adaToken);
    expect(list.statusCode).toBe(200);
    const items = json(list).items;
    for (const item of items) CustomerCustomerMeter$inboundSchema.parse(item);
    expect(items.map((i: any) => [i.meter.name, i.consumed_units])).toEqual([
      ['All events', 2],
      ['Pro tokens', 42.5],
    ]);
    expect(Object.keys(items[0].meter).sort()).toEqual(['created_at', 'id', 'modified_at', 'name']);
    const searched = json(await get('/v1/customer-portal/meters/?query=PRO', adaToken)).items;
    expect(searched.map((i: any) => i.meter_id)).toEqual([meterId]);
    const byMeter = json(await get(`/v1/customer-portal/meters/?meter_id=${otherMeterId}`, adaToken)).items;
    expect(byMeter.map((i: any) => i.meter_id)).toEqual([otherMeterId]);
    const one = await get(`/v1/customer-portal/meters/${items[0].id}`, adaToken);
    expect(one.statusCode).toBe(200);
    expect(json(one)).toEqual(items[0]);

    const bobs = json(await get(`/v1/customer-meters/?customer_id=${bob.id}`)).items;
    expect((await get(`/v1/customer-portal/meters/${bobs[0].id}`, adaToken)).statusCode).toBe(404);
    expect((await server.inject({ method: 'GET', url: '/v1/customer-portal/meters/' })).statusCode).toBe(401);
    // A seller's token is not a customer session.
    expect((await get('/v1/customer-portal/meters/')).statusCode).toBe(401);
  });

  it('customerMeterUsage answers consumed and credited units of a period for billing', async () => {
    const usage = await customerMeterUsage({ db: db() }, ada.id, meterId, {
      start: new Date(clock().now().getTime() - 3_600_000),
      end: new Date(clock().now().getTime() + 1),
    });
    expect(usage).toEqual({ consumed_units: 42.5, credited_units: 0 });
    const before = await customerMeterUsage({ db: db() }, ada.id, meterId, {
      start: new Date(0),
      end: new Date(clock().now().getTime() - 3_600_000),
    });
    expect(before).toEqual({ consumed_units: 0, credited_units: 0 });
    expect(
      await customerMeterUsage({ db: db() }, randomUUID(), meterId, { start: new Date(0), end: new Date() }),
    ).toEqual({ consumed_units: 0, credited_units: 0 });
  });
});
