import { randomUUID } from 'node:crypto';
import { CustomerStateMeter$inboundSchema } from '@polar-sh/sdk/models/components/customerstatemeter.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cycleGrantsForSubscription } from '../src/modules/benefit-grants/benefit-grants.service.js';
import type { ManualClock } from '../src/platform/clock.js';
import { meterFactory } from './factories/benefits.js';
import { inTransaction, purchaseFactory, typedBenefitFactory, waitForGrant } from './factories/benefit-grants.js';
import { customerFactory } from './factories/customers.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

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

/** A usage event as ingestion would store it (there is no ingestion route yet), ingested now. */
async function ingest(
  customer: { customer_id?: string | null; external_customer_id?: string | null },
  name: string,
  metadata: Record<string, unknown>,
  organizationId = acme.organization.id,
) {
  const now = clock().now();
  await db()
    .insertInto('events')
    .values({
      id: randomUUID(),
      timestamp: now,
      ingested_at: now,
      organization_id: organizationId,
      customer_id: customer.customer_id ?? null,
      external_customer_id: customer.external_customer_id ?? null,
      name,
      source: 'user',
      metadata: JSON.stringify(metadata),
    })
    .execute();
  return now;
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
    clock().advance(1_000);
    const resetAt = clock().now();
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
