import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../src/config.js';
import { ManualClock, type Clock } from '../src/platform/clock.js';
import type { Subject } from '../src/platform/auth/subject.js';
import type { Context } from '../src/platform/context.js';
import type { JobDefinition } from '../src/platform/jobs/queue.js';
import type { AnyRoute } from '../src/platform/http/route.js';
import { routes } from '../src/modules/index.js';
import { startRuntime, type Runtime } from '../src/runtime.js';
import {
  createServerDatabase,
  embeddedTemplateSeed,
  SERVER_TEMPLATE_ENV,
  type ServerDatabase,
} from './database-template.js';

/**
 * The test harness: a real server on a real database per test file. By default the embedded
 * database (in-memory PGlite behind the same socket and `pg` driver as production); with
 * TEST_DATABASE_URL, a fresh database on that PostgreSQL server, dropped afterwards.
 */
export interface TestServer {
  runtime: Runtime;
  app: FastifyInstance;
  config: Config;
  clock: Clock;
  /** Base URL when started with `listen: true` (SDK and CLI tests). */
  url: string;
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  context(subject?: Subject): Context;
  stop(): Promise<void>;
}

export interface TestServerOptions {
  listen?: boolean;
  clock?: Clock;
  extraJobs?: JobDefinition<never>[];
  /** Routes added to the application's own (tests of the route wrapper). */
  extraRoutes?: AnyRoute[];
  /** Persist the embedded database in this directory (restart tests). */
  dataDir?: string;
  /** Reuse a server database created by an earlier `startTestServer` (restart tests). */
  databaseUrl?: string;
  config?: Partial<Config>;
  /** false: no workers and no periodic jobs (benchmarks that run the work themselves). Default true. */
  work?: boolean;
  /** How often idle job workers poll, in seconds (default the queue's). */
  jobPollSeconds?: number;
}

export const TEST_SECRET = 'test-secret-0123456789abcdefghijklmnopqrstuvwxyz';

/** A fresh server database, a copy of the run's migrated template (database-template.ts) when there is one. */
function createTestDatabase(adminUrl: string): Promise<ServerDatabase> {
  return createServerDatabase(adminUrl, { prefix: 'tessera_test', template: process.env[SERVER_TEMPLATE_ENV] });
}

export function usingServerDatabase(): boolean {
  return Boolean(process.env.TEST_DATABASE_URL);
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const scratch = mkdtempSync(join(tmpdir(), 'tessera-test-'));
  let database: { url: string; drop(): Promise<void> } | undefined;
  if (options.databaseUrl) database = { url: options.databaseUrl, drop: async () => {} };
  else if (process.env.TEST_DATABASE_URL && !options.dataDir)
    database = await createTestDatabase(process.env.TEST_DATABASE_URL);

  const clock = options.clock ?? new ManualClock('2026-01-15T12:00:00.000Z');
  const config = loadConfig(
    { NODE_ENV: 'test' },
    {
      dataDir: options.dataDir ?? scratch,
      secret: TEST_SECRET,
      port: 0,
      host: '127.0.0.1',
      baseUrl: 'http://127.0.0.1',
      logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
      databaseUrl: database?.url,
      // Limits stay finite but out of the way; rate-limit tests set low ones.
      rateLimits: { apiPerMinute: 1_000_000, scale: 1000 },
      ...options.config,
    },
  );
  const runtime = await startRuntime(config, {
    clock,
    listen: options.listen ?? false,
    memory: !database && !options.dataDir,
    memorySeed: !database && !options.dataDir ? embeddedTemplateSeed() : undefined,
    socketDir: options.dataDir ? join(options.dataDir, 'run') : join(scratch, 'run'),
    extraJobs: options.extraJobs,
    work: options.work,
    jobPollSeconds: options.jobPollSeconds,
    routes: options.extraRoutes ? [...routes, ...options.extraRoutes] : undefined,
  });
  const app = runtime.app!;
  let url = '';
  if (options.listen) {
    const address = app.server.address();
    if (address && typeof address === 'object') url = `http://127.0.0.1:${address.port}`;
  }
  return {
    runtime,
    app,
    config,
    clock,
    url,
    inject: (injectOptions) => app.inject(injectOptions),
    context: (subject) => runtime.context(runtime.database.db, subject),
    async stop() {
      await runtime.stop();
      // A restart test keeps its database for the next server; the harness-created one is dropped.
      if (!options.databaseUrl) await database?.drop();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** Keeps a server database alive across several `startTestServer` calls (restart tests). */
export async function reusableServerDatabase(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  return process.env.TEST_DATABASE_URL ? createTestDatabase(process.env.TEST_DATABASE_URL) : undefined;
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

export function json(response: LightMyRequestResponse): any {
  return JSON.parse(response.body);
}
