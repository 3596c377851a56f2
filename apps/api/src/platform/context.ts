import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Subject } from './auth/subject.js';
import type { Clock } from './clock.js';
import type { Executor } from './db/database.js';
import type { Jobs } from './jobs/queue.js';
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
  /** The caller's IP address and user agent, when there is a request. */
  request?: { ip: string; userAgent: string | undefined };
}
