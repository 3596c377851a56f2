import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import type { Database } from '../../platform/db/database.js';
import { listenTo, type Listening } from '../../platform/db/notifications.js';
import type { JobRun } from '../../platform/jobs/queue.js';
import {
  claimBatch,
  deliveryNow,
  LEASE_MARGIN_MS,
  recordAttempts,
  recordSuccesses,
  WAKE_CHANNEL,
  type Attempt,
} from './webhooks.delivery.js';
import { claimIdleEndpoints, releaseEndpointLease } from './webhooks.repository.js';
import { closeSenderConnections, send } from './webhooks.sender.js';
import { addressPolicy } from './webhooks.url-guard.js';

/**
 * The delivery worker of a process (every process that runs jobs has one). It sleeps until woken: by a
 * notification committed with a new event (webhooks.delivery.ts), by its poll timer (the fallback: a
 * notification lost while the listening connection was down, a lease left by a worker that died), by
 * the time a retry it saw becomes due, or by one of its endpoints finishing. Woken, it claims idle
 * endpoints with due work in one statement, up to its concurrency, and works each one's queue in a
 * lane of its own: endpoints proceed in parallel, each endpoint strictly in order. Lanes end when
 * their endpoint has nothing due; the claim then looks again, so nothing committed meanwhile waits
 * for the poll. A lane also ends after its turn (TURN_MS, at a batch's end) when a look found every
 * lane taken: the next look takes the endpoints whose head has waited longest, so more endpoints with
 * work than lanes share them instead of the first ones keeping theirs while their queues never run dry.
 */
export interface DispatcherOptions {
  /** Endpoints worked at once by this process. */
  concurrency: number;
  /** How often it looks for due work without being told (ms). */
  pollIntervalMs: number;
}

/** How long a lane keeps its endpoint when other endpoints wait for a lane (ms). */
const TURN_MS = 250;

export class WebhookDispatcher {
  private readonly lanes = new Map<string, Promise<void>>();
  private scanning: Promise<void> | undefined;
  private rescan = false;
  /** A look found every lane taken: a lane that has had its turn gives its endpoint up. */
  private othersWaiting = false;
  private stopped = false;
  private poll: NodeJS.Timeout | undefined;
  private retry: { at: number; timer: NodeJS.Timeout } | undefined;
  private listening: Listening | undefined;

  /** `ctx` works on the pool (no transaction); `run` opens the short transactions. */
  constructor(
    private readonly ctx: Context,
    private readonly run: JobRun,
    private readonly options: DispatcherOptions,
  ) {}

  async start(database: Database): Promise<void> {
    this.listening = await listenTo(database, WAKE_CHANNEL, (payload) => this.notified(payload), this.ctx.log);
    this.poll = setInterval(() => this.wake(), this.options.pollIntervalMs);
    this.poll.unref();
    this.wake();
  }

  /** Stops claiming, lets the lanes finish the attempt in flight, and closes pooled connections. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    if (this.retry) clearTimeout(this.retry.timer);
    await this.listening?.stop();
    await this.scanning;
    await Promise.all(this.lanes.values());
    closeSenderConnections();
  }

  private notified(payload: string | undefined): void {
    // An endpoint this process is working: its lane reads the queue again before it lets go.
    if (payload && this.lanes.has(payload)) return;
    this.wake();
  }

  /** Looks for due endpoints now (once more after the current look, if one is running). */
  wake(): void {
    if (this.stopped) return;
    if (this.scanning) {
      this.rescan = true;
      return;
    }
    this.scanning = this.scan().finally(() => (this.scanning = undefined));
  }

  private async scan(): Promise<void> {
    do {
      this.rescan = false;
      const free = this.options.concurrency - this.lanes.size;
      if (this.stopped) return;
      if (free <= 0) {
        // Woken with every lane taken: an endpoint may be waiting for one (lanes give theirs up).
        this.othersWaiting = true;
        return;
      }
      const now = deliveryNow(this.ctx);
      const token = randomUUID();
      let claimed;
      try {
        // One statement: no transaction around it.
        claimed = await claimIdleEndpoints(this.ctx.db, {
          token,
          now,
          until: new Date(now.getTime() + this.ctx.config.webhookTimeoutMs + LEASE_MARGIN_MS),
          limit: free,
          exclude: [...this.lanes.keys()],
        });
      } catch (error) {
        // The database is away: the poll tries again.
        this.ctx.log.warn({ err: error }, 'webhook delivery: looking for due endpoints failed');
        return;
      }
      if (claimed.length < free) this.othersWaiting = false;
      for (const endpoint of claimed) this.startLane(endpoint.id, token);
      // Every free slot filled: there may be more; a lane that ends looks again.
    } while (this.rescan);
  }

  private startLane(endpointId: string, lease: string): void {
    const lane = this.work(endpointId, lease)
      .catch((error: unknown) => {
        // A database error: the lease is kept and expires (attempt timeout + margin), which is the
        // back-off; letting it go would have the next look take the endpoint again at once.
        this.ctx.log.warn({ err: error, endpoint: endpointId }, 'webhook delivery interrupted');
      })
      .finally(() => {
        this.lanes.delete(endpointId);
        this.wake();
      });
    this.lanes.set(endpointId, lane);
  }

  /** Works one endpoint's queue, batch after batch, until nothing is due (or the process stops). */
  private async work(endpointId: string, lease: string): Promise<void> {
    const timeoutMs = this.ctx.config.webhookTimeoutMs;
    const policy = addressPolicy(this.ctx.config);
    const started = performance.now();
    while (!this.stopped) {
      const claim = await this.run.transaction((tx) => claimBatch(tx, endpointId, lease));
      if (!claim) return;
      if (!('events' in claim)) {
        if (claim.dueAt) this.wakeAt(claim.dueAt);
        return;
      }
      const leaseEnds = deliveryNow(this.ctx).getTime() + timeoutMs + LEASE_MARGIN_MS;
      const attempts: Attempt[] = [];
      for (const event of claim.events) {
        // No attempt that could outlast the lease: the rest of the batch goes after the next claim.
        if (attempts.length > 0 && deliveryNow(this.ctx).getTime() + timeoutMs > leaseEnds - LEASE_MARGIN_MS / 2) break;
        if (this.stopped) break;
        const at = deliveryNow(this.ctx);
        const result = await send({
          url: claim.endpoint.url,
          body: event.body ?? event.payload,
          webhookId: event.id,
          secret: claim.endpoint.secret,
          timestamp: Math.floor(at.getTime() / 1000),
          timeoutMs,
          policy,
        });
        attempts.push({ event, result });
        // Strict order: after a failure nothing behind it goes until it is retried or given up.
        if (!result.succeeded) break;
      }
      if (attempts.length === 0) break;
      // All succeeded on an endpoint with no failure run: one statement. Otherwise the transaction that
      // locks the endpoint first (its counters change), as a re-enabling update does.
      const clean = claim.endpoint.failing_since === null && claim.endpoint.consecutive_failures === 0;
      const outcome =
        clean && attempts.every((attempt) => attempt.result.succeeded)
          ? await recordSuccesses(this.ctx, claim.endpoint, attempts, lease)
          : await this.run.transaction((tx) => recordAttempts(tx, endpointId, attempts, lease));
      if (outcome === 'stop') return;
      // More endpoints with work than lanes: after its turn, the lane lets the endpoint go and the
      // look that follows takes the endpoints whose head has waited longest (this one again if so).
      if (this.othersWaiting && performance.now() - started >= TURN_MS) break;
    }
    // Stopping, or its turn is over: another lane or process may take the endpoint over at once.
    await releaseEndpointLease(this.ctx.db, endpointId, lease);
  }

  /** Wakes up when a retry seen by a lane becomes due (the earliest one known). */
  private wakeAt(dueAt: Date): void {
    const at = dueAt.getTime();
    if (this.stopped || (this.retry && this.retry.at <= at)) return;
    if (this.retry) clearTimeout(this.retry.timer);
    const delay = Math.max(0, at - deliveryNow(this.ctx).getTime()) + 5;
    const timer = setTimeout(() => {
      this.retry = undefined;
      this.wake();
    }, delay);
    timer.unref();
    this.retry = { at, timer };
  }
}
