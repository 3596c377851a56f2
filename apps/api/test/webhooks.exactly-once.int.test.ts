import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../src/modules/webhooks/webhooks.dispatcher.js';
import { systemClock } from '../src/platform/clock.js';
import { organizationFactory, tokenFactory } from './factories/organizations.js';
import { emitWebhookEvent, WebhookReceiver, webhookEndpointFactory } from './factories/webhooks.js';
import { bearer, startTestServer, type TestServer } from './harness.js';

/**
 * One send per attempt: deliveries and redeliveries driven the way the settings page drives them (an
 * endpoint on a loopback receiver, an event, a redelivery through the API once the log shows the
 * delivery, and redeliveries asked while the first attempt may still be in flight), with three
 * dispatchers on one database (the server's and two more, as an API node and a worker would run)
 * and the poll at 20 ms so the sweep races every notification. The receiver counts the requests of
 * each `webhook-id`; the delivery log must hold exactly one row per request, and each endpoint sees
 * its events first arrive in commit order. WEBHOOK_EXACTLY_ONCE_ROUNDS repeats the run (loops under
 * load).
 */
const ROUNDS = Number(process.env.WEBHOOK_EXACTLY_ONCE_ROUNDS ?? 1);
const ENDPOINTS = 4;
const EVENTS = 12;
const POLL = { timeout: 30_000, interval: 10 };

let server: TestServer;
const dispatchers: WebhookDispatcher[] = [];
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  server = await startTestServer({ clock: systemClock, config: { webhookPollIntervalMs: 20 } });
  for (let i = 0; i < 2; i += 1) {
    const ctx = server.runtime.context();
    const dispatcher = new WebhookDispatcher(ctx, ctx.transactions!, { concurrency: 2, pollIntervalMs: 20 });
    await dispatcher.start(server.runtime.database);
    dispatchers.push(dispatcher);
  }
});

afterAll(async () => {
  for (const dispatcher of dispatchers) await dispatcher.stop();
  await server?.stop();
  await Promise.all(receivers.map((r) => r.stop()));
});

async function logRowsByEvent(endpointId: string): Promise<Map<string, number>> {
  const rows = await server.runtime.database.db
    .selectFrom('webhook_deliveries')
    .select(['endpoint_event_id'])
    .where('endpoint_id', '=', endpointId)
    .execute();
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.endpoint_event_id, (counts.get(row.endpoint_event_id) ?? 0) + 1);
  return counts;
}

/** Nothing pending and no lease held: no worker is sending, or can start sending, to these endpoints. */
async function quiet(endpointIds: string[]): Promise<boolean> {
  const db = server.runtime.database.db;
  const pending = await db
    .selectFrom('webhook_endpoint_events')
    .select('id')
    .where('endpoint_id', 'in', endpointIds)
    .where('status', '<>', 'delivered')
    .execute();
  const leased = await db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('id', 'in', endpointIds)
    .where('delivery_token', 'is not', null)
    .execute();
  return pending.length === 0 && leased.length === 0;
}

function sendsById(receiver: WebhookReceiver): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of receiver.received) {
    const id = String(request.headers['webhook-id']);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

describe('delivery and redelivery', () => {
  for (let round = 1; round <= ROUNDS; round += 1) {
    it(
      `sends each attempt once, logs each send once, in order per endpoint (round ${round})`,
      {
        timeout: 120_000,
      },
      async () => {
        // One organization per endpoint: each event goes to one endpoint.
        const organizations: { id: string; token: string }[] = [];
        for (let i = 0; i < ENDPOINTS; i += 1) {
          const { organization } = await organizationFactory(server, { name: `Once ${round}.${i}` });
          organizations.push({
            id: organization.id,
            token: await tokenFactory(server, organization.id, ['webhooks:read', 'webhooks:write']),
          });
        }
        const redeliver = async (token: string, id: string) => {
          const response = await server.inject({
            method: 'POST',
            url: `/v1/webhooks/events/${id}/redeliver`,
            headers: bearer(token),
          });
          expect(response.statusCode).toBe(202);
        };
        const targets = await Promise.all(Array.from({ length: ENDPOINTS }, () => new WebhookReceiver().start()));
        receivers.push(...targets);
        const endpoints: { id: string }[] = [];
        for (const [index, target] of targets.entries()) {
          endpoints.push(
            await webhookEndpointFactory(server, organizations[index]!.id, {
              url: `${target.url}/hooks/tessera`,
              events: ['product.created'],
            }),
          );
        }
        const endpointIds = endpoints.map((e) => e.id);
        const db = server.runtime.database.db;
        // Redeliveries asked while the first attempt may be in flight: one or two sends, never more.
        const early = new Set<string>();
        // Redeliveries asked once the log shows the delivery (the settings page's case): exactly two.
        const late = new Set<string>();

        // The endpoints proceed concurrently; within one, an event, then its redelivery.
        await Promise.all(
          endpoints.map(async (endpoint, index) => {
            const { id: organizationId, token } = organizations[index]!;
            for (let n = 0; n < EVENTS; n += 1) {
              await emitWebhookEvent(server, organizationId, 'product.created', { endpoint: index, n });
              const event = await db
                .selectFrom('webhook_endpoint_events')
                .select('id')
                .where('endpoint_id', '=', endpoint.id)
                .orderBy('seq', 'desc')
                .limit(1)
                .executeTakeFirstOrThrow();
              if (n % 3 === 0) {
                await redeliver(token, event.id);
                early.add(event.id);
                continue;
              }
              await expect.poll(async () => (await logRowsByEvent(endpoint.id)).get(event.id) ?? 0, POLL).toBe(1);
              if (n % 3 === 1) {
                await redeliver(token, event.id);
                late.add(event.id);
              }
            }
          }),
        );
        await expect.poll(() => quiet(endpointIds), POLL).toBe(true);

        const seqOf = new Map(
          (
            await db
              .selectFrom('webhook_endpoint_events')
              .select(['id', 'seq'])
              .where('endpoint_id', 'in', endpointIds)
              .execute()
          ).map((row) => [row.id, Number(row.seq)]),
        );
        expect(seqOf.size).toBe(ENDPOINTS * EVENTS);
        for (const [index, target] of targets.entries()) {
          const sends = sendsById(target);
          const logged = await logRowsByEvent(endpoints[index]!.id);
          expect(Object.fromEntries(sends)).toEqual(Object.fromEntries(logged));
          expect(sends.size).toBe(EVENTS);
          for (const [id, count] of sends) {
            if (late.has(id)) expect(count, `a redelivery asked after the delivery: ${id}`).toBe(2);
            else if (early.has(id)) expect(count).toBeLessThanOrEqual(2);
            else expect(count, `an event never redelivered: ${id}`).toBe(1);
          }
          // First arrivals in commit order.
          const firsts: number[] = [];
          for (const request of target.received) {
            const seq = seqOf.get(String(request.headers['webhook-id']))!;
            if (!firsts.includes(seq)) firsts.push(seq);
          }
          expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
        }
      },
    );
  }
});
