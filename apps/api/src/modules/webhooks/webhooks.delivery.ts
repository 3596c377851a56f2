import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import type { Executor } from '../../platform/db/database.js';
import { queueEmail } from '../../platform/mail/outbox.js';
import { serverClock } from '../../platform/test-clock.js';
import type { WebhookEventType } from './webhooks.event-types.js';
import { renderBody } from './webhooks.formats.js';
import {
  claimEndpointEvents,
  insertDeliveries,
  insertEndpointEvents,
  insertEventsFindingEndpoints,
  lockEndpointForUpdate,
  markEventsDelivered,
  notifyDelivery,
  organizationRecipients,
  recordDelivered,
  releaseEndpointLease,
  updateAttemptedEvent,
  updateEndpointRow,
  waitForEventWriters,
  type DeliveryEndpoint,
  type WebhookEndpointEventRow,
  type WebhookEndpointRow,
} from './webhooks.repository.js';
import type { SendResult } from './webhooks.sender.js';

/**
 * Delivery. Every business event becomes one row per subscribed endpoint (`webhook_endpoint_events`,
 * whose id is the `webhook-id`), written with the change itself, together with a `pg_notify` on
 * WAKE_CHANNEL naming the endpoint: the notification is delivered when that transaction commits, and
 * wakes the delivery workers (webhooks.dispatcher.ts) at once; they also look for due work every
 * poll interval, in case a notification was lost.
 *
 * A worker works an endpoint's queue in order under the endpoint's delivery lease (a token and an
 * expiry on the endpoint row, taken only when free or expired, so two workers never deliver to one
 * endpoint at once). It takes a batch of the oldest pending events that are due (head of line first),
 * sends them one after the other — the next never starts before the previous one succeeded — and
 * stops the batch at the first failure, so a later event never overtakes an earlier one.
 *
 * No transaction is open during the HTTP calls: each batch is (a) a short transaction that waits for
 * the endpoint's event writers in flight, renews the lease and reads the batch, (b) the POSTs, (c) one statement that records every attempt and marks the events
 * delivered (a batch with a failure: a short transaction that also reschedules or gives up the failed
 * event under the endpoint's lock). State lives in the database: a worker that dies mid-batch leaves
 * its events pending with the same ids and a lease that expires; a worker then takes the endpoint over
 * and sends them again with the same `webhook-id`.
 */

/** The channel whose notifications wake the delivery workers (payload: an endpoint id, or empty). */
export const WAKE_CHANNEL = 'tessera_webhooks';
/** At most this many events are sent per batch (one pair of short transactions). */
export const BATCH_SIZE = 50;
/** A lease outlives the attempt timeout by this much (the commits around the POST, a busy database). */
export const LEASE_MARGIN_MS = 5_000;

/**
 * Delivery is scheduled on the server's real clock, never on an organization's test clock: the sender
 * compares `next_attempt_at` with the time it really is, so an event due on a clock moved 40 days ahead
 * would wait 40 real days and hold up everything behind it. The event itself (its `created_at`, the
 * `timestamp` of the chat and envelope formats, the resource dates in `data`) stays on the
 * organization's clock, so what a receiver sees agrees with what the API answers for that organization;
 * the `webhook-timestamp` header is the server's time of the attempt, as signature checks require.
 */
export function deliveryNow(ctx: Pick<Context, 'clock'>): Date {
  return serverClock(ctx.clock).now();
}

/** Wakes the delivery workers for an endpoint when the caller's transaction commits. */
export async function wakeDelivery(ctx: Context, endpointId: string): Promise<void> {
  await notifyDelivery(ctx.db, WAKE_CHANNEL, [endpointId]);
}

export interface FanOutInput {
  eventId: string;
  organizationId: string;
  type: WebhookEventType;
  data: unknown;
  /** The stored `{type, data}` JSON, sent byte for byte to raw endpoints. */
  payload: string;
  createdAt: Date;
  /** When its deliveries are due (deliveryNow when it was recorded). */
  due: Date;
}

/**
 * Stores events, in order, with one per-endpoint event for every endpoint subscribed to each (in the
 * events' order, then the endpoints'), and a wake-up on commit: three statements for any number of
 * events. The per-endpoint events' `seq` follows that order, which is the order they are delivered in.
 */
export async function storeWebhookEvents(db: Executor, events: readonly FanOutInput[]): Promise<void> {
  // A chunk of events is one statement: 5 parameters an event stay well under PostgreSQL's 65,535.
  for (let start = 0; start < events.length; start += STORE_CHUNK) {
    await storeChunk(db, events.slice(start, start + STORE_CHUNK));
  }
}

const STORE_CHUNK = 1_000;

async function storeChunk(db: Executor, events: readonly FanOutInput[]): Promise<void> {
  if (events.length === 0) return;
  const endpoints = await insertEventsFindingEndpoints(
    db,
    events.map((event) => ({
      id: event.eventId,
      created_at: event.createdAt,
      organization_id: event.organizationId,
      type: event.type,
      payload: event.payload,
    })),
  );
  if (endpoints.length === 0) return;
  const rows = [];
  for (const event of events) {
    for (const endpoint of endpoints) {
      if (endpoint.organization_id !== event.organizationId || !endpoint.events.includes(event.type)) continue;
      const body = renderBody(endpoint.format, event.payload, {
        type: event.type,
        data: event.data,
        organizationName: endpoint.organization_name,
        timestamp: event.createdAt.toISOString(),
      });
      if (body === undefined) continue;
      rows.push({
        id: randomUUID(),
        created_at: event.createdAt,
        modified_at: null,
        organization_id: event.organizationId,
        endpoint_id: endpoint.id,
        event_id: event.eventId,
        type: event.type,
        payload: event.payload,
        body: endpoint.format === 'raw' ? null : body,
        status: 'pending' as const,
        next_attempt_at: event.due,
        last_http_code: null,
        succeeded: null,
      });
    }
  }
  await insertEndpointEvents(db, rows);
  await notifyDelivery(
    db,
    WAKE_CHANNEL,
    rows.map((row) => row.endpoint_id),
  );
}

/** The delay before retry number `attempt` (1-based), jittered; undefined when retries are exhausted. */
export function retryDelaySeconds(schedule: number[], jitter: number, attempt: number, random = Math.random) {
  const base = schedule[attempt - 1];
  if (base === undefined) return undefined;
  return base * (1 + jitter * random());
}

/** A batch to send: the endpoint (under this worker's lease) and its due events, in order. */
export interface DeliveryBatch {
  endpoint: DeliveryEndpoint;
  events: WebhookEndpointEventRow[];
}

/**
 * Renews the endpoint's lease for `lease` and reads the batch: its oldest pending events up to the
 * first one that is not due (a retry waiting for its time holds everything behind it). With nothing
 * due it gives the lease back and answers when the head will be due (null: the queue is empty), or
 * undefined when the endpoint is gone, disabled, or leased by another live worker. In the caller's
 * transaction: it first waits for the transactions writing events for the endpoint
 * (waitForEventWriters, which keeps `seq` order), then takes the lease and reads the events in one
 * statement; an event committed after it is found by the next claim, or by the look the dispatcher
 * takes when the lane ends.
 */
export async function claimBatch(
  ctx: Context,
  endpointId: string,
  lease: string,
): Promise<DeliveryBatch | { dueAt: Date | null } | undefined> {
  const now = deliveryNow(ctx);
  const until = new Date(now.getTime() + ctx.config.webhookTimeoutMs + LEASE_MARGIN_MS);
  await waitForEventWriters(ctx.db, endpointId);
  const claimed = await claimEndpointEvents(ctx.db, { id: endpointId, token: lease, now, until, limit: BATCH_SIZE });
  if (!claimed) return undefined;
  const events: WebhookEndpointEventRow[] = [];
  for (const event of claimed.events) {
    // An event never attempted is due at once: only a retry waits. (Earlier versions queued events on
    // the organization's test clock, weeks ahead; such a row would otherwise hold its endpoint's queue.)
    const dueAt = event.attempts > 0 ? event.next_attempt_at : null;
    if (dueAt && dueAt > now) {
      if (events.length > 0) break;
      await releaseEndpointLease(ctx.db, endpointId, lease);
      return { dueAt };
    }
    events.push(event);
  }
  if (events.length > 0) return { endpoint: claimed.endpoint, events };
  await releaseEndpointLease(ctx.db, endpointId, lease);
  return { dueAt: null };
}

/** One attempt of a batch: the event as it was read, and what the POST answered. */
export interface Attempt {
  event: WebhookEndpointEventRow;
  result: SendResult;
}

/**
 * Records a batch whose attempts all succeeded (the usual case) in one statement with no transaction
 * around it (recordDelivered); a batch with a failure, or for an endpoint in a failure run, goes through
 * recordAttempts. 'next' goes on
 * with the queue, 'stop' ends this worker's turn (the lease was taken over).
 */
export async function recordSuccesses(
  ctx: Context,
  endpoint: DeliveryEndpoint,
  attempts: readonly Attempt[],
  lease: string,
): Promise<'next' | 'stop'> {
  const { ours } = await recordDelivered(ctx.db, {
    endpoint,
    token: lease,
    now: deliveryNow(ctx),
    attempts: attempts.map(({ event, result }) => ({
      event,
      httpCode: result.httpCode,
      response: result.response,
      durationMs: result.durationMs,
    })),
  });
  return ours ? 'next' : 'stop';
}

/**
 * Records a batch's attempts: every attempt in the delivery log, the delivered events marked in one
 * statement, and a failed last attempt (a batch stops at its first failure) rescheduled or given up by
 * recordFailure. The endpoint row is read again under its lock (counters may have changed, e.g.
 * re-enabled meanwhile). Normally the lease is still ours; if it expired and another worker took over,
 * the attempts are still logged and applied unless that worker already moved the events on, and the
 * queue is left to it. 'next' goes on with the queue (the lease is kept and renewed by the next
 * claim), 'stop' ends this worker's turn on the endpoint.
 */
export async function recordAttempts(
  ctx: Context,
  endpointId: string,
  attempts: readonly Attempt[],
  lease: string,
): Promise<'next' | 'stop'> {
  const endpoint = await lockEndpointForUpdate(ctx.db, endpointId);
  if (!endpoint) return 'stop';
  const ours = endpoint.delivery_token === lease;
  const now = deliveryNow(ctx);
  await insertDeliveries(
    ctx.db,
    attempts.map(({ event, result }) => ({
      id: randomUUID(),
      created_at: now,
      modified_at: null,
      organization_id: endpoint.organization_id,
      endpoint_id: endpoint.id,
      endpoint_event_id: event.id,
      http_code: result.httpCode,
      succeeded: result.succeeded,
      response: result.response,
      error: result.error,
      duration_ms: result.durationMs,
    })),
  );
  const delivered = attempts.filter((a) => a.result.succeeded);
  const applied = await markEventsDelivered(
    ctx.db,
    delivered.map(({ event, result }) => ({ event, httpCode: result.httpCode })),
    now,
  );
  if (applied > 0 && (endpoint.failing_since || endpoint.consecutive_failures > 0)) {
    await updateEndpointRow(ctx.db, endpoint.id, { failing_since: null, consecutive_failures: 0 });
    endpoint.failing_since = null;
    endpoint.consecutive_failures = 0;
  }
  const failed = attempts.find((a) => !a.result.succeeded);
  if (failed && (await recordFailure(ctx, endpoint, failed, lease, now)) === 'stop') return 'stop';
  // After a failure the retry is due later: the next claim finds the head not due and lets the lease go.
  return ours ? 'next' : 'stop';
}

/** A failed attempt: the event is rescheduled, or given up once its retries are exhausted. */
async function recordFailure(
  ctx: Context,
  endpoint: WebhookEndpointRow,
  { event, result }: Attempt,
  lease: string,
  now: Date,
): Promise<'next' | 'stop'> {
  ctx.log.debug({ endpoint: endpoint.id, event: event.id, result }, 'webhook delivery failed');
  const attempts = event.attempts + 1;
  const delay = retryDelaySeconds(ctx.config.webhookRetrySchedule, ctx.config.webhookRetryJitter, attempts);
  const applied = await updateAttemptedEvent(ctx.db, event, {
    modified_at: now,
    // Retries exhausted: the event is given up and the next one may go.
    status: delay === undefined ? 'failed' : 'pending',
    attempts,
    next_attempt_at: delay === undefined ? null : new Date(now.getTime() + delay * 1000),
    last_http_code: result.httpCode,
    succeeded: false,
  });
  if (!applied) return 'next';
  endpoint.failing_since ??= now;
  endpoint.consecutive_failures += 1;
  const disableReason = endpoint.enabled ? shouldDisable(ctx, endpoint, result, now) : undefined;
  if (disableReason) {
    await disableEndpoint(ctx, endpoint, disableReason, now);
    await releaseEndpointLease(ctx.db, endpoint.id, lease);
    return 'stop';
  }
  await updateEndpointRow(ctx.db, endpoint.id, {
    failing_since: endpoint.failing_since,
    consecutive_failures: endpoint.consecutive_failures,
  });
  return 'next';
}

function shouldDisable(
  ctx: Context,
  endpoint: WebhookEndpointRow,
  result: SendResult,
  now: Date,
): 'gone' | 'failing' | undefined {
  if (result.gone) return 'gone';
  const failingFor = now.getTime() - endpoint.failing_since!.getTime();
  if (failingFor >= ctx.config.webhookDisableAfterSeconds * 1000) return 'failing';
  const limit = ctx.config.webhookDisableAfterFailures;
  if (limit > 0 && endpoint.consecutive_failures >= limit) return 'failing';
  return undefined;
}

/** Disables the endpoint and writes the email that tells the organization (sent by the mail module). */
async function disableEndpoint(
  ctx: Context,
  endpoint: WebhookEndpointRow,
  reason: 'gone' | 'failing',
  now: Date,
): Promise<void> {
  await updateEndpointRow(ctx.db, endpoint.id, {
    enabled: false,
    disabled_reason: reason,
    modified_at: now,
    failing_since: endpoint.failing_since,
    consecutive_failures: endpoint.consecutive_failures,
  });
  const recipients = await organizationRecipients(ctx.db, endpoint.organization_id);
  if (recipients.length === 0) return;
  const why =
    reason === 'gone'
      ? 'it answered HTTP 410 Gone, which asks senders to stop'
      : `its deliveries have failed continuously since ${endpoint.failing_since!.toISOString()} ` +
        `(${endpoint.consecutive_failures} failed attempts in a row)`;
  await queueEmail(ctx, {
    organizationId: endpoint.organization_id,
    to: recipients,
    template: 'webhook_endpoint_disabled',
    data: { endpointId: endpoint.id, url: endpoint.url, why },
  });
}
