import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerMeters } from '../src/modules/customer-meters/customer-meters.service.js';
import {
  countsFor,
  meterBalance,
  windowOf,
  type MeterAggregation,
  type MeterFilter,
} from '../src/modules/customer-meters/customer-meters.window.js';
import { ingestEvents } from '../src/modules/events/events.service.js';
import { buildMeterRollups } from '../src/modules/meters/meters.rollups.js';
import { getMeterQuantities } from '../src/modules/meters/meters.service.js';
import type { TimeInterval } from '../src/modules/meters/meters.schemas.js';
import type { Subject } from '../src/platform/auth/subject.js';
import { usageInstant } from '../src/modules/meters/meter-rollups.repository.js';
import { ManualClock } from '../src/platform/clock.js';
import type { Context } from '../src/platform/context.js';
import { meterFactory } from './factories/benefits.js';
import { inTransaction } from './factories/benefit-grants.js';
import { customerFactory } from './factories/customers.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { startTestServer, type TestServer } from './harness.js';

/**
 * The rollups (0021) against the plain scan of the events and the pure reference functions: random
 * meters, random events over several days and ingestion hours, resets at instants off the hour, and
 * meters built before, during and after the ingests. Every answer read through the rollups must be the
 * one the scan gives, to the digit.
 */

let server: TestServer;
let acme: OrganizationFixture;

beforeAll(async () => {
  // No workers: the test builds the rollups itself, at the moments it chooses.
  // The test's clock starts at the real time: ingests are stamped on the database's clock plus the
  // organization's test-clock offset, which `followClock` keeps with this clock as it moves forward.
  server = await startTestServer({ work: false, clock: new ManualClock(new Date()) });
  acme = await organizationFactory(server, { name: 'Acme' });
});
afterAll(() => server?.stop());

const db = () => server.runtime.database.db;
const clock = () => server.clock as ManualClock;
const HOUR = 3_600_000;

/** A small deterministic generator (mulberry32), so a failure can be replayed from its seed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return { next, pick, int: (max: number) => Math.floor(next() * max) };
}

type Random = ReturnType<typeof random>;

const AGGREGATIONS: MeterAggregation[] = [
  { func: 'count' },
  { func: 'sum', property: 'tokens' },
  { func: 'max', property: 'tokens' },
  { func: 'min', property: 'metadata.tokens' },
  { func: 'avg', property: 'tokens' },
  { func: 'sum', property: 'seconds' },
];

function randomFilter(rng: Random): MeterFilter {
  const clause = () =>
    rng.pick([
      { property: 'name', operator: 'eq' as const, value: rng.pick(['llm.completion', 'api.call']) },
      { property: 'plan', operator: rng.pick(['eq', 'ne'] as const), value: rng.pick(['pro', 'free']) },
      { property: 'tokens', operator: rng.pick(['gt', 'lte'] as const), value: rng.int(100) },
      { property: 'region', operator: 'like' as const, value: rng.pick(['eu', 'us']) },
    ]);
  const clauses = Array.from({ length: rng.int(3) }, clause);
  if (rng.next() < 0.3) clauses.push({ conjunction: 'or', clauses: [clause(), clause()] } as never);
  return { conjunction: rng.pick(['and', 'or'] as const), clauses };
}

function randomMetadata(rng: Random): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  if (rng.next() < 0.8) metadata.plan = rng.pick(['pro', 'free', 'team']);
  const tokens = rng.next();
  // Integers, halves, negatives, strings and absent values: only finite JSON numbers count.
  if (tokens < 0.5) metadata.tokens = rng.int(200) - 20;
  else if (tokens < 0.7) metadata.tokens = rng.int(400) / 2;
  else if (tokens < 0.8) metadata.tokens = String(rng.int(50));
  if (rng.next() < 0.5) metadata.seconds = rng.int(10_000) / 4;
  if (rng.next() < 0.6) metadata.region = rng.pick(['eu-west', 'us-east', 'ap']);
  return metadata;
}

const organizationSubject = (organizationId: string): Subject => ({
  kind: 'organization',
  organizationId,
  tokenId: 'test',
  scopes: new Set(),
});

/**
 * Moves the organization's test clock so that the database's clock plus its offset is this test's
 * clock (to the second): ingests and resets are stamped at the test's time, over hours and days.
 */
async function followClock(organizationId = acme.organization.id): Promise<void> {
  const offset = Math.max(0, Math.floor((clock().now().getTime() - Date.now()) / 1000));
  await db()
    .insertInto('test_clocks')
    .values({ organization_id: organizationId, created_at: clock().now(), offset_seconds: offset })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet({ offset_seconds: offset }))
    .execute();
}

async function asOrganization<T>(fn: (ctx: Context) => Promise<T>): Promise<T> {
  return inTransaction(server, (ctx) => fn({ ...ctx, subject: organizationSubject(acme.organization.id) }));
}

/** Reads `fn` through the rollups, then through the scan (the meters marked not built), and restores. */
async function bothWays<T>(meterIds: string[], fn: () => Promise<T>): Promise<{ rollups: T; scan: T }> {
  const built = await db()
    .selectFrom('meters')
    .select(['id', 'rollups_built_at'])
    .where('id', 'in', meterIds)
    .execute();
  for (const meter of built) expect(meter.rollups_built_at).not.toBeNull();
  const rollups = await fn();
  await db().updateTable('meters').set({ rollups_built_at: null }).where('id', 'in', meterIds).execute();
  try {
    return { rollups, scan: await fn() };
  } finally {
    for (const meter of built) {
      await db()
        .updateTable('meters')
        .set({ rollups_built_at: meter.rollups_built_at })
        .where('id', '=', meter.id)
        .execute();
    }
  }
}

describe('meter rollups', () => {
  it.each([1, 2, 3])('answer exactly what the scan answers (seed %i)', async (seed) => {
    const rng = random(seed);
    const organizationId = acme.organization.id;
    const customers = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        customerFactory(server, organizationId, i % 2 === 0 ? { external_id: `ext-${seed}-${i}-${randomUUID()}` } : {}),
      ),
    );
    const meters = await Promise.all(
      AGGREGATIONS.map((aggregation, i) =>
        meterFactory(server, organizationId, { name: `m${seed}-${i}`, filter: randomFilter(rng), aggregation }),
      ),
    );
    const start = clock().now();
    const build = (meterId: string) => asOrganization((ctx) => buildMeterRollups(ctx, organizationId, meterId));
    // Half the meters are built before any event (maintained by each ingest), the others later (rebuilt).
    for (const meter of meters.slice(0, meters.length / 2)) expect(await build(meter.id)).toBe(true);

    const resets = new Map<string, Date>();
    for (let batch = 0; batch < 12; batch++) {
      clock().advance(rng.int(3 * HOUR) + 17_000);
      const now = clock().now();
      const events = Array.from({ length: 20 + rng.int(40) }, () => {
        const customer = rng.pick(customers);
        const who = rng.next();
        return {
          name: rng.pick(['llm.completion', 'api.call']),
          // Anywhere in the three days before now.
          timestamp: new Date(now.getTime() - rng.int(72 * HOUR)).toISOString(),
          ...(who < 0.5 || !customer.external_id
            ? { customer_id: customer.id }
            : who < 0.9
              ? { external_customer_id: customer.external_id }
              : { external_customer_id: `unknown-${rng.int(3)}` }),
          metadata: randomMetadata(rng) as never,
        };
      });
      await followClock();
      await asOrganization((ctx) => ingestEvents(ctx, { events }));
      if (batch === 5) {
        for (const meter of meters.slice(meters.length / 2)) expect(await build(meter.id)).toBe(true);
      }
      if (batch === 7 || batch === 9) {
        // A reset off the hour for one customer on one meter: the window starts inside an hour.
        clock().advance(rng.int(HOUR));
        await followClock();
        // Stamped as billing stamps a reset: on the usage clock, after every event ingested before it.
        const resetAt = await usageInstant(db(), organizationId, { testClocks: true, after: clock().now() });
        const customer = customers[batch % customers.length]!;
        const meter = meters[batch === 7 ? 0 : 1]!;
        resets.set(`${customer.id}:${meter.id}`, resetAt);
        await db()
          .insertInto('events')
          .values({
            id: randomUUID(),
            timestamp: resetAt,
            ingested_at: resetAt,
            organization_id: organizationId,
            customer_id: customer.id,
            external_customer_id: null,
            name: 'meter.reset',
            source: 'system',
            metadata: JSON.stringify({ meter_id: meter.id }),
          })
          .execute();
        // Events ingested in the rest of the reset's hour, and in the hour before it.
        clock().advance(1_000);
        await followClock();
        const after = clock().now();
        const ofCustomer = (offset: number) => ({
          name: 'llm.completion',
          timestamp: new Date(after.getTime() - offset).toISOString(),
          ...(customer.external_id ? { external_customer_id: customer.external_id } : { customer_id: customer.id }),
          metadata: { plan: 'pro', tokens: 7, seconds: 1, region: 'eu-west' } as never,
        });
        await asOrganization((ctx) => ingestEvents(ctx, { events: [ofCustomer(0), ofCustomer(2 * HOUR)] }));
      }
    }
    // A build of a built meter does nothing.
    expect(await build(meters[0]!.id)).toBe(false);

    const end = clock().now();
    for (const meter of meters) {
      for (const interval of ['hour', 'day', 'week'] as TimeInterval[]) {
        const params = {
          start_timestamp: new Date(start.getTime() - 4 * 24 * HOUR).toISOString(),
          end_timestamp: end.toISOString(),
          interval,
        };
        for (const scope of [
          {},
          { customer_id: [customers[0]!.id] },
          { external_customer_id: [customers[2]!.external_id!, 'unknown-1'] },
        ]) {
          const { rollups, scan } = await bothWays([meter.id], () =>
            asOrganization((ctx) => getMeterQuantities(ctx, meter.id, { ...params, ...scope } as never)),
          );
          expect(rollups, `${meter.name} ${interval} ${JSON.stringify(scope)}`).toEqual(scan);
        }
      }
    }

    const allEvents = await db()
      .selectFrom('events')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .execute();
    for (const customer of customers) {
      const { rollups, scan } = await bothWays(
        meters.map((m) => m.id),
        () => asOrganization((ctx) => customerMeters(ctx, customer)),
      );
      expect(rollups).toEqual(scan);
      // And what the pure functions give over the customer's events.
      const own = allEvents.filter(
        (e) =>
          e.customer_id === customer.id ||
          (customer.external_id !== null && e.external_customer_id === customer.external_id),
      );
      for (const meter of meters) {
        const definition = {
          id: meter.id,
          filter: meter.filter as MeterFilter,
          aggregation: meter.aggregation as MeterAggregation,
        };
        const window = windowOf(own, meter.id);
        const expected = meterBalance(definition, window);
        const entry = rollups.find((m) => m.meter_id === meter.id);
        if (!window.some((e) => countsFor(definition, e) || e.source === 'system')) continue;
        expect(entry?.consumed_units, `${meter.name} ${customer.id}`).toBeCloseTo(expected.consumed_units, 9);
        if (resets.has(`${customer.id}:${meter.id}`)) expect(window.length).toBeLessThan(own.length);
      }
    }
  });
});
