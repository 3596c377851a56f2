import { randomUUID } from 'node:crypto';
import { z } from 'zod/v4';
import type { Context } from '../../platform/context.js';
import { queueEmail } from '../../platform/mail/outbox.js';
import type { PeriodicTask } from '../../platform/jobs/periodic.js';
import { defineJob, JOB_SCHEMA, runIn, type JobDefinition, type JobRun } from '../../platform/jobs/queue.js';
import { serverClock } from '../../platform/test-clock.js';
import type { WebhookEventType } from './webhooks.event-types.js';
import { renderBody } from './webhooks.formats.js';
import {
  claimEndpointForDelivery,
  findHeadOfLine,
  findStalledEndpoints,
  findSubscribedEndpoints,
  insertDelivery,
  insertEndpointEvents,
  lockEndpointForUpdate,
  organizationRecipients,
  releaseEndpointLease,
  updateAttemptedEvent,
  updateEndpointRow,
  type WebhookEndpointEventRow,
  type WebhookEndpointRow,
} from './webhooks.repository.js';
import { send, type SendResult } from './webhooks.sender.js';
import { addressPolicy } from './webhooks.url-guard.js';

/**
 * Delivery. Every business event becomes one row per subscribed endpoint (`webhook_endpoint_events`,
 * whose id is the `webhook-id`), written with the change itself. A job per endpoint then works that
 * endpoint's queue in order: it takes the endpoint's delivery lease (a token and an expiry on the
 * endpoint row, taken only when free or expired, so two workers never deliver to one endpoint at
 * once), attempts the oldest pending event (head of line), and moves on only when it was delivered or
 * given up, so a later event never overtakes an earlier one.
 *
 * No transaction is open during the HTTP call: each attempt is (a) a short transaction that claims
 * the lease and reads the head, (b) the POST, (c) a short transaction that records the attempt and
 * advances or reschedules the event. State lives in the database: a worker that dies mid-attempt
 * leaves the event pending with the same id and a lease that expires; the periodic sweep then
 * enqueues the endpoint again and the event is attempted again with the same `webhook-id`.
 */

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

/** Endpoints are spread over a few queues, so slow endpoints do not hold up the others. */
export const DELIVERY_SHARDS = 4;
/** A job stops starting new attempts after this long and hands the rest to a fresh job. */
const JOB_BUDGET_MS = 15_000;
/** At most this many attempts per job. */
const JOB_MAX_ATTEMPTS = 50;
/** A lease outlives the attempt timeout by this much (the commits around the POST, a busy database). */
const LEASE_MARGIN_MS = 5_000;
/** How often the sweep looks for endpoints nobody is working, and how many it re-enqueues at a time. */
const SWEEP_EVERY_SECONDS = 10;
const SWEEP_LIMIT = 500;

const DeliverData = z.object({ endpoint_id: z.uuid() });
type DeliverData = z.infer<typeof DeliverData>;

export const deliveryJobs: JobDefinition<DeliverData>[] = Array.from({ length: DELIVERY_SHARDS }, (_, shard) =>
  defineJob({
    name: `webhooks.deliver.${shard}`,
    schema: DeliverData,
    // The handler opens its own short transactions: none may span the HTTP call.
    transaction: false,
    handle: (ctx, data, run) => deliverEndpoint(ctx, run ?? runIn(ctx), data.endpoint_id),
    retryLimit: 50,
    retryDelaySeconds: 5,
    retryBackoff: true,
    expireInSeconds: 120,
  }),
);

/**
 * Re-enqueues delivery for endpoints with due pending events that nobody is working: no live lease and
 * no queued job (a job lost with a crashed process, a lease whose holder died). Recovery then takes a
 * lease expiry plus at most one period, not pg-boss's job expiry.
 */
export const sweepDeliveriesJob = defineJob<Record<string, never>>({
  name: 'webhooks.sweep',
  schema: z.object({}),
  retryLimit: 1,
  async handle(ctx) {
    const names = deliveryJobs.map((job) => job.name);
    const stalled = await findStalledEndpoints(ctx.db, deliveryNow(ctx), JOB_SCHEMA, names, SWEEP_LIMIT);
    for (const endpointId of stalled) await scheduleDelivery(ctx, endpointId);
    if (stalled.length > 0) ctx.log.info({ endpoints: stalled.length }, 'webhook delivery re-enqueued');
  },
});

export const sweepDeliveriesSchedule: PeriodicTask = { job: sweepDeliveriesJob, everySeconds: SWEEP_EVERY_SECONDS };

function shardOf(endpointId: string): number {
  return parseInt(endpointId.slice(0, 8), 16) % DELIVERY_SHARDS;
}

/** Enqueues work for an endpoint (in the caller's transaction), now or after `delaySeconds`. */
export async function scheduleDelivery(ctx: Context, endpointId: string, delaySeconds = 0): Promise<void> {
  const job = deliveryJobs[shardOf(endpointId)]!;
  await ctx.jobs.enqueue(job, { endpoint_id: endpointId }, delaySeconds > 0 ? { startAfter: delaySeconds } : {});
}

export interface FanOutInput {
  eventId: string;
  organizationId: string;
  type: WebhookEventType;
  data: unknown;
  /** The stored `{type, data}` JSON, sent byte for byte to raw endpoints. */
  payload: string;
  createdAt: Date;
}

/** One per-endpoint event for every enabled endpoint subscribed to the type, and a job per endpoint. */
export async function fanOutWebhookEvent(ctx: Context, input: FanOutInput): Promise<void> {
  const endpoints = await findSubscribedEndpoints(ctx.db, input.organizationId, input.type);
  if (endpoints.length === 0) return;
  const due = deliveryNow(ctx);
  const rows = [];
  for (const endpoint of endpoints) {
    const body = renderBody(endpoint.format, input.payload, {
      type: input.type,
      data: input.data,
      organizationName: endpoint.organization_name,
      timestamp: input.createdAt.toISOString(),
    });
    if (body === undefined) continue;
    rows.push({
      id: randomUUID(),
      created_at: input.createdAt,
      modified_at: null,
      organization_id: input.organizationId,
      endpoint_id: endpoint.id,
      event_id: input.eventId,
      type: input.type,
      payload: input.payload,
      body: endpoint.format === 'raw' ? null : body,
      status: 'pending' as const,
      next_attempt_at: due,
      last_http_code: null,
      succeeded: null,
    });
  }
  await insertEndpointEvents(ctx.db, rows);
  for (const row of rows) await scheduleDelivery(ctx, row.endpoint_id);
}

/** The delay before retry number `attempt` (1-based), jittered; undefined when retries are exhausted. */
export function retryDelaySeconds(schedule: number[], jitter: number, attempt: number, random = Math.random) {
  const base = schedule[attempt - 1];
  if (base === undefined) return undefined;
  return base * (1 + jitter * random());
}

/** Works one endpoint's queue (the job handler, outside any transaction). */
export async function deliverEndpoint(ctx: Context, run: JobRun, endpointId: string): Promise<void> {
  const lease = randomUUID();
  try {
    await workQueue(ctx, run, endpointId, lease);
  } catch (error) {
    // A database error: let the lease go (best effort) so the retried job need not wait for it.
    await run.transaction((tx) => releaseEndpointLease(tx.db, endpointId, lease)).catch(() => {});
    throw error;
  }
}

async function workQueue(ctx: Context, run: JobRun, endpointId: string, lease: string): Promise<void> {
  const started = Date.now();
  for (let attempts = 0; ; attempts++) {
    const overBudget = attempts >= JOB_MAX_ATTEMPTS || Date.now() - started > JOB_BUDGET_MS;
    // (a) A short transaction: take or renew the lease and read the head of line.
    const next = await run.transaction((tx) => claimHead(tx, endpointId, lease, overBudget));
    if (!next) return;
    // (b) No transaction open during the POST.
    const at = deliveryNow(ctx);
    const result = await send({
      url: next.endpoint.url,
      body: next.event.body ?? next.event.payload,
      webhookId: next.event.id,
      secret: next.endpoint.secret,
      timestamp: Math.floor(at.getTime() / 1000),
      timeoutMs: ctx.config.webhookTimeoutMs,
      policy: addressPolicy(ctx.config),
    });
    // (c) A second short transaction: the attempt and its consequences.
    const outcome = await run.transaction((tx) => recordAttempt(tx, endpointId, next.event, result, lease));
    if (outcome === 'stop') return;
  }
}

/**
 * Takes the endpoint's lease and returns the head of line when it is due. Otherwise gives the lease
 * back and, when there is work later, schedules it. A live lease of another worker means that worker
 * is working this queue (it reads the head again, under the row lock, before it lets go), so there is
 * nothing to do; a lease whose holder died expires and the sweep brings the endpoint back.
 */
async function claimHead(
  ctx: Context,
  endpointId: string,
  lease: string,
  overBudget: boolean,
): Promise<{ endpoint: WebhookEndpointRow; event: WebhookEndpointEventRow } | undefined> {
  const now = deliveryNow(ctx);
  const until = new Date(now.getTime() + ctx.config.webhookTimeoutMs + LEASE_MARGIN_MS);
  const endpoint = await claimEndpointForDelivery(ctx.db, endpointId, lease, now, until);
  if (endpoint === 'busy' || !endpoint) return undefined;
  const head = await findHeadOfLine(ctx.db, endpointId);
  // An event never attempted is due at once: only a retry waits. (Earlier versions queued events on the
  // organization's test clock, weeks ahead; such a row would otherwise hold its endpoint's queue.)
  const dueAt = head && head.attempts > 0 ? (head.next_attempt_at ?? now) : now;
  const dueIn = head ? dueAt.getTime() - now.getTime() : 0;
  if (head && dueIn <= 0 && !overBudget) return { endpoint, event: head };
  await releaseEndpointLease(ctx.db, endpointId, lease);
  if (!head) return undefined;
  // Not due yet: come back when it is. Over budget: a fresh job carries on.
  await scheduleDelivery(ctx, endpointId, dueIn > 0 ? dueIn / 1000 : 0);
  return undefined;
}

/**
 * Records one attempt and advances or reschedules the event. The endpoint row is read again under its
 * lock (counters may have changed, e.g. re-enabled meanwhile). Normally the lease is still ours; if it
 * expired and another worker took over, the attempt is still logged and applied unless that worker
 * already moved the event on, and the queue is left to it. 'next' goes on with the queue (the lease is
 * kept and renewed by the next claim), 'stop' ends the job.
 */
async function recordAttempt(
  ctx: Context,
  endpointId: string,
  event: WebhookEndpointEventRow,
  result: SendResult,
  lease: string,
): Promise<'next' | 'stop'> {
  const endpoint = await lockEndpointForUpdate(ctx.db, endpointId);
  if (!endpoint) return 'stop';
  const ours = endpoint.delivery_token === lease;
  const now = deliveryNow(ctx);
  await insertDelivery(ctx.db, {
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
  });
  const attempts = event.attempts + 1;
  if (result.succeeded) {
    const applied = await updateAttemptedEvent(ctx.db, event, {
      modified_at: now,
      status: 'delivered',
      attempts,
      next_attempt_at: null,
      last_http_code: result.httpCode,
      succeeded: true,
    });
    if (applied && (endpoint.failing_since || endpoint.consecutive_failures > 0)) {
      await updateEndpointRow(ctx.db, endpoint.id, { failing_since: null, consecutive_failures: 0 });
    }
    return ours ? 'next' : 'stop';
  }

  ctx.log.debug({ endpoint: endpoint.id, event: event.id, result }, 'webhook delivery failed');
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
  if (!applied) return ours ? 'next' : 'stop';
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
  // A retry is due later: the next claim finds the head not due, schedules it and lets the lease go.
  return ours ? 'next' : 'stop';
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
