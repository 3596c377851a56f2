import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../src/modules/webhooks/webhooks.dispatcher.js';
import { insertEndpointEvents } from '../src/modules/webhooks/webhooks.repository.js';
import { systemClock } from '../src/platform/clock.js';
import { beforeCommit } from '../src/platform/db/commit-hooks.js';
import { recordWebhookEvent } from '../src/platform/events.js';
import { organizationFactory } from './factories/organizations.js';
import { emitWebhookEvent, WebhookReceiver, webhookEndpointFactory } from './factories/webhooks.js';
import { startTestServer, usingServerDatabase, type TestServer } from './harness.js';

/**
 * How delivery workers are woken and share endpoints: a commit's notification wakes them (the poll is
 * set to an hour, so nothing else could deliver in time), the poll finds what no notification
 * announced, and several workers on one database keep every endpoint's order, retries included.
 */
const POLL = { timeout: 20_000, interval: 20 };
const receivers: WebhookReceiver[] = [];
const servers: TestServer[] = [];

async function receiver(): Promise<WebhookReceiver> {
  const started = await new WebhookReceiver().start();
  receivers.push(started);
  return started;
}

async function server(pollIntervalMs: number): Promise<TestServer> {
  const started = await startTestServer({
    clock: systemClock,
    config: {
      webhookPollIntervalMs: pollIntervalMs,
      webhookRetrySchedule: Array.from({ length: 20 }, () => 0.05),
      webhookRetryJitter: 0,
    },
  });
  servers.push(started);
  return started;
}

/** A pending event for the endpoint written without the notification (as if it had been lost). */
async function insertSilently(target: TestServer, organizationId: string, endpointId: string): Promise<void> {
  const db = target.runtime.database.db;
  const eventId = randomUUID();
  const payload = JSON.stringify({ type: 'order.updated', data: { silent: true } });
  await db
    .insertInto('webhook_events')
    .values({ id: eventId, created_at: new Date(), organization_id: organizationId, type: 'order.updated', payload })
    .execute();
  await insertEndpointEvents(db, [
    {
      id: randomUUID(),
      created_at: new Date(),
      modified_at: null,
      organization_id: organizationId,
      endpoint_id: endpointId,
      event_id: eventId,
      type: 'order.updated',
      payload,
      body: null,
      status: 'pending',
      next_attempt_at: new Date(),
      last_http_code: null,
      succeeded: null,
    },
  ]);
}

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await Promise.all(receivers.map((r) => r.stop()));
});

describe('wake-up on commit', () => {
  let quiet: TestServer;
  beforeAll(async () => {
    quiet = await server(3_600_000);
  });

  it('delivers an event as its transaction commits, with the poll an hour away', async () => {
    const { organization } = await organizationFactory(quiet, { name: 'Wake' });
    const target = await receiver();
    await webhookEndpointFactory(quiet, organization.id, { url: `${target.url}/hook` });
    for (const n of [1, 2, 3]) {
      const committed = Date.now();
      await emitWebhookEvent(quiet, organization.id, 'order.updated', { n });
      await expect.poll(() => target.received.length, { timeout: 5_000, interval: 5 }).toBe(n);
      expect(target.received[n - 1]!.at - committed).toBeLessThan(2_000);
    }
  });

  it('a rolled-back transaction wakes nobody and sends nothing', async () => {
    const { organization } = await organizationFactory(quiet, { name: 'Rollback' });
    const target = await receiver();
    await webhookEndpointFactory(quiet, organization.id, { url: `${target.url}/hook` });
    await expect(
      quiet.runtime.database.db.transaction().execute(async (tx) => {
        const { recordWebhookEvent } = await import('../src/platform/events.js');
        await recordWebhookEvent(quiet.runtime.context(tx), organization.id, 'order.updated', { n: 0 });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await emitWebhookEvent(quiet, organization.id, 'order.updated', { n: 1 });
    await expect.poll(() => target.received.length, POLL).toBe(1);
    expect(JSON.parse(target.received[0]!.body).data).toEqual({ n: 1 });
  });

  it('without a notification and with the poll an hour away, an event waits (what the poll is for)', async () => {
    const { organization } = await organizationFactory(quiet, { name: 'Silent' });
    const target = await receiver();
    const endpoint = await webhookEndpointFactory(quiet, organization.id, { url: `${target.url}/hook` });
    // The earlier tests' workers are done: no lease left, and the look a worker takes as it finishes an
    // endpoint (which would find any due event, announced or not) is over.
    await expect
      .poll(
        async () =>
          (
            await quiet.runtime.database.db
              .selectFrom('webhook_endpoints')
              .select('id')
              .where('delivery_token', 'is not', null)
              .execute()
          ).length,
        POLL,
      )
      .toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await insertSilently(quiet, organization.id, endpoint.id);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(target.received).toHaveLength(0);
    // The next notification for the endpoint takes the waiting event along, first.
    await emitWebhookEvent(quiet, organization.id, 'order.updated', { n: 1 });
    await expect.poll(() => target.received.length, POLL).toBe(2);
    expect(target.received.map((r) => JSON.parse(r.body).data)).toEqual([{ silent: true }, { n: 1 }]);
  });
});

describe('a transaction still writing an event for the endpoint', () => {
  // Writing an event takes a key-share lock on its endpoint's row (the foreign key) until it commits.
  // The claim locked the rows it took FOR UPDATE SKIP LOCKED, which conflicts with it: an endpoint with
  // a request committing an event was skipped, and under load its delivery waited for a look at a quiet
  // moment, or the poll. The lane's read still waits for such a writer (an event inserted first but
  // committed last is never overtaken). The embedded database is one session: a transaction open
  // keeps every other one waiting.
  it.skipIf(!usingServerDatabase())('is claimed at once, and its events go in order when it commits', async () => {
    // Stopped at the end (not with the file's servers): a PostgreSQL server's connections are shared.
    const quiet = await startTestServer({ clock: systemClock, config: { webhookPollIntervalMs: 3_600_000 } });
    try {
      await claimedPastAnOpenWriter(quiet);
    } finally {
      await quiet.stop();
    }
  });
});

async function claimedPastAnOpenWriter(quiet: TestServer): Promise<void> {
  const { organization } = await organizationFactory(quiet, { name: 'Busy' });
  const target = await receiver();
  const endpoint = await webhookEndpointFactory(quiet, organization.id, { url: `${target.url}/hook` });
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let written = () => {};
  const writing = new Promise<void>((resolve) => (written = resolve));
  const open = quiet.runtime.database.db.transaction().execute(async (tx) => {
    await recordWebhookEvent(quiet.runtime.context(tx), organization.id, 'order.updated', { n: 'first' });
    // Held open after its events are stored (they are, as it commits): inserted first, committed last.
    await beforeCommit(tx, 'test.hold-open', 100, async () => {
      written();
      await released;
    });
  });
  try {
    await writing;
    await emitWebhookEvent(quiet, organization.id, 'order.updated', { n: 'second' });
    const leased = () =>
      quiet.runtime.database.db
        .selectFrom('webhook_endpoints')
        .select('delivery_token')
        .where('id', '=', endpoint.id)
        .executeTakeFirstOrThrow()
        .then((row) => row.delivery_token !== null);
    // The second event's notification has the endpoint claimed, its writer still open.
    await expect.poll(leased, { timeout: 5_000, interval: 10 }).toBe(true);
    expect(target.received).toHaveLength(0);
  } finally {
    release();
    await open;
  }
  await expect.poll(() => target.received.length, POLL).toBe(2);
  expect(target.received.map((r) => JSON.parse(r.body).data)).toEqual([{ n: 'first' }, { n: 'second' }]);
}

describe('more endpoints with work than lanes', () => {
  it('an endpoint waiting for a lane gets one while a busy endpoint still has work', { timeout: 90_000 }, async () => {
    const single = await startTestServer({
      clock: systemClock,
      config: { webhookPollIntervalMs: 3_600_000, webhookConcurrency: 1 },
    });
    try {
      await waitingEndpointGetsALane(single);
    } finally {
      await single.stop();
    }
  });
});

async function waitingEndpointGetsALane(single: TestServer): Promise<void> {
  const busy = await organizationFactory(single, { name: 'Busy stream' });
  const waiting = await organizationFactory(single, { name: 'Waiting' });
  const busyTarget = await receiver();
  const waitingTarget = await receiver();
  await webhookEndpointFactory(single, busy.organization.id, { url: `${busyTarget.url}/hook` });
  await webhookEndpointFactory(single, waiting.organization.id, { url: `${waitingTarget.url}/hook` });
  // Each request to the busy endpoint commits its next event while it is answered (50 ms later), so
  // its queue never runs dry: its lane alone would never end.
  let streaming = true;
  const emits: Promise<unknown>[] = [];
  busyTarget.respond = (_request, index) => {
    if (streaming && index < 500)
      emits.push(emitWebhookEvent(single, busy.organization.id, 'order.updated', { n: index + 1 }));
    return { status: 200, delayMs: 50 };
  };
  try {
    await emitWebhookEvent(single, busy.organization.id, 'order.updated', { n: 0 });
    await expect.poll(() => busyTarget.received.length, POLL).toBeGreaterThan(2);
    await emitWebhookEvent(single, waiting.organization.id, 'order.updated', { n: 'waiting' });
    await expect.poll(() => waitingTarget.received.length, { timeout: 10_000, interval: 10 }).toBe(1);
    // The busy endpoint's stream went on after it: the waiting one did not get its turn at a lull.
    const arrived = waitingTarget.received[0]!.at;
    await expect.poll(() => busyTarget.received.filter((r) => r.at > arrived).length, POLL).toBeGreaterThan(0);
  } finally {
    streaming = false;
    await Promise.all(emits);
  }
}

describe('fallback poll', () => {
  it('delivers an event whose notification was lost within a poll interval', async () => {
    const polling = await server(300);
    const { organization } = await organizationFactory(polling, { name: 'Lost' });
    const target = await receiver();
    const endpoint = await webhookEndpointFactory(polling, organization.id, { url: `${target.url}/hook` });
    await insertSilently(polling, organization.id, endpoint.id);
    await expect.poll(() => target.received.length, POLL).toBe(1);
    await expect
      .poll(
        () =>
          polling.runtime.database.db
            .selectFrom('webhook_endpoint_events')
            .select('status')
            .where('endpoint_id', '=', endpoint.id)
            .executeTakeFirstOrThrow()
            .then((row) => row.status),
        POLL,
      )
      .toBe('delivered');
  });
});

describe('several workers', () => {
  it('keep each endpoint in order, one request at a time, through retries', { timeout: 120_000 }, async () => {
    const shared = await server(200);
    // Two more workers on the same database, next to the server's own.
    const extra = [0, 1].map(() => {
      const ctx = shared.runtime.context();
      return new WebhookDispatcher(ctx, ctx.transactions!, { concurrency: 3, pollIntervalMs: 200 });
    });
    for (const dispatcher of extra) await dispatcher.start(shared.runtime.database);
    try {
      const { organization } = await organizationFactory(shared, { name: 'Many' });
      const ENDPOINTS = 5;
      const EVENTS = 30;
      const targets = await Promise.all(Array.from({ length: ENDPOINTS }, () => receiver()));
      const inFlight = targets.map(() => 0);
      const overlaps = targets.map(() => 0);
      for (const [index, target] of targets.entries()) {
        let attempt = 0;
        target.respond = () => {
          inFlight[index]! += 1;
          if (inFlight[index]! > 1) overlaps[index]! += 1;
          const delayMs = 1 + ((attempt * 7) % 5);
          // Every fourth attempt fails: retried (50 ms later) before anything behind it goes.
          const status = attempt++ % 4 === 3 ? 500 : 200;
          setTimeout(() => (inFlight[index]! -= 1), delayMs);
          return { status, delayMs };
        };
        await webhookEndpointFactory(shared, organization.id, {
          url: `${target.url}/hook`,
          events: ['order.updated'],
        });
      }
      // Each event goes to every endpoint; four writers commit concurrently.
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < EVENTS) await emitWebhookEvent(shared, organization.id, 'order.updated', { n: next++ });
        }),
      );
      const endpointEvents = await shared.runtime.database.db
        .selectFrom('webhook_endpoint_events')
        .select(['id', 'endpoint_id', 'seq'])
        .where('organization_id', '=', organization.id)
        .orderBy('seq')
        .execute();
      expect(endpointEvents).toHaveLength(ENDPOINTS * EVENTS);
      const seqOf = new Map(endpointEvents.map((e) => [e.id, Number(e.seq)]));
      for (const target of targets) {
        await expect.poll(() => new Set(target.received.map((r) => r.headers['webhook-id'])).size, POLL).toBe(EVENTS);
      }
      await expect
        .poll(
          async () =>
            (
              await shared.runtime.database.db
                .selectFrom('webhook_endpoint_events')
                .select('status')
                .where('organization_id', '=', organization.id)
                .where('status', '<>', 'delivered')
                .execute()
            ).length,
          POLL,
        )
        .toBe(0);
      for (const target of targets) {
        const seqs = target.received.map((r) => seqOf.get(String(r.headers['webhook-id']))!);
        // Arrivals in commit order; a retried event repeats, never something behind it first.
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
        expect(seqs.length).toBeGreaterThan(EVENTS);
      }
      expect(overlaps).toEqual(targets.map(() => 0));
    } finally {
      for (const dispatcher of extra) await dispatcher.stop();
    }
  });
});
