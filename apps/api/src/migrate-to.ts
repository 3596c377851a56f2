import type { FastifyBaseLogger } from 'fastify';
import { destination, pino } from 'pino';
import type { Config } from './config.js';
import { jobs as jobDefinitions } from './modules/index.js';
import {
  assertEmptyTarget,
  copyDatabase,
  countRows,
  type CopyProgress,
  type CopyResult,
} from './platform/db/copy-database.js';
import { openDatabase, type Database } from './platform/db/database.js';
import { migrate } from './platform/db/migrate.js';
import { JOB_SCHEMA, JobQueue } from './platform/jobs/queue.js';
import { loggerOptions, redactingDestination } from './platform/logging.js';

/**
 * `tessera migrate-to --database-url …`: an embedded installation (DATA_DIR) moved into an empty
 * PostgreSQL database. The source is brought to the current version first (as `serve` would), the
 * target gets its schema the way every server database gets it (migrations, then the job queue's
 * own schema and queues), and `copyDatabase` copies every row of both schemas in one transaction.
 * What does not live in the database stays the operator's to carry over: the SECRET (DATA_DIR/secret
 * unless set) and, with the local-disk storage, DATA_DIR/storage (docs/operations.md).
 */
export class MigrateToRefused extends Error {}

export interface MigrateToOptions {
  batchSize?: number;
  onTable?: (progress: CopyProgress) => void;
}

const SCHEMAS = ['public', JOB_SCHEMA];

/** Brings the job queue's schema and queues to this version (pg-boss migrates itself on start). */
async function prepareJobQueue(database: Database, log: FastifyBaseLogger): Promise<void> {
  const queue = new JobQueue(database.connection, jobDefinitions, log, { supervise: false });
  await queue.start();
  await queue.stop();
}

export async function migrateTo(
  config: Config,
  databaseUrl: string,
  options: MigrateToOptions = {},
): Promise<CopyResult> {
  const log = pino(
    loggerOptions(config.logLevel, { command: 'migrate-to' }),
    redactingDestination(destination(2)),
  ) as unknown as FastifyBaseLogger;

  const source = await openDatabase({ dataDir: config.dataDir, poolSize: 2 });
  try {
    if (!source.embedded?.owned) {
      // Rows written while the copy runs would be lost: the installation must be stopped.
      throw new MigrateToRefused(`a server is running on ${config.dataDir}: stop it, then run migrate-to again`);
    }
    const target = await openDatabase({ databaseUrl, poolSize: 2 });
    try {
      await assertEmptyTarget(target.pool);
      await migrate(source.pool);
      await prepareJobQueue(source, log);
      await migrate(target.pool);
      await prepareJobQueue(target, log);

      const result = await copyDatabase(source.pool, target.pool, {
        schemas: SCHEMAS,
        jobSchema: JOB_SCHEMA,
        batchSize: options.batchSize,
        onTable: options.onTable,
      });

      const expected = await countRows(source.pool, SCHEMAS);
      const actual = await countRows(target.pool, SCHEMAS);
      for (const [table, rows] of expected) {
        if (actual.get(table) !== rows)
          throw new Error(`${table}: ${rows} rows in the source, ${actual.get(table) ?? 0} in the target`);
      }
      return result;
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}
