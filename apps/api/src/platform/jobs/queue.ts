import type { Clock } from '../clock.js';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import type { z } from 'zod/v4';
import type { Context } from '../context.js';
import { executeRaw, type Database, type Db, type Executor } from '../db/database.js';
import { listenTo, type Listening } from '../db/notifications.js';
import { installJobWakeTrigger, JOB_WAKE_CHANNEL } from './wake.js';

/**
 * Jobs run on pg-boss in the same database. A job is enqueued through the executor of the caller's
 * transaction (pg-boss's `db` option), so it exists only if that transaction commits: this is the
 * outbox. Handlers run inside a transaction of their own (unless `transaction: false`) and are retried
 * when they throw.
 */
export interface JobDefinition<T = unknown> {
  name: string;
  schema: z.ZodType<T>;
  /** `run` is always given by the queue (optional only so that tests can call a handler directly). */
  handle(ctx: Context, data: T, run?: JobRun): Promise<void>;
  /**
   * false: the handler runs on the pool, outside any transaction (`ctx.db` is the root database,
   * `ctx.jobs` bound to it), and opens short transactions itself with `run.transaction`. For handlers
   * that wait on something slow (a network call): with the embedded database an open transaction
   * holds the database's turn, so it must never span such a wait. Default true.
   */
  transaction?: boolean;
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
  /**
   * pg-boss's queue policy, fixed when the queue is created. `short`: at most one job per singleton key
   * waits to start (enqueues while one waits do nothing), so frequent triggers coalesce into one run.
   */
  policy?: 'standard' | 'short';
}

export function defineJob<T>(definition: JobDefinition<T>): JobDefinition<T> {
  return definition;
}

export interface EnqueueOptions {
  startAfter?: Date | number;
  /** At most one queued job per key (pg-boss singleton), for idempotent scheduling. */
  singletonKey?: string;
  /**
   * The job's id (a uuid). A second enqueue with the same id does nothing, whatever the state of the
   * first (pg-boss inserts with ON CONFLICT DO NOTHING on its key): enqueued once across processes.
   */
  id?: string;
}

export interface Jobs {
  enqueue<T>(job: JobDefinition<T>, data: T, options?: EnqueueOptions): Promise<string | null>;
  /**
   * Several jobs of one definition in one statement, each with its id (as `enqueue`'s `id`: a job
   * whose id exists already is not enqueued again), to start now.
   */
  enqueueMany<T>(job: JobDefinition<T>, jobs: readonly { id: string; data: T }[]): Promise<void>;
}

/** pg-boss's schema (its default), named for the few queries that look at queued jobs. */
export const JOB_SCHEMA = 'pgboss';

export type ContextFactory = (db: Executor) => Context;

/** What a handler gets besides its context. */
export interface JobRun {
  /**
   * Runs `fn` in a transaction with a context bound to it (its `db` and `jobs`), committed when `fn`
   * resolves. In a transactional job this is the job's own transaction (no new one is opened).
   */
  transaction<R>(fn: (ctx: Context) => Promise<R>): Promise<R>;
}

/** The same run, its transactions' contexts on `clock` (an organization's test clock). */
export function runOnClock(run: JobRun, clock: Clock): JobRun {
  return { transaction: (fn) => run.transaction((tx) => fn({ ...tx, clock })) };
}

/** A JobRun whose transactions are the context's own executor (transactional jobs, direct calls). */
export function runIn(ctx: Context): JobRun {
  return { transaction: (fn) => fn(ctx) };
}

/**
 * How often an idle worker looks for jobs of its queue. Workers are woken by each committed job
 * (wake.ts); the poll finds what no notification announced: jobs whose start time came (retries,
 * `startAfter`), and jobs committed while the listening connection was down.
 */
const POLL_SECONDS = 2;

export interface JobQueueOptions {
  /** Run pg-boss's maintenance (where jobs are worked). */
  supervise: boolean;
  /** How often idle workers poll, in seconds (POLL_SECONDS). */
  pollSeconds?: number;
}

export class JobQueue {
  readonly boss: PgBoss;
  private readonly definitions = new Map<string, JobDefinition<never>>();
  private started = false;
  /** pg-boss worker ids by queue name, to wake them. */
  private readonly workers = new Map<string, string[]>();
  private listening: Listening | undefined;

  constructor(
    connection: pg.PoolConfig,
    definitions: JobDefinition<never>[],
    private readonly log: FastifyBaseLogger,
    private readonly options: JobQueueOptions = { supervise: true },
  ) {
    this.boss = new PgBoss({
      ...(connection.connectionString
        ? { connectionString: connection.connectionString }
        : {
            host: connection.host as string,
            port: connection.port as number,
            user: connection.user as string,
            database: connection.database as string,
          }),
      schema: JOB_SCHEMA,
      max: 4,
      // Maintenance runs where jobs are worked; API-only nodes and CLI commands only send.
      supervise: options.supervise,
      schedule: false,
    });
    this.boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
    for (const definition of definitions) this.define(definition);
  }

  define(definition: JobDefinition<never>): void {
    this.definitions.set(definition.name, definition);
  }

  async start(): Promise<void> {
    await this.boss.start();
    this.started = true;
    for (const definition of this.definitions.values()) await this.ensureQueue(definition);
    await installJobWakeTrigger(this.boss, JOB_SCHEMA);
  }

  private async ensureQueue(definition: JobDefinition<never>): Promise<void> {
    const existing = await this.boss.getQueue(definition.name);
    const options = {
      name: definition.name,
      retryLimit: definition.retryLimit ?? 5,
      retryDelay: definition.retryDelaySeconds ?? 10,
      retryBackoff: definition.retryBackoff ?? true,
      expireInSeconds: definition.expireInSeconds ?? 15 * 60,
    };
    if (!existing)
      await this.boss.createQueue(definition.name, { ...options, policy: definition.policy ?? 'standard' });
    else await this.boss.updateQueue(definition.name, options);
  }

  /** Jobs bound to an executor: inside a transaction, the job commits or rolls back with it. */
  bind(executor: Executor): Jobs {
    const db = { executeSql: (text: string, values: unknown[]) => executeRaw(executor, text, values) };
    const known = (name: string) => {
      if (!this.started) throw new Error('the job queue is not started');
      if (!this.definitions.has(name)) throw new Error(`unknown job ${name}`);
    };
    return {
      enqueue: async (job, data, options = {}) => {
        known(job.name);
        const payload = job.schema.parse(data);
        return this.boss.send(job.name, payload as object, {
          ...(options.startAfter !== undefined ? { startAfter: options.startAfter } : {}),
          ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
          ...(options.id ? { id: options.id } : {}),
          db,
        });
      },
      enqueueMany: async (job, jobs) => {
        known(job.name);
        if (jobs.length === 0) return;
        // pg-boss's insert: one statement, the queue's retry and expiry settings, ON CONFLICT DO NOTHING.
        await this.boss.insert(
          jobs.map(({ id, data }) => ({ id, name: job.name, data: job.schema.parse(data) as object })),
          { db },
        );
      },
    };
  }

  /**
   * Starts workers for every defined job; each job runs in its own transaction, or on the pool with
   * `transaction: false`. With `database`, a worker is woken as soon as a job of its queue commits.
   */
  async work(db: Db, makeContext: ContextFactory, database?: Database): Promise<void> {
    const ownTransactions: JobRun = {
      transaction: (fn) => db.transaction().execute((tx) => fn(makeContext(tx))),
    };
    for (const definition of this.definitions.values()) {
      const worker = { id: '' };
      worker.id = await this.boss.work(
        definition.name,
        { pollingIntervalSeconds: this.options.pollSeconds ?? POLL_SECONDS, batchSize: 1 },
        async (jobs) => {
          for (const job of jobs) {
            const data = definition.schema.parse(job.data) as never;
            if (definition.transaction === false) {
              await definition.handle(makeContext(db), data, ownTransactions);
              continue;
            }
            await db.transaction().execute((tx) => {
              const ctx = makeContext(tx);
              return definition.handle(ctx, data, runIn(ctx));
            });
          }
          // pg-boss waits out its polling interval even after a fetch that found a job: the next job
          // of a burst (one transaction enqueues several, notified once) is fetched at once instead.
          if (worker.id) this.boss.notifyWorker(worker.id);
        },
      );
      this.workers.set(definition.name, [...(this.workers.get(definition.name) ?? []), worker.id]);
    }
    if (database) {
      this.listening = await listenTo(database, JOB_WAKE_CHANNEL, (name) => this.wake(name), this.log);
    }
  }

  /** Wakes the workers of a queue (all of them when notifications may have been missed). */
  private wake(name: string | undefined): void {
    const ids = name === undefined ? [...this.workers.values()].flat() : (this.workers.get(name) ?? []);
    for (const id of ids) this.boss.notifyWorker(id);
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.listening?.stop();
    this.listening = undefined;
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}
