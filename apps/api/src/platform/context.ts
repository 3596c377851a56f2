import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Subject } from './auth/subject.js';
import type { Clock } from './clock.js';
import type { Executor } from './db/database.js';
import type { JobRun, Jobs } from './jobs/queue.js';
import type { PaymentProcessor } from './payments/processor.js';

/**
 * What every service receives: the executor (a transaction for writes, so services never commit),
 * the clock, the caller, the job queue bound to the same transaction, configuration and a logger.
 */
export interface Context {
  db: Executor;
  clock: Clock;
  subject: Subject;
  jobs: Jobs;
  config: Config;
  log: FastifyBaseLogger;
  /** The payment processor, bound to `db` (simulated state commits or rolls back with the caller). */
  payments?: PaymentProcessor;
  /**
   * Opens a short transaction with a context bound to it. Present where `db` is the pool (routes with
   * `transaction: false`, non-transactional jobs, the CLI); inside a transaction the work runs in it.
   */
  transactions?: JobRun;
  /** The caller's IP address and user agent, when there is a request. */
  request?: {
    ip: string;
    userAgent: string | undefined;
    /** The request's Accept header (an export answers CSV or JSON by it). */
    accept?: string;
    /** The request's cookies (only the portal's session keeper reads one; no cookie authenticates a portal call). */
    cookies?: Readonly<Record<string, string | undefined>>;
  };
}
