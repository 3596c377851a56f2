import { join } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { pino, destination } from 'pino';
import { buildApp } from './app.js';
import type { Config, Role } from './config.js';
import { jobs as jobDefinitions, periodicTasks } from './modules/index.js';
import { WebhookDispatcher } from './modules/webhooks/webhooks.dispatcher.js';
import { PeriodicScheduler } from './platform/jobs/periodic.js';
import type { Subject } from './platform/auth/subject.js';
import { systemClock, type Clock } from './platform/clock.js';
import type { Context } from './platform/context.js';
import { openDatabase, type Database, type Executor } from './platform/db/database.js';
import { migrate } from './platform/db/migrate.js';
import { JobQueue, type JobDefinition } from './platform/jobs/queue.js';
import { loggerOptions, redactingDestination } from './platform/logging.js';
import type { AnyRoute } from './platform/http/route.js';
import { bindPaymentProcessor, createPaymentProcessor } from './platform/payments/index.js';

/**
 * One process: the database (embedded or server), migrations, the job queue, and by role the HTTP API
 * and/or the workers. `stop()` shuts them down in reverse order.
 */
export interface Runtime {
  config: Config;
  database: Database;
  jobs: JobQueue;
  clock: Clock;
  log: FastifyBaseLogger;
  app: FastifyInstance | undefined;
  /** A context for work outside a request (CLI commands, jobs). */
  context(db?: Executor, subject?: Subject): Context;
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  role?: Role;
  clock?: Clock;
  /** Listen on the configured port (false for in-process tests that use `app.inject`). */
  listen?: boolean;
  /** In-memory embedded database (tests). */
  memory?: boolean;
  /** With `memory`: the embedded snapshot to start from (the tests' migrated template). */
  memorySeed?: Blob;
  socketDir?: string;
  logger?: FastifyBaseLogger;
  routes?: AnyRoute[];
  extraJobs?: JobDefinition<never>[];
  /** Where logs go: stdout (server) or stderr (CLI commands, whose stdout is their output). */
  logTo?: 'stdout' | 'stderr';
  /** Start the job queue's workers and maintenance (default: role all or worker). */
  work?: boolean;
  /** How often idle job workers poll (seconds; tests of the wake-up set it long). */
  jobPollSeconds?: number;
}

/**
 * Stops taking connections and answers the requests in flight. A keep-alive connection that was busy
 * when the close began becomes idle only after its response; Node closes idle connections once, at
 * `close()`, so without this one would hold the close until the client hung up (a rolling restart
 * would wait out its keep-alive, then be killed with its jobs).
 */
async function drain(app: FastifyInstance | undefined): Promise<void> {
  if (!app) return;
  const closing = app.close();
  const idle = setInterval(() => app.server.closeIdleConnections(), 100);
  try {
    await closing;
  } finally {
    clearInterval(idle);
  }
}

export async function startRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const role = options.role ?? 'all';
  const clock = options.clock ?? systemClock;
  const log =
    options.logger ??
    (pino(
      loggerOptions(config.logLevel, { role }),
      // Every line is redacted on its way out (platform/logging.ts).
      redactingDestination(destination(options.logTo === 'stderr' ? 2 : 1)),
    ) as unknown as FastifyBaseLogger);

  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    memory: options.memory,
    memorySeed: options.memorySeed,
    socketDir: options.socketDir ?? (options.memory ? undefined : join(config.dataDir, 'run')),
  });
  let jobs: JobQueue | undefined;
  let app: FastifyInstance | undefined;
  let dispatcher: WebhookDispatcher | undefined;
  try {
    const applied = await migrate(database.pool);
    if (applied.length > 0) log.info({ applied }, 'migrations applied');

    const work = options.work ?? role !== 'api';
    jobs = new JobQueue(database.connection, [...jobDefinitions, ...(options.extraJobs ?? [])], log, {
      supervise: work,
      pollSeconds: options.jobPollSeconds,
    });
    await jobs.start();
    const queue = jobs;
    const payments = await createPaymentProcessor(config, { db: database.db, clock });
    const context = (db: Executor = database.db, subject: Subject = { kind: 'anonymous' }): Context => ({
      db,
      clock,
      subject,
      jobs: queue.bind(db),
      payments: bindPaymentProcessor(payments, db),
      config,
      log,
      ...(db === database.db
        ? { transactions: { transaction: (fn) => database.db.transaction().execute((tx) => fn(context(tx, subject))) } }
        : {}),
    });
    if (work) await queue.work(database.db, (db) => context(db), database);
    const periodic = work ? new PeriodicScheduler(queue.bind(database.db), clock, periodicTasks, log) : undefined;
    periodic?.start();
    const root = context();
    const webhooks = work
      ? new WebhookDispatcher(root, root.transactions!, {
          concurrency: config.webhookConcurrency,
          pollIntervalMs: config.webhookPollIntervalMs,
        })
      : undefined;
    await webhooks?.start(database);
    dispatcher = webhooks;

    if (role !== 'worker') {
      app = await buildApp({ config, database, clock, jobs: queue, payments, routes: options.routes, logger: log });
      if (options.listen ?? true) await app.listen({ port: config.port, host: config.host });
      else await app.ready();
    }

    let stopping: Promise<void> | undefined;
    return {
      config,
      database,
      jobs: queue,
      clock,
      log,
      app,
      context,
      stop() {
        stopping ??= (async () => {
          await drain(app);
          await periodic?.stop();
          await webhooks?.stop();
          await queue.stop();
          await database.close();
        })();
        return stopping;
      },
    };
  } catch (error) {
    await app?.close().catch(() => {});
    await dispatcher?.stop().catch(() => {});
    await jobs?.stop().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }
}
