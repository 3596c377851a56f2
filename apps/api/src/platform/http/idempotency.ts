import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod/v4';
import type { Subject } from '../auth/subject.js';
import type { Clock } from '../clock.js';
import type { Executor } from '../db/database.js';
import { defineJob } from '../jobs/queue.js';
import type { PeriodicTask } from '../jobs/periodic.js';
import { ApiError, validationError } from './errors.js';
import type { AnyRoute } from './route.js';
import {
  completeKey,
  deleteExpiredKeys,
  findKey,
  insertClaim,
  releaseKey,
  takeOverClaim,
  type Claim,
  type ClaimRef,
} from './idempotency.repository.js';

/**
 * `Idempotency-Key` on every POST, PATCH and DELETE. The first answer (< 500) to a key is kept 24 hours
 * and replayed byte for byte (status, body, headers) with `Idempotent-Replayed: true` to a later request
 * with the same key and the same request (method, URL and body); the same key with another request is a
 * 422, and while the first is still running a 409. Keys are per caller: the token's organization, the
 * user, the customer, or for anonymous calls the checkout's client secret (else the IP).
 *
 * Kept answers are encrypted with a key derived from the server secret (they may carry tokens).
 *
 * The key is claimed (one statement, its own transaction) before the handler runs and completed after
 * its transaction ended; an answer of 500 or more releases it, so the request can be retried. A process
 * that dies mid-request leaves the claim in flight: it is locked for LOCK_SECONDS, then the same request
 * may claim it again. Sign-in, sign-up and sign-out take no key (their answers carry session cookies,
 * which are never stored).
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
export const KEY_TTL_SECONDS = 24 * 3600;
export const LOCK_SECONDS = 120;
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/** Headers of an answer that are not replayed: per-response, per-connection, or secret. */
const NOT_REPLAYED = new Set([
  'set-cookie',
  'x-request-id',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'retry-after',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  REPLAYED_HEADER,
]);

/** 409: a request with this key is still running. */
export class IdempotencyKeyInUse extends ApiError {
  readonly status = 409;
  constructor(detail = 'A request with this Idempotency-Key is still in progress; retry after it completes.') {
    super(detail);
  }
}

export function acceptsIdempotencyKey(route: AnyRoute): boolean {
  return (
    (route.method === 'POST' || route.method === 'PATCH' || route.method === 'DELETE') &&
    !route.path.startsWith('/v1/auth/') &&
    !route.oauth2
  );
}

/** The OpenAPI header parameter of write operations. */
export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the first answer to a key (below 500) is replayed for 24 hours, byte for byte and ' +
    'with `Idempotent-Replayed: true`, to requests with the same key and body; another body with the key is ' +
    'a 422, a request while the first one runs a 409. Keys are scoped to the caller (organization, user, ' +
    'customer or checkout client secret); 1 to 255 visible ASCII characters, a UUID v4 is a good choice.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
} as const;

function scopeOf(subject: Subject, request: FastifyRequest): string {
  switch (subject.kind) {
    case 'organization':
      return `org:${subject.organizationId}`;
    case 'user':
      return `user:${subject.userId}`;
    case 'customer':
      return `customer:${subject.customerId}`;
    default: {
      const secret = (request.params as Record<string, unknown> | undefined)?.client_secret;
      return typeof secret === 'string' && secret !== ''
        ? `client:${createHash('sha256').update(secret).digest('base64url')}`
        : `ip:${request.ip}`;
    }
  }
}

function requestHash(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

export interface IdempotencyDeps {
  db: Executor;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The server secret: kept answers are encrypted with a key derived from it. */
  secret: string;
}

/**
 * Kept answers may hold secrets handed out once (an access token, a customer session): they are stored
 * encrypted (AES-256-GCM, key derived from the server secret), never in clear.
 */
export function sealAnswer(secret: string, body: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', answerKey(secret), iv);
  const sealed = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

export function openAnswer(secret: string, stored: string): string {
  const raw = Buffer.from(stored, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', answerKey(secret), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

function answerKey(secret: string): Buffer {
  return createHash('sha256').update(`tessera idempotency answers\n${secret}`).digest();
}

export class Idempotency {
  private readonly claims = new WeakMap<FastifyRequest, ClaimRef>();

  constructor(private readonly deps: IdempotencyDeps) {}

  /**
   * Before the handler: claims the request's key. Returns true when the request was answered here (a
   * replay); throws the 409 and 422.
   */
  async begin(request: FastifyRequest, reply: FastifyReply, subject: Subject): Promise<boolean> {
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined) return false;
    const key = Array.isArray(header) ? header.join(', ') : header;
    if (!KEY_FORMAT.test(key)) {
      throw validationError(
        ['header', 'Idempotency-Key'],
        'Idempotency-Key must be 1 to 255 visible ASCII characters.',
        'string_pattern_mismatch',
      );
    }
    const now = this.deps.clock.now();
    const claim: Claim = {
      scope: scopeOf(subject, request),
      key,
      requestHash: requestHash(request),
      now,
      lockedUntil: new Date(now.getTime() + LOCK_SECONDS * 1000),
      expiresAt: new Date(now.getTime() + KEY_TTL_SECONDS * 1000),
    };
    const claimed = (await insertClaim(this.deps.db, claim)) || (await takeOverClaim(this.deps.db, claim));
    if (claimed) {
      this.claims.set(request, { scope: claim.scope, key, claimedAt: now });
      return false;
    }

    const existing = await findKey(this.deps.db, claim.scope, key);
    if (!existing) {
      // Released (a 5xx) between our attempts: the caller may simply retry.
      throw new IdempotencyKeyInUse();
    }
    if (existing.request_hash !== claim.requestHash) {
      throw validationError(
        ['header', 'Idempotency-Key'],
        'This Idempotency-Key was already used with another request (method, path or body).',
        'idempotency_key_reused',
      );
    }
    if (existing.state !== 'completed' || existing.response_status === null) throw new IdempotencyKeyInUse();

    let body = '';
    try {
      body = existing.response_body ? openAnswer(this.deps.secret, existing.response_body) : '';
    } catch {
      // Sealed under another server secret (SECRET was changed): the first request did run, so it is not
      // run again; the client is told to look at the result rather than resend.
      throw validationError(
        ['header', 'Idempotency-Key'],
        'The answer kept for this Idempotency-Key can no longer be replayed; the request was already carried out.',
        'idempotency_key_unreadable',
      );
    }
    const headers = (existing.response_headers ?? {}) as Record<string, string>;
    reply.code(existing.response_status).headers(headers).header(REPLAYED_HEADER, 'true');
    await reply.send(body);
    return true;
  }

  /** After the handler (onSend): keeps an answer below 500 for the request's key, or releases the key. */
  async finish(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
    const claim = this.claims.get(request);
    if (!claim) return;
    this.claims.delete(request);
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    const storable = reply.statusCode < 500 && (body !== null || payload === undefined || payload === null);
    try {
      if (!storable) return await releaseKey(this.deps.db, claim);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value === undefined || NOT_REPLAYED.has(name.toLowerCase())) continue;
        headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
      }
      await completeKey(this.deps.db, claim, {
        status: reply.statusCode,
        headers,
        body: body ? sealAnswer(this.deps.secret, body) : '',
      });
    } catch (error) {
      // The key stays in flight until its lock ends; the answer itself is not affected.
      this.deps.log.warn({ err: error }, 'idempotency key not recorded');
    }
  }
}

/** Deletes keys older than 24 hours. */
export const cleanIdempotencyKeysJob = defineJob<Record<string, never>>({
  name: 'idempotency_keys.clean',
  schema: z.object({}),
  retryLimit: 1,
  async handle(ctx) {
    await deleteExpiredKeys(ctx.db, ctx.clock.now());
  },
});

export const cleanIdempotencyKeysSchedule: PeriodicTask = { job: cleanIdempotencyKeysJob, everySeconds: 15 * 60 };
