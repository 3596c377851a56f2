import { validateEvent, WebhookVerificationError } from '@polar-sh/sdk/webhooks';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { systemClock } from '../src/platform/clock.js';
import { beforeCommit } from '../src/platform/db/commit-hooks.js';
import { recordWebhookEvent } from '../src/platform/events.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { userFactory } from './factories/users.js';
import {
  emitWebhookEvent,
  plainHeaders,
  WebhookReceiver,
  webhookEndpointFactory,
  type ReceivedWebhook,
} from './factories/webhooks.js';
import { bearer, json, startTestServer, type TestServer, usingServerDatabase } from './harness.js';

/**
 * Delivery to a real HTTP receiver on 127.0.0.1: Standard Webhooks signatures checked with both the
 * official SDK's `validateEvent` and the `standardwebhooks` library, retries, FIFO order, disabling,
 * redelivery and the delivery log. Retry delays are a fraction of a second through configuration.
 */
let server: TestServer;
let acme: OrganizationFixture;
const receivers: WebhookReceiver[] = [];
const POLL = { timeout: 20_000, interval: 50 };
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

beforeAll(async () => {
  server = await startTestServer({
    clock: systemClock,
    config: {
      webhookRetrySchedule: [0.2, 0.2, 0.2, 0.2, 0.2, 0.2],
      webhookRetryJitter: 0,
      webhookDisableAfterFailures: 4,
    },
  });
  acme = await organizationFactory(server, { name: 'Acme' });
});
afterAll(async () => {
  await server?.stop();
  await Promise.all(receivers.map((r) => r.stop()));
});

async function receiver(): Promise<WebhookReceiver> {
  const started = await new WebhookReceiver().start();
  receivers.push(started);
  return started;
}

/** A fresh organization with one endpoint pointing at a fresh receiver. */
async function setup(overrides: Record<string, unknown> = {}) {
  const org = await organizationFactory(server, { name: 'Webhook Org' });
  const target = await receiver();
  const endpoint = await webhookEndpointFactory(server, org.organization.id, {
    url: `${target.url}/hook`,
    secret: SECRET,
    ...overrides,
  });
  return { org, target, endpoint };
}

/** Both verifiers accept the signature; `validateEvent` returns the parsed event. */
function verifyBoth(request: ReceivedWebhook, secret = SECRET) {
  const headers = plainHeaders(request.headers);
  new Webhook(Buffer.from(secret, 'utf8').toString('base64')).verify(request.body, headers);
  return validateEvent(request.body, headers, secret);
}

/**
 * For synthetic events whose data is not a full SDK model: `validateEvent` checks the signature first,
 * so any error it raises must be the schema's, never `WebhookVerificationError`.
 */
function verifySignatureBoth(request: ReceivedWebhook, secret = SECRET) {
  const headers = plainHeaders(request.headers);
  new Webhook(Buffer.from(secret, 'utf8').toString('base64')).verify(request.body, headers);
  try {
    validateEvent(request.body, headers, secret);
  } catch (error) {
    expect(error).not.toBeInstanceOf(WebhookVerificationError);
  }
}

const endpointEvents = (endpointId: string) =>
  server.runtime.database.db
    .selectFrom('webhook_endpoint_events')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .orderBy('seq')
    .execute();

const endpointRow = (id: string) =>
  server.runtime.database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('signed delivery', () => {
  it('sends the stored event bytes, signed, to a subscribed endpoint; both verifiers accept it', async () => {
    const { org, target, endpoint } = await setup();
    const created = await server.inject({
      method: 'POST',
      url: '/v1/customers/',
      headers: bearer(org.token),
      payload: { email: 'ada@example.com', name: 'Ada' },
    });
    expect(created.statusCode).toBe(201);
    await expect.poll(() => target.received.length, POLL).toBeGreaterThanOrEqual(2);

    const rows = await endpointEvents(endpoint.id);
    expect(rows.map((r) => r.type)).toEqual(['customer.created', 'customer.state_changed']);
    for (const [index, request] of target.received.entries()) {
      const row = rows[index]!;
      expect(request.body).toBe(row.payload);
      expect(request.headers['webhook-id']).toBe(row.id);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toMatch(/Tessera/);
      expect(Number(request.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      new Webhook(Buffer.from(SECRET, 'utf8').toString('base64')).verify(request.body, plainHeaders(request.headers));
    }
    const event = verifyBoth(target.ofType('customer.created')[0]!);
    expect(event.type).toBe('customer.created');
    expect((event.data as { email: string }).email).toBe('ada@example.com');
    // The payload is the customer exactly as the API serializes it.
    expect(JSON.parse(target.received[0]!.body).data).toEqual(json(created));

    await expect
      .poll(async () => (await endpointEvents(endpoint.id)).map((r) => r.status), POLL)
      .toEqual(['delivered', 'delivered']);
  });

  it('rejects a tampered body or a wrong secret (the signature covers id, timestamp and body)', async () => {
    const { org, target } = await setup();
    await emitWebhookEvent(server, org.organization.id, 'organization.updated', { id: org.organization.id });
    await expect.poll(() => target.received.length, POLL).toBe(1);
    const request = target.received[0]!;
    const hook = new Webhook(Buffer.from(SECRET, 'utf8').toString('base64'));
    expect(() => hook.verify(request.body + ' ', plainHeaders(request.headers))).toThrow();
    const wrong = new Webhook(Buffer.from('whsec_other', 'utf8').toString('base64'));
    expect(() => wrong.verify(request.body, plainHeaders(request.headers))).toThrow();
  });

  it('sends only subscribed types, and nothing to deleted or other organizations’ endpoints', async () => {
    const { org, target, endpoint } = await setup({ events: ['product.created'] });
    const deleted = await receiver();
    const gone = await webhookEndpointFactory(server, org.organization.id, { url: deleted.url });
    await server.inject({ method: 'DELETE', url: `/v1/webhooks/endpoints/${gone.id}`, headers: bearer(org.token) });
    await emitWebhookEvent(server, org.organization.id, 'customer.updated', { id: 'x' });
    await emitWebhookEvent(server, acme.organization.id, 'product.created', { id: 'other-org' });
    await emitWebhookEvent(server, org.organization.id, 'product.created', { id: 'mine' });
    await expect.poll(() => target.received.length, POLL).toBe(1);
    expect(JSON.parse(target.received[0]!.body)).toEqual({ type: 'product.created', data: { id: 'mine' } });
    expect(deleted.received).toHaveLength(0);
    expect((await endpointEvents(endpoint.id)).map((r) => r.type)).toEqual(['product.created']);
  });
});

describe('retries', () => {
  it('retries a failing receiver with the same webhook-id until it succeeds', async () => {
    const { org, target, endpoint } = await setup();
    target.respond = (_request, index) => (index < 2 ? { status: 500, body: 'boom' } : { status: 204 });
    await emitWebhookEvent(server, org.organization.id, 'product.created', { id: 'p1' });
    await expect.poll(() => target.received.length, POLL).toBe(3);
    const ids = new Set(target.received.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const request of target.received) verifySignatureBoth(request);
    // Backoff: each retry waited at least the configured delay.
    expect(target.received[1]!.at - target.received[0]!.at).toBeGreaterThanOrEqual(150);

    await expect.poll(async () => (await endpointEvents(endpoint.id))[0]!.status, POLL).toBe('delivered');
    const [row] = await endpointEvents(endpoint.id);
    expect(row).toMatchObject({ attempts: 3, succeeded: true, last_http_code: 204 });
    expect(await endpointRow(endpoint.id)).toMatchObject({
      enabled: true,
      consecutive_failures: 0,
      failing_since: null,
    });
  });

  it('keeps per-endpoint FIFO order: a later event waits while an earlier one is retried', async () => {
    const { org, target } = await setup();
    target.respond = (request) =>
      JSON.parse(request.body).data.n === 1 &&
      target.received.filter((r) => JSON.parse(r.body).data.n === 1).length <= 2
        ? { status: 503 }
        : { status: 200 };
    for (const n of [1, 2, 3, 4]) await emitWebhookEvent(server, org.organization.id, 'order.updated', { n });
    await expect.poll(() => target.received.filter((r) => r.headers['webhook-id']).length, POLL).toBe(6);
    const order = target.received.map((r) => JSON.parse(r.body).data.n as number);
    expect(order).toEqual([1, 1, 1, 2, 3, 4]);
  });

  it('disables the endpoint at once on HTTP 410, tells the organization, and resumes when re-enabled', async () => {
    const { org, target, endpoint } = await setup();
    await server.runtime.database.db
      .updateTable('organizations')
      .set({ email: 'billing@example.com' })
      .where('id', '=', org.organization.id)
      .execute();
    target.respond = () => ({ status: 410, body: 'gone' });
    await emitWebhookEvent(server, org.organization.id, 'order.created', { n: 1 });
    await expect.poll(async () => (await endpointRow(endpoint.id)).enabled, POLL).toBe(false);
    expect(target.received).toHaveLength(1);
    expect((await endpointRow(endpoint.id)).disabled_reason).toBe('gone');
    const read = await server.inject({
      method: 'GET',
      url: `/v1/webhooks/endpoints/${endpoint.id}`,
      headers: bearer(org.token),
    });
    expect(json(read).enabled).toBe(false);

    const emails = await server.runtime.database.db
      .selectFrom('emails')
      .selectAll()
      .where('organization_id', '=', org.organization.id)
      .execute();
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ template: 'webhook_endpoint_disabled', to_addresses: ['billing@example.com'] });
    expect(emails[0]!.subject).toContain(endpoint.url);
    expect(emails[0]!.text_body).toContain('410');

    // Disabled: new events are not queued for it; the pending one waits.
    await emitWebhookEvent(server, org.organization.id, 'order.created', { n: 2 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(target.received).toHaveLength(1);

    target.respond = () => ({ status: 200 });
    const enabled = await server.inject({
      method: 'PATCH',
      url: `/v1/webhooks/endpoints/${endpoint.id}`,
      headers: bearer(org.token),
      payload: { enabled: true },
    });
    expect(json(enabled).enabled).toBe(true);
    await expect.poll(() => target.received.length, POLL).toBe(2);
    expect(target.received[1]!.headers['webhook-id']).toBe(target.received[0]!.headers['webhook-id']);
    expect(JSON.parse(target.received[1]!.body).data.n).toBe(1);
  });

  it('disables an endpoint that keeps failing past the threshold and writes the email to members', async () => {
    const { org, target, endpoint } = await setup();
    const member = await userFactory(server);
    await server.runtime.database.db
      .insertInto('user_organizations')
      .values({ user_id: member.id, organization_id: org.organization.id, created_at: new Date() })
      .execute();
    target.respond = () => ({ status: 500 });
    await emitWebhookEvent(server, org.organization.id, 'order.created', { n: 1 });
    await expect.poll(async () => (await endpointRow(endpoint.id)).enabled, POLL).toBe(false);
    expect(target.received).toHaveLength(4);
    expect(await endpointRow(endpoint.id)).toMatchObject({ disabled_reason: 'failing', consecutive_failures: 4 });
    const [email] = await server.runtime.database.db
      .selectFrom('emails')
      .selectAll()
      .where('organization_id', '=', org.organization.id)
      .execute();
    expect(email?.text_body).toContain('failed continuously');
    expect(email?.to_addresses).toEqual([member.email]);
  });
});

describe('secret rotation', () => {
  const rotate = async (org: OrganizationFixture, id: string): Promise<string> => {
    const response = await server.inject({
      method: 'PATCH',
      url: `/v1/webhooks/endpoints/${id}/secret`,
      headers: bearer(org.token),
    });
    expect(response.statusCode).toBe(200);
    return json(response).secret;
  };

  it('signs every attempt after the rotation with the new secret, retries of earlier events included', async () => {
    const { org, target, endpoint } = await setup();
    // The first attempt is held in flight while the secret rotates, then fails.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    target.respond = (_request, index) => (index === 0 ? { status: 500, after: held } : { status: 200 });
    await emitWebhookEvent(server, org.organization.id, 'product.created', { id: 'p1' });
    await expect.poll(() => target.received.length, POLL).toBe(1);
    const secret = await rotate(org, endpoint.id);
    release();
    await expect.poll(() => target.received.length, POLL).toBe(2);
    await emitWebhookEvent(server, org.organization.id, 'product.updated', { id: 'p1' });
    await expect.poll(() => target.received.length, POLL).toBe(3);

    const [inFlight, retry, later] = target.received as [ReceivedWebhook, ReceivedWebhook, ReceivedWebhook];
    // The attempt already sent carries the old signature; its retry, the same webhook-id, the new one.
    verifySignatureBoth(inFlight, SECRET);
    expect(retry.headers['webhook-id']).toBe(inFlight.headers['webhook-id']);
    verifySignatureBoth(retry, secret);
    verifySignatureBoth(later, secret);
    const old = new Webhook(Buffer.from(SECRET, 'utf8').toString('base64'));
    for (const request of [retry, later])
      expect(() => old.verify(request.body, plainHeaders(request.headers))).toThrow();
  });
});

describe('no transaction during the HTTP call', () => {
  // The stall this guards against is the embedded database's (a transaction holds every connection's
  // turn); on a server a transaction holds one connection, and load timing there only adds noise.
  it.skipIf(usingServerDatabase())(
    'answers other requests promptly while a receiver holds its response for 5 s',
    async () => {
      const { org, target, endpoint } = await setup();
      target.respond = (_request, index) => (index === 0 ? { status: 200, delayMs: 5_000 } : { status: 200 });
      await emitWebhookEvent(server, org.organization.id, 'order.updated', { n: 1 });
      await expect.poll(() => target.received.length, POLL).toBe(1);

      // The POST is in flight: the endpoint is leased, and the database is free for everybody else.
      const leased = await endpointRow(endpoint.id);
      expect(leased.delivery_token).not.toBeNull();
      expect(leased.delivering_until!.getTime()).toBeGreaterThan(Date.now());
      const timings: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const read = await server.inject({
          method: 'GET',
          url: `/v1/organizations/${org.organization.id}`,
          headers: bearer(org.token),
        });
        timings.push(performance.now() - started);
        expect(read.statusCode).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      // A write that commits an event for the same (busy) endpoint is prompt too, and waits its turn.
      const started = performance.now();
      await emitWebhookEvent(server, org.organization.id, 'order.updated', { n: 2 });
      timings.push(performance.now() - started);
      expect(target.received).toHaveLength(1);
      // Half the hold: generous for a loaded machine, still far from waiting on the receiver.
      expect(Math.max(...timings)).toBeLessThan(2_500);

      await expect
        .poll(async () => (await endpointEvents(endpoint.id)).map((r) => r.status), POLL)
        .toEqual(['delivered', 'delivered']);
      expect(target.received.map((r) => JSON.parse(r.body).data.n)).toEqual([1, 2]);
      expect(target.received[1]!.at - target.received[0]!.at).toBeGreaterThanOrEqual(4_900);
      expect(await endpointRow(endpoint.id)).toMatchObject({ delivery_token: null, delivering_until: null });
    },
  );

  it('takes over an endpoint whose lease expired with events nobody is working (the poll)', async () => {
    const { org, target, endpoint } = await setup();
    // As if a worker died mid-attempt: its lease is live for another second and a half.
    const lease = { delivery_token: randomUUID(), delivering_until: new Date(Date.now() + 1_500) };
    await server.runtime.database.db
      .updateTable('webhook_endpoints')
      .set(lease)
      .where('id', '=', endpoint.id)
      .execute();
    await emitWebhookEvent(server, org.organization.id, 'order.updated', { n: 1 });
    // The notification found the endpoint leased and left it to the lease holder.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(target.received).toHaveLength(0);
    expect((await endpointRow(endpoint.id)).delivery_token).toBe(lease.delivery_token);

    // Once the lease has expired, the worker's poll finds the endpoint and delivers.
    await expect.poll(() => target.received.length, POLL).toBe(1);
    expect(target.received[0]!.at).toBeGreaterThanOrEqual(lease.delivering_until.getTime());
    await expect.poll(async () => (await endpointEvents(endpoint.id))[0]!.status, POLL).toBe('delivered');
    await expect.poll(async () => (await endpointRow(endpoint.id)).delivery_token, POLL).toBeNull();
  });
});

describe('delivery log and redelivery', () => {
  it('lists attempts newest first with the truncated response, and redelivers with the same webhook-id', async () => {
    const { org, target, endpoint } = await setup();
    target.respond = (_request, index) =>
      index === 0 ? { status: 500, body: 'x'.repeat(5000) } : { status: 200, body: 'ok' };
    await emitWebhookEvent(server, org.organization.id, 'refund.created', { id: 'r1' });
    await expect.poll(() => target.received.length, POLL).toBe(2);
    await expect.poll(async () => (await endpointEvents(endpoint.id))[0]!.status, POLL).toBe('delivered');

    const log = await server.inject({
      method: 'GET',
      url: `/v1/webhooks/deliveries?endpoint_id=${endpoint.id}`,
      headers: bearer(org.token),
    });
    expect(log.statusCode).toBe(200);
    const body = json(log);
    expect(body.pagination).toEqual({ total_count: 2, max_page: 1 });
    const [latest, first] = body.items;
    expect(latest).toMatchObject({ http_code: 200, succeeded: true, response: 'ok' });
    expect(first).toMatchObject({ http_code: 500, succeeded: false });
    expect(first.response).toHaveLength(2048);
    expect(latest.webhook_event).toMatchObject({
      id: target.received[0]!.headers['webhook-id'],
      last_http_code: 200,
      succeeded: true,
      payload: target.received[0]!.body,
    });

    const redeliver = await server.inject({
      method: 'POST',
      url: `/v1/webhooks/events/${latest.webhook_event.id}/redeliver`,
      headers: bearer(org.token),
    });
    expect(redeliver.statusCode).toBe(202);
    expect(json(redeliver)).toEqual({});
    await expect.poll(() => target.received.length, POLL).toBe(3);
    expect(target.received[2]!.headers['webhook-id']).toBe(latest.webhook_event.id);
    expect(target.received[2]!.body).toBe(target.received[0]!.body);
    verifySignatureBoth(target.received[2]!);

    // Another organization sees neither the log nor the event.
    const foreign = await server.inject({
      method: 'POST',
      url: `/v1/webhooks/events/${latest.webhook_event.id}/redeliver`,
      headers: bearer(acme.token),
    });
    expect(foreign.statusCode).toBe(404);
    const foreignLog = await server.inject({
      method: 'GET',
      url: `/v1/webhooks/deliveries?endpoint_id=${endpoint.id}`,
      headers: bearer(acme.token),
    });
    expect(json(foreignLog).items).toEqual([]);
  });
});

describe('delivery log size', () => {
  it('keeps at most 2 KiB of a response body, never half a character', async () => {
    const { org, target, endpoint } = await setup();
    target.respond = () => ({ status: 200, body: 'é'.repeat(3000) });
    await emitWebhookEvent(server, org.organization.id, 'refund.created', { id: 'r1' });
    await expect.poll(async () => (await endpointEvents(endpoint.id))[0]?.status, POLL).toBe('delivered');
    const [delivery] = await server.runtime.database.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('endpoint_id', '=', endpoint.id)
      .execute();
    expect(Buffer.byteLength(delivery!.response!, 'utf8')).toBe(2048);
    expect(delivery!.response).toBe('é'.repeat(1024));
  });
});

describe('chat formats', () => {
  it.each(['discord', 'slack'] as const)('sends a readable, signed %s message', async (format) => {
    const { org, target } = await setup({ format });
    await emitWebhookEvent(server, org.organization.id, 'order.paid', {
      id: 'o1',
      status: 'paid',
      total_amount: 4200,
      currency: 'usd',
      customer: { email: 'ada@example.com' },
      product: { name: 'Pro Plan' },
    });
    await expect.poll(() => target.received.length, POLL).toBe(1);
    const request = target.received[0]!;
    new Webhook(Buffer.from(SECRET, 'utf8').toString('base64')).verify(request.body, plainHeaders(request.headers));
    const message = JSON.parse(request.body);
    if (format === 'discord') expect(message.embeds[0].title).toBe('Order Paid');
    else expect(message.blocks[0].text.text).toBe('Order Paid');
    for (const fact of ['$42.00', 'ada@example.com', 'Pro Plan', 'Webhook Org']) expect(request.body).toContain(fact);
  });
});

describe('test clock', () => {
  it('delivers at once after the organization’s clock moved: delivery runs on the server’s clock', async () => {
    const { org, target, endpoint } = await setup({ events: ['customer.created'] });
    const advanced = await server.inject({
      method: 'POST',
      url: '/v1/test-clock/advance',
      headers: bearer(org.token),
      payload: { days: 40 },
    });
    expect(advanced.statusCode).toBe(200);
    const created = await server.inject({
      method: 'POST',
      url: '/v1/customers/',
      headers: bearer(org.token),
      payload: { email: 'later@example.com', name: 'Later' },
    });
    expect(created.statusCode).toBe(201);
    await expect.poll(() => target.received.length, POLL).toBe(1);
    verifySignatureBoth(target.received[0]!);
    // The signature timestamp is the server's (receivers reject stale or future ones); the customer's
    // own `created_at` is on the organization's clock, 40 days ahead.
    expect(Number(target.received[0]!.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
    const data = JSON.parse(target.received[0]!.body).data as { created_at: string };
    expect(new Date(data.created_at).getTime() - Date.now()).toBeGreaterThan(39 * 86_400_000);
    const [row] = await endpointEvents(endpoint.id);
    expect(row).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('an event queued weeks ahead by earlier versions (never attempted) no longer blocks its endpoint', async () => {
    const { org, target, endpoint } = await setup({ events: ['customer.created'] });
    // As earlier versions left it: the row due on the organization's clock, 40 days ahead.
    await server.runtime.database.db.transaction().execute(async (tx) => {
      await recordWebhookEvent(server.runtime.context(tx), org.organization.id, 'customer.created', { n: 1 });
      // After the event is stored, as the transaction commits.
      await beforeCommit(tx, 'test.far-ahead', 100, async () => {
        await tx
          .updateTable('webhook_endpoint_events')
          .set({ next_attempt_at: new Date(Date.now() + 40 * 86_400_000) })
          .where('endpoint_id', '=', endpoint.id)
          .execute();
      });
    });
    await emitWebhookEvent(server, org.organization.id, 'customer.created', { n: 2 });
    await expect.poll(() => target.received.length, POLL).toBe(2);
    expect(target.received.map((r) => JSON.parse(r.body).data.n)).toEqual([1, 2]);
  });

  it('a redelivery asked on the organization’s clock is due at once', async () => {
    const { org, target, endpoint } = await setup({ events: ['customer.created'] });
    await emitWebhookEvent(server, org.organization.id, 'customer.created', { id: 'c1' });
    await expect.poll(() => target.received.length, POLL).toBe(1);
    await expect.poll(async () => (await endpointEvents(endpoint.id))[0]!.status, POLL).toBe('delivered');
    await server.inject({
      method: 'POST',
      url: '/v1/test-clock/advance',
      headers: bearer(org.token),
      payload: { days: 40 },
    });
    const [row] = await endpointEvents(endpoint.id);
    const redeliver = await server.inject({
      method: 'POST',
      url: `/v1/webhooks/events/${row!.id}/redeliver`,
      headers: bearer(org.token),
    });
    expect(redeliver.statusCode).toBe(202);
    await expect.poll(() => target.received.length, POLL).toBe(2);
  });
});
