import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { authorize, checkSameOrigin, resolveSubject, type AuthDeps } from '../auth/authenticate.js';
import type { Subject } from '../auth/subject.js';
import type { Clock } from '../clock.js';
import { organizationClock } from '../test-clock.js';
import type { Context } from '../context.js';
import type { Db, Executor } from '../db/database.js';
import type { JobQueue } from '../jobs/queue.js';
import { bindPaymentProcessor } from '../payments/index.js';
import type { PaymentProcessor } from '../payments/processor.js';
import { RequestValidationError, type ValidationIssue } from './errors.js';
import { collectMetadataQuery } from './query.js';
import { CommitThenFail, type AnyRoute, type RouteReply } from './route.js';
import { safeParseInput, toValidationIssues } from './validation.js';
import { RateLimiter } from './rate-limit.js';
import { ResponseCache } from './response-cache.js';
import { acceptsIdempotencyKey, Idempotency } from './idempotency.js';
import { SESSION_COOKIE } from '../../modules/auth/auth.service.js';

export interface RouteDeps {
  db: Db;
  config: Config;
  clock: Clock;
  jobs: JobQueue;
  payments?: PaymentProcessor;
}

const UNSAFE = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** `{id}` placeholders (OpenAPI, SDK) to Fastify's `:id`. */
export function fastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

function parseInputs(route: AnyRoute, request: FastifyRequest) {
  const issues: ValidationIssue[] = [];
  const parse = (schema: AnyRoute['body'], value: unknown, where: 'path' | 'query' | 'body') => {
    if (!schema) return undefined;
    const result = safeParseInput(schema, value);
    if (result.success) return result.data;
    issues.push(...toValidationIssues(result.error.issues, [where]));
    return undefined;
  };
  const params = parse(route.params, request.params, 'path');
  const query = parse(route.query, collectMetadataQuery((request.query ?? {}) as Record<string, unknown>), 'query');
  const body = route.fastBody?.(request.body) ?? parse(route.body, request.body, 'body');
  // Every problem of the request at once, in one 422.
  if (issues.length > 0) throw new RequestValidationError(issues);
  return { params, query, body };
}

type ReplyAdapter = RouteReply & { redirectTo?: { url: string; status: number }; isAccepted?: boolean };

function replyAdapter(reply: FastifyReply): ReplyAdapter {
  const adapter: ReplyAdapter = {
    setCookie: (name, value, options) => void reply.setCookie(name, value, options),
    clearCookie: (name, options) => void reply.clearCookie(name, options),
    header: (name, value) => void reply.header(name, value),
    redirect: (url, status = 307) => {
      adapter.redirectTo = { url, status };
    },
    accepted: () => {
      adapter.isAccepted = true;
      return undefined as never;
    },
  };
  return adapter;
}

/** Runs `work` in a transaction; a `CommitThenFail` commits what was written, then its error is thrown. */
async function inTransaction<T>(deps: RouteDeps, work: (db: Executor) => Promise<T>): Promise<T> {
  const outcome = await deps.db.transaction().execute(async (tx) => {
    try {
      return { value: await work(tx) };
    } catch (error) {
      if (error instanceof CommitThenFail) return { failure: error.error };
      throw error;
    }
  });
  if ('failure' in outcome) throw outcome.failure;
  return outcome.value;
}

export function registerRoutes(app: FastifyInstance, routes: AnyRoute[], deps: RouteDeps): void {
  const authDeps: AuthDeps = {
    db: deps.db,
    config: deps.config,
    clock: deps.clock,
    onBackgroundError: (error) => app.log.warn({ err: error }, 'background write failed'),
  };
  const ownOrigin = new URL(deps.config.baseUrl).origin;
  const subjects = new WeakMap<FastifyRequest, Subject>();
  // Counters and keys on the pool, outside every request transaction (platform/http/rate-limit.ts, idempotency.ts).
  const limiter = new RateLimiter({
    db: deps.db,
    clock: deps.clock,
    config: deps.config,
    onFlushError: (error) => app.log.warn({ err: error }, 'rate-limit counts not written yet'),
  });
  // The counts made on this node since the last write go to the shared store before the database closes.
  app.addHook('onClose', () => limiter.close());
  const idempotency = new Idempotency({ db: deps.db, clock: deps.clock, log: app.log, secret: deps.config.secret });
  const answers = new ResponseCache();

  for (const route of routes) {
    if (route.developmentOnly && !deps.config.devMode) continue;
    // OAuth's wire: described in OpenAPI, served by modules/oauth2/oauth2.http.ts.
    if (route.oauth2) continue;
    const limits = limiter.rulesFor(route);
    const idempotent = acceptsIdempotencyKey(route);
    app.route({
      method: route.method,
      url: fastifyPath(route.path),
      // Authentication runs before the body is read: no credentials is a 401 whatever the body holds.
      onRequest: async (request) => {
        const resolved = await resolveSubject(authDeps, {
          authorization: request.headers.authorization,
          sessionCookie: request.cookies[SESSION_COOKIE],
          withTokenOrganization: route.readsTokenOrganization,
        });
        const subject = authorize(resolved, route.auth);
        if (UNSAFE.has(route.method)) {
          const cookieAuthenticated = subject.kind === 'user' && subject.viaCookie;
          // Sign-in forms are guarded too (login CSRF) whenever a browser tells us the origin.
          if (cookieAuthenticated || (route.path.startsWith('/v1/auth/') && request.headers.origin)) {
            checkSameOrigin(request.headers, [ownOrigin, `${request.protocol}://${request.host}`]);
          }
        }
        subjects.set(request, subject);
      },
      // After auth and body parsing, before the handler: count the request, then claim its Idempotency-Key.
      preHandler: async (request, reply) => {
        const subject = subjects.get(request)!;
        await limiter.check(limits, request, reply, subject);
        if (idempotent && (await idempotency.begin(request, reply, subject))) return reply;
      },
      ...(idempotent
        ? {
            onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
              await idempotency.finish(request, reply, payload);
              return payload;
            },
          }
        : {}),
      handler: async (request, reply) => {
        const subject = subjects.get(request)!;
        const input = parseInputs(route, request);
        const cacheKey = route.cachedUnder && cacheKeyOf(route, subject, input);
        const kept = cacheKey === undefined ? undefined : answers.get(cacheKey);
        if (kept !== undefined) return reply.code(route.status).type('application/json; charset=utf-8').send(kept);
        const adapter = replyAdapter(reply);
        // A caller acting for one organization reads that organization's (test) clock.
        const clock =
          'organizationId' in subject
            ? await organizationClock(deps.db, deps.config, deps.clock, subject.organizationId)
            : deps.clock;
        const contextOf = (db: Executor): Context => ({
          db,
          clock,
          subject,
          jobs: deps.jobs.bind(db),
          payments: deps.payments && bindPaymentProcessor(deps.payments, db),
          config: deps.config,
          log: request.log,
          request: {
            ip: request.ip,
            userAgent: request.headers['user-agent'],
            accept: request.headers.accept,
            cookies: request.cookies,
          },
        });
        const run = (db: Executor) => route.handler(contextOf(db), input as never, adapter);
        const output =
          (route.transaction ?? UNSAFE.has(route.method))
            ? await inTransaction(deps, run)
            : await route
                .handler(
                  {
                    ...contextOf(deps.db),
                    transactions: { transaction: (fn) => inTransaction(deps, (tx) => fn(contextOf(tx))) },
                  },
                  input as never,
                  adapter,
                )
                .catch((error: unknown) => {
                  throw error instanceof CommitThenFail ? error.error : error;
                });

        if (adapter.redirectTo) return reply.redirect(adapter.redirectTo.url, adapter.redirectTo.status);
        if (adapter.isAccepted && route.accepted) return reply.code(202).send();
        if (route.status === 204) return reply.code(204).send();
        // A stream is sent as it is read (an export); it has no body to check.
        if (output instanceof Readable) {
          return reply
            .code(route.status)
            .type(`${route.produces ?? 'text/csv'}; charset=utf-8`)
            .send(output);
        }
        if (deps.config.validateResponses && route.response) {
          const checked = route.response.safeParse(output);
          if (!checked.success) {
            request.log.error(
              { issues: checked.error.issues, route: route.operationId },
              'response does not match its schema',
            );
            throw new Error(`response of ${route.operationId} does not match its schema`);
          }
        }
        if (route.produces && !route.alsoJson) {
          return reply.code(route.status).type(`${route.produces}; charset=utf-8`).send(output);
        }
        const text = JSON.stringify(output ?? {});
        if (cacheKey !== undefined) answers.set(cacheKey, text);
        return reply.code(route.status).type('application/json; charset=utf-8').send(text);
      },
    });
  }
}

/** The route's own key for an answer (route.ts `cachedUnder`), under its operation. */
function cacheKeyOf(route: AnyRoute, subject: Subject, input: ReturnType<typeof parseInputs>): string | undefined {
  const key = route.cachedUnder!(subject, input as never);
  return key === undefined ? undefined : `${route.operationId} ${key}`;
}
