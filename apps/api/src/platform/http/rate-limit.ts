import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod/v4';
import type { Config } from '../../config.js';
import type { Subject } from '../auth/subject.js';
import type { Clock } from '../clock.js';
import type { Executor } from '../db/database.js';
import { defineJob } from '../jobs/queue.js';
import type { PeriodicTask } from '../jobs/periodic.js';
import { TooManyRequests } from './errors.js';
import type { AnyRoute } from './route.js';
import { deleteExpiredCounters, incrementCounters, type CounterHit } from './rate-limit.repository.js';

/**
 * Rate limits, shared by every API node: counters live in PostgreSQL (`rate_limits`), one row per key
 * and fixed window, incremented with one atomic upsert before the handler runs (on the pool, so the
 * request's transaction cannot roll a count back: refused and failed requests count too).
 *
 * The API-wide rule is batched: each node counts its requests in memory and writes the increments once a
 * second, and asks the database itself only when what it has counted since reaches a tenth of what was
 * left under the limit, or when it is past the limit. One node is exact (it knows every count); N nodes
 * admit at most about N tenths of the limit beyond it. The rules that guard secrets and money (sign-in,
 * sign-up, email codes, checkout confirm and discount codes, license keys, OAuth2 clients) are counted in
 * the database by each request, exact across nodes.
 *
 * Fixed windows: a key may spend its limit at the end of one window and again at the start of the next
 * (at most twice the limit over one window's length), and a key over its limit is refused until its window
 * ends. That end bounds every lockout: an attacker who spends an account's sign-in attempts locks that
 * account out for at most the rest of that window (15 minutes), and from one address only locks that
 * address out of the account.
 *
 * Answers carry the IETF draft's `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds
 * until the window ends) of the limit closest to being reached; a refusal is a 429
 * `{error: "TooManyRequests", detail}` with `Retry-After`.
 */

export interface Limit {
  limit: number;
  windowSeconds: number;
}

interface RuleInput {
  request: FastifyRequest;
  subject: Subject;
}

export interface RateLimitRule {
  name: string;
  /** Which routes the rule covers (method and canonical path). */
  applies(route: AnyRoute): boolean;
  /** The identity counted for this request; undefined: the rule does not count this request. */
  identity(input: RuleInput): string | undefined;
  limits: Limit[];
  /** Multiplied by `RATE_LIMIT_SCALE` (every built-in rule but the API-wide one, configured on its own). */
  scaled: boolean;
  /**
   * Counted on each node and written to the shared store in batches (the API-wide rule): exact on one
   * node, a bounded excess across nodes. Every other rule (sign-in, email codes, checkout confirm, license
   * keys) is counted in the shared store by the request itself, exact across nodes.
   */
  batched?: boolean;
}

const MINUTE = 60;
const HOUR = 3600;

/** Values that identify someone (emails, client secrets) are stored hashed. */
function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 22);
}

function bodyString(request: FastifyRequest, field: string): string | undefined {
  const body = request.body;
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[field];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function pathParam(request: FastifyRequest, name: string): string | undefined {
  const value = (request.params as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

const ip = ({ request }: RuleInput) => request.ip;
const email = ({ request }: RuleInput) => {
  const value = bodyString(request, 'email');
  return value && digest(value.toLowerCase());
};
const clientSecret = ({ request }: RuleInput) => {
  const value = pathParam(request, 'client_secret');
  return value && digest(value);
};
const withDiscountCode = (identity: (input: RuleInput) => string | undefined) => (input: RuleInput) =>
  bodyString(input.request, 'discount_code') ? identity(input) : undefined;

const post = (path: string | RegExp) => (route: AnyRoute) =>
  route.method === 'POST' && (typeof path === 'string' ? route.path === path : path.test(route.path));
const CHECKOUT_CLIENT = /^\/v1\/checkouts\/client\//;
const CHECKOUT_CONFIRM = /^\/v1\/checkouts\/client\/\{client_secret\}\/confirm$/;
const DISCOUNT_ATTEMPT = (route: AnyRoute) =>
  CHECKOUT_CLIENT.test(route.path) && (route.method === 'PATCH' || route.method === 'POST');
const LICENSE_KEY_PUBLIC = /^\/v1\/customer-portal\/license-keys\/(validate|activate|deactivate)$/;
// Email-code sign-in to the customer portal (request a code, then authenticate with it).
const CUSTOMER_EMAIL_CODE = /^\/v1\/customer-portal\/customer-session\/(request|authenticate)$/;

/** The built-in rules (limits before `RATE_LIMIT_SCALE`). */
export const RULES: RateLimitRule[] = [
  {
    // One address guessing one account's password is stopped first, without locking the account for
    // its owner elsewhere; many addresses together hit the account's own limit.
    name: 'login:account-ip',
    applies: post('/v1/auth/login'),
    identity: (input) => {
      const account = email(input);
      return account && `${account}:${input.request.ip}`;
    },
    limits: [{ limit: 10, windowSeconds: 15 * MINUTE }],
    scaled: true,
  },
  {
    name: 'login:account',
    applies: post('/v1/auth/login'),
    identity: email,
    limits: [{ limit: 50, windowSeconds: 15 * MINUTE }],
    scaled: true,
  },
  {
    name: 'login:ip',
    applies: post('/v1/auth/login'),
    identity: ip,
    limits: [
      { limit: 20, windowSeconds: MINUTE },
      { limit: 100, windowSeconds: HOUR },
    ],
    scaled: true,
  },
  {
    name: 'signup:account',
    applies: post('/v1/auth/signup'),
    identity: email,
    limits: [{ limit: 5, windowSeconds: 15 * MINUTE }],
    scaled: true,
  },
  {
    name: 'signup:ip',
    applies: post('/v1/auth/signup'),
    identity: ip,
    limits: [
      { limit: 10, windowSeconds: MINUTE },
      { limit: 30, windowSeconds: HOUR },
    ],
    scaled: true,
  },
  {
    name: 'email-code:account',
    applies: post(CUSTOMER_EMAIL_CODE),
    identity: email,
    limits: [{ limit: 6, windowSeconds: 15 * MINUTE }],
    scaled: true,
  },
  {
    name: 'email-code:ip',
    applies: post(CUSTOMER_EMAIL_CODE),
    identity: ip,
    limits: [
      { limit: 6, windowSeconds: MINUTE },
      { limit: 12, windowSeconds: HOUR },
    ],
    scaled: true,
  },
  {
    // Roomy: the hosted checkout polls its checkout every second while a payment settles.
    name: 'checkout:ip',
    applies: (route) => CHECKOUT_CLIENT.test(route.path),
    identity: ip,
    limits: [{ limit: 300, windowSeconds: MINUTE }],
    scaled: true,
  },
  {
    name: 'checkout:client',
    applies: (route) => CHECKOUT_CLIENT.test(route.path),
    identity: clientSecret,
    limits: [{ limit: 180, windowSeconds: MINUTE }],
    scaled: true,
  },
  {
    // Each visit of a checkout link creates a checkout.
    name: 'checkout-link:ip',
    applies: (route) => route.path === '/v1/checkout-links/{client_secret}/redirect',
    identity: ip,
    limits: [
      { limit: 30, windowSeconds: MINUTE },
      { limit: 300, windowSeconds: HOUR },
    ],
    scaled: true,
  },
  {
    name: 'checkout-confirm:ip',
    applies: post(CHECKOUT_CONFIRM),
    identity: ip,
    limits: [
      { limit: 10, windowSeconds: MINUTE },
      { limit: 30, windowSeconds: HOUR },
    ],
    scaled: true,
  },
  {
    name: 'checkout-confirm:client',
    applies: post(CHECKOUT_CONFIRM),
    identity: clientSecret,
    limits: [{ limit: 10, windowSeconds: 10 * MINUTE }],
    scaled: true,
  },
  {
    name: 'discount-code:ip',
    applies: DISCOUNT_ATTEMPT,
    identity: withDiscountCode(ip),
    limits: [{ limit: 20, windowSeconds: 15 * MINUTE }],
    scaled: true,
  },
  {
    name: 'discount-code:client',
    applies: DISCOUNT_ATTEMPT,
    identity: withDiscountCode(clientSecret),
    limits: [{ limit: 10, windowSeconds: 15 * MINUTE }],
    scaled: true,
  },
  {
    // Every call counts, found or not: a key cannot be guessed faster than this.
    name: 'license-key:ip',
    applies: post(LICENSE_KEY_PUBLIC),
    identity: ip,
    limits: [
      { limit: 3, windowSeconds: 1 },
      { limit: 120, windowSeconds: MINUTE },
    ],
    scaled: true,
  },
];

/** The whole API, per caller: the organization of a token, the user, the customer, else the IP. */
function apiRule(config: Config): RateLimitRule {
  return {
    name: 'api',
    applies: () => true,
    identity: ({ subject, request }) => {
      switch (subject.kind) {
        case 'organization':
          return `org:${subject.organizationId}`;
        case 'user':
          return `user:${subject.userId}`;
        case 'customer':
          return `customer:${subject.customerId}`;
        default:
          return `ip:${request.ip}`;
      }
    },
    limits: [{ limit: config.rateLimits.apiPerMinute, windowSeconds: MINUTE }],
    scaled: false,
    // Every request of an organization counts against one row: written by each request, that row
    // serialised them all (one upsert each, waiting on the row's lock).
    batched: true,
  };
}

interface Counted {
  hit: CounterHit;
  limit: number;
  resetSeconds: number;
  batched: boolean;
}

/**
 * A batched counter's state on this node: `known` is the shared count the last statement returned (every
 * node's flushed counts), `sending` what a statement under way adds, `pending` what this node counted since.
 */
interface LocalCounter {
  hit: CounterHit;
  known: number;
  sending: number;
  pending: number;
}

/**
 * A batched rule's share of what is left under its limit that one node may count without asking the
 * database: past it (or at the limit) the request goes to the database, with what was counted meanwhile.
 * N nodes together admit at most about N × this share of the limit beyond it; one node alone is exact.
 */
const LOCAL_SHARE = 0.1;
/** How often counts made locally are written to the shared store (`config.rateLimits.flushMs`). */
const FLUSH_INTERVAL_MS = 1000;

export interface RateLimitDeps {
  db: Executor;
  clock: Clock;
  config: Config;
  /** A failed background flush (its counts are kept and sent with the next statement). */
  onFlushError?(error: unknown): void;
}

export class RateLimiter {
  private readonly rules: RateLimitRule[];
  private readonly local = new Map<string, LocalCounter>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly deps: RateLimitDeps,
    rules: RateLimitRule[] = RULES,
  ) {
    this.rules = [...rules, apiRule(deps.config)];
  }

  /** The rules of one route, resolved once at registration. */
  rulesFor(route: AnyRoute): RateLimitRule[] {
    return this.rules.filter((rule) => rule.applies(route));
  }

  /**
   * Counts the request against every rule of its route, sets the RateLimit headers, and throws a 429
   * when any limit is exceeded.
   */
  async check(rules: RateLimitRule[], request: FastifyRequest, reply: FastifyReply, subject: Subject): Promise<void> {
    const now = this.deps.clock.now().getTime();
    const counted: Counted[] = [];
    for (const rule of rules) {
      const identity = rule.identity({ request, subject });
      if (identity === undefined) continue;
      for (const { limit, windowSeconds } of rule.limits) {
        const windowMs = windowSeconds * 1000;
        const start = Math.floor(now / windowMs) * windowMs;
        counted.push({
          hit: {
            key: `${rule.name}:${windowSeconds}:${identity}`,
            windowStart: new Date(start),
            expiresAt: new Date(start + windowMs),
          },
          limit: rule.scaled ? limit * this.deps.config.rateLimits.scale : limit,
          resetSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)),
          batched: rule.batched === true,
        });
      }
    }
    if (counted.length === 0) return;

    // Batched counters far from their limit, or known to be past it, are counted here; the others, and
    // every exact rule, in one statement.
    const counts = new Map<string, number>();
    const toSend: CounterHit[] = [];
    const sent = new Map<string, { counter: LocalCounter; by: number }>();
    for (const entry of counted) {
      if (!entry.batched) {
        toSend.push(entry.hit);
        continue;
      }
      const counter = this.counter(entry.hit);
      const seen = counter.known + counter.sending + counter.pending;
      const share = Math.floor((entry.limit - counter.known) * LOCAL_SHARE);
      // `known + pending` never counts a request twice: past the limit for sure.
      if (counter.sending + counter.pending < share || counter.known + counter.pending >= entry.limit) {
        counter.pending += 1;
        counts.set(entry.hit.key, seen + 1);
      } else {
        const by = counter.pending + 1;
        counter.pending = 0;
        counter.sending += by;
        toSend.push({ ...entry.hit, by });
        sent.set(entry.hit.key, { counter, by });
      }
    }
    if (toSend.length > 0) {
      // A background write under way first: the count this statement returns then includes it, and is
      // not added to what that write is still known to be sending.
      if (sent.size > 0 && this.flushing) await this.flushing.catch(() => {});
      let returned: Map<string, number>;
      try {
        returned = await incrementCounters(this.deps.db, toSend);
      } finally {
        for (const { counter, by } of sent.values()) counter.sending -= by;
      }
      for (const [key, count] of returned) {
        counts.set(key, count);
        const local = sent.get(key);
        if (local) local.counter.known = Math.max(local.counter.known, count);
      }
    }

    let tightest: (Counted & { remaining: number }) | undefined;
    let refusal: Counted | undefined;
    for (const entry of counted) {
      const count = counts.get(entry.hit.key) ?? 0;
      const remaining = entry.limit - count;
      if (remaining < 0 && (!refusal || entry.resetSeconds > refusal.resetSeconds)) refusal = entry;
      if (!tightest || remaining < tightest.remaining) tightest = { ...entry, remaining };
    }
    if (refusal) {
      const error = new TooManyRequests(
        refusal.resetSeconds,
        `Too many requests: try again in ${refusal.resetSeconds} seconds.`,
      );
      Object.assign(error.headers, headers(refusal.limit, 0, refusal.resetSeconds));
      throw error;
    }
    reply.headers(headers(tightest!.limit, tightest!.remaining, tightest!.resetSeconds));
  }

  /**
   * Writes the counts made here since the last statement, in one statement. Counters of ended windows are
   * dropped, not written: no decision reads them any more.
   */
  flush(): Promise<void> {
    this.flushing ??= this.flushNow().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  /** Stops the background flush after writing what is pending. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush().catch((error: unknown) => this.deps.onFlushError?.(error));
  }

  private counter(hit: CounterHit): LocalCounter {
    const id = `${hit.key}@${hit.windowStart.getTime()}`;
    let counter = this.local.get(id);
    if (!counter) {
      counter = { hit, known: 0, sending: 0, pending: 0 };
      this.local.set(id, counter);
      this.schedule();
    }
    return counter;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((error: unknown) => this.deps.onFlushError?.(error));
    }, this.deps.config.rateLimits.flushMs ?? FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  private async flushNow(): Promise<void> {
    const now = this.deps.clock.now().getTime();
    const batch: { counter: LocalCounter; by: number }[] = [];
    for (const [id, counter] of this.local) {
      if (counter.hit.expiresAt.getTime() <= now) {
        if (counter.sending === 0) this.local.delete(id);
        continue;
      }
      if (counter.pending === 0) continue;
      batch.push({ counter, by: counter.pending });
      counter.sending += counter.pending;
      counter.pending = 0;
    }
    // Kept until its window ends: `known` is what makes one node exact.
    if (this.local.size > 0) this.schedule();
    if (batch.length === 0) return;
    try {
      const returned = await incrementCounters(
        this.deps.db,
        batch.map(({ counter, by }) => ({ ...counter.hit, by })),
      );
      for (const { counter } of batch) {
        const count = returned.get(counter.hit.key);
        if (count !== undefined) counter.known = Math.max(counter.known, count);
      }
    } catch (error) {
      // Kept: the next statement for these counters carries them.
      for (const { counter, by } of batch) counter.pending += by;
      throw error;
    } finally {
      for (const { counter, by } of batch) counter.sending -= by;
    }
  }
}

function headers(limit: number, remaining: number, resetSeconds: number): Record<string, string> {
  return {
    'ratelimit-limit': String(limit),
    'ratelimit-remaining': String(Math.max(0, remaining)),
    'ratelimit-reset': String(resetSeconds),
  };
}

/** Deletes counters of ended windows. */
export const cleanRateLimitsJob = defineJob<Record<string, never>>({
  name: 'rate_limits.clean',
  schema: z.object({}),
  retryLimit: 1,
  async handle(ctx) {
    await deleteExpiredCounters(ctx.db, ctx.clock.now());
  },
});

export const cleanRateLimitsSchedule: PeriodicTask = { job: cleanRateLimitsJob, everySeconds: 5 * 60 };
