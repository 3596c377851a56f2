import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Config } from './config.js';
import { routes as allRoutes } from './modules/index.js';
import type { Clock } from './platform/clock.js';
import type { Database } from './platform/db/database.js';
import { pendingMigrations } from './platform/db/migrate.js';
import {
  ApiError,
  BadRequest,
  PayloadTooLarge,
  RequestHeaderFieldsTooLarge,
  RequestTimeout,
  ResourceNotFound,
  UnsupportedMediaType,
  UriTooLong,
  validationError,
} from './platform/http/errors.js';
import { registerBenchRoutes } from './platform/http/bench-routes.js';
import { buildOpenApiDocument } from './platform/http/openapi.js';
import { registerRoutes } from './platform/http/register.js';
import { requestLoggingOptions } from './platform/http/request-logging.js';
import type { AnyRoute } from './platform/http/route.js';
import type { JobQueue } from './platform/jobs/queue.js';
import { WEB_DIST_DIR } from './paths.js';
import { isSimulated } from './platform/payments/index.js';
import type { PaymentProcessor } from './platform/payments/processor.js';
import { registerSimulatedProcessorRoutes } from './platform/payments/simulated.js';
import { registerStripeWebhookRoute } from './modules/stripe-webhooks/stripe-webhooks.routes.js';
import { registerStorageDownloadRoute, registerStorageUploadRoutes } from './platform/storage/storage.routes.js';
import { registerOAuth2Routes } from './modules/oauth2/oauth2.http.js';
import { VERSION } from './version.js';

export interface AppDeps {
  config: Config;
  database: Database;
  clock: Clock;
  jobs: JobQueue;
  routes?: AnyRoute[];
  logger: FastifyBaseLogger;
  payments?: PaymentProcessor;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * The longest value a path carries is a customer's external ID (256 characters), each up to nine
 * characters once percent-encoded.
 */
export const MAX_PATH_PARAM_LENGTH = 256 * 9;

function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const answer =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new UriTooLong()
      : error.code === 'FST_ERR_BAD_URL'
        ? new BadRequest('The URL is not validly percent-encoded')
        : new BadRequest(error.message);
  void reply.code(answer.status).headers(answer.headers).type('application/json').send(answer.body());
}

/** Errors the HTTP parser meets before Fastify has a request, answered in the API's shape. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  let answer: ApiError;
  if (error.code === 'HPE_HEADER_OVERFLOW') answer = new RequestHeaderFieldsTooLarge();
  else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') answer = new RequestTimeout();
  else answer = new BadRequest('Malformed HTTP request');
  const body = JSON.stringify(answer.body());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\nConnection: close\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

// Pages of the web app (apps/web/src/app/router.tsx), never API, docs or asset paths (/invite/<token> is
// the accept-invitation page of an invitation email). The customer
// portal lives at /portal/<slug>; the older /<slug>/portal still loads the app, which redirects it.
const WEB_APP_PAGE =
  /^\/(?:login|signup|invite\/[^/]+|dashboard(?:\/.*)?|checkout\/[^/]+(?:\/.*)?|portal\/[^/]+(?:\/.*)?|(?!v1\/|docs\/|assets\/)[^/]+\/portal(?:\/.*)?)\/?$/;

export function isWebAppPage(method: string, url: string): boolean {
  return (method === 'GET' || method === 'HEAD') && WEB_APP_PAGE.test(url.split('?')[0]!);
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const routes = deps.routes ?? allRoutes;
  const app = Fastify({
    loggerInstance: deps.logger,
    // One line a request, written as it completes; request loggers built only when written to
    // (platform/http/request-logging.ts).
    ...requestLoggingOptions(),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_PARAM_LENGTH },
    // Requests the router refuses (bad percent-encoding, a path parameter beyond any field) and the
    // HTTP parser refuses (oversized request line or headers) answer in the API's error shape.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });

  await app.register(fastifyCookie);

  // Our own JSON parser: an empty body is "no body" (a 422 where one is required), malformed JSON is a
  // 422 in the validation shape, never a 5xx.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: config.bodyLimit },
    (_request, body, done) => {
      const text = (body as string).trim();
      if (text === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch (error) {
        done(validationError(['body'], `JSON decode error: ${(error as Error).message}`, 'json_invalid'), undefined);
      }
    },
  );

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    let apiError: ApiError | undefined;
    if (error instanceof ApiError) apiError = error;
    else if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      apiError = new PayloadTooLarge(`Request body is larger than the limit of ${config.bodyLimit} bytes (BODY_LIMIT)`);
    } else if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') apiError = new UnsupportedMediaType();
    else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      apiError = new BadRequest(error.message);
    }
    if (apiError) {
      return reply.code(apiError.status).headers(apiError.headers).type('application/json').send(apiError.body());
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .code(500)
      .type('application/json')
      .send({ error: 'InternalServerError', detail: 'Internal server error' });
  });

  const webIndex = join(WEB_DIST_DIR, 'index.html');
  app.setNotFoundHandler(async (request, reply) => {
    if (isWebAppPage(request.method, request.url) && existsSync(webIndex)) {
      // The web app routes in the browser: its pages all answer the same index.html.
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(await readFile(webIndex));
    }
    const error = new ResourceNotFound();
    return reply.code(404).type('application/json').send(error.body());
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await deps.database.pool.query('SELECT 1');
      const pending = await pendingMigrations(deps.database.pool);
      if (pending.length > 0) return reply.code(503).send({ status: 'migrations pending', pending });
      return { status: 'ready' };
    } catch (error) {
      return reply.code(503).send({ status: 'database unreachable', detail: (error as Error).message });
    }
  });

  // The OpenAPI document is built at its first request (/openapi.json, /docs/json), not at start:
  // converting every route's zod schemas to JSON Schema took about a third of the start-up and kept
  // about 3 MB in an idle server's heap. @fastify/swagger (which /docs needs) holds only a stub;
  // swagger-ui's transformSpecification answers /docs/json with the real document.
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  let documentJson: string | undefined;
  const openApiDocument = () => (document ??= buildOpenApiDocument(routes, { version: VERSION }));
  app.get('/openapi.json', async (_request, reply) =>
    reply.type('application/json').send((documentJson ??= JSON.stringify(openApiDocument()))),
  );
  const stub = { openapi: '3.1.0', info: { title: 'Tessera', version: VERSION }, paths: {} };
  await app.register(fastifySwagger, { mode: 'static', specification: { document: stub as never } });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    transformSpecification: () => openApiDocument(),
    transformSpecificationClone: false,
  });

  registerRoutes(app, routes, {
    db: deps.database.db,
    config,
    clock: deps.clock,
    jobs: deps.jobs,
    payments: deps.payments,
  });
  if (config.benchRoutes) registerBenchRoutes(app, deps.database.pool);
  if (deps.payments && isSimulated(deps.payments))
    registerSimulatedProcessorRoutes(app, { db: deps.database.db, clock: deps.clock });
  registerStripeWebhookRoute(app, {
    db: deps.database.db,
    config,
    clock: deps.clock,
    jobs: deps.jobs,
    payments: deps.payments,
  });
  registerStorageDownloadRoute(app, { config, clock: deps.clock });
  await registerStorageUploadRoutes(app, { config, clock: deps.clock });
  // The OAuth2 / OpenID Connect server (oidc-provider) and the reference's calls around it.
  await registerOAuth2Routes(app, { db: deps.database.db, config, clock: deps.clock });

  if (existsSync(WEB_DIST_DIR)) {
    await app.register(fastifyStatic, { root: WEB_DIST_DIR, prefix: '/', decorateReply: false, wildcard: false });
  }

  return app;
}
