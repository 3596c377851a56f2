import { join } from 'node:path';
import { CompiledQuery, Kysely, type Transaction } from 'kysely';
import { CommitHookDialect } from './commit-hooks.js';
import pg from 'pg';
import type { DB } from '../../db/schema.js';
import type { EmbeddedDatabase } from './embedded.js';
import { NamedStatementClient } from './named-statements.js';
// Before any query: pg's results are built the faster way (see the module).
import './pg-results.js';

// int8 (counts, amounts in minor units) as JS numbers; refuse silently losing precision.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new Error(`int8 value ${value} exceeds the safe integer range`);
  return parsed;
});
// numeric stays a string unless a module decides otherwise; json/jsonb are parsed by pg already.

export type Db = Kysely<DB>;
export type Tx = Transaction<DB>;
/** Either the pool-backed database or an open transaction; repositories accept both. */
export type Executor = Kysely<DB>;

export interface Database {
  db: Db;
  pool: pg.Pool;
  /** Connection settings for other clients of the same database (the job queue). */
  connection: pg.PoolConfig;
  embedded: EmbeddedDatabase | undefined;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  databaseUrl?: string;
  /** Embedded database directory; undefined with `memory` for an in-memory database. */
  dataDir?: string;
  memory?: boolean;
  /** With `memory`: start from this embedded snapshot (tests start from a migrated one). */
  memorySeed?: Blob;
  socketDir?: string;
  poolSize?: number;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  let embedded: EmbeddedDatabase | undefined;
  let connection: pg.PoolConfig;
  if (options.databaseUrl) {
    connection = { connectionString: options.databaseUrl };
  } else {
    if (!options.dataDir && !options.socketDir)
      throw new Error('openDatabase needs a databaseUrl, a dataDir or a socketDir');
    const socketDir = options.socketDir ?? join(options.dataDir!, 'run');
    // Loaded here, not at the top: a process on a PostgreSQL server never needs PGlite's module
    // (its JavaScript alone holds about 5 MB of a server's idle memory).
    const { openEmbedded } = await import('./embedded.js');
    embedded = await openEmbedded({
      dataDir: options.memory ? undefined : options.dataDir,
      socketDir,
      seed: options.memory ? options.memorySeed : undefined,
    });
    connection = embedded.connection;
  }
  // On a server, the hot statements are sent by name (named-statements.ts); the embedded database is one
  // session shared by every connection, where names would collide.
  const pool = new pg.Pool({
    ...connection,
    max: options.poolSize ?? 10,
    ...(embedded ? {} : { Client: NamedStatementClient }),
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new CommitHookDialect({ pool }) });
  return {
    db,
    pool,
    connection,
    embedded,
    async close() {
      await db.destroy();
      // Kysely ends the pool only if it used it; commands that used the pool directly need this.
      if (!pool.ended) await pool.end();
      await embedded?.stop();
    },
  };
}

/** Runs raw SQL on an executor (used by the job queue to insert jobs inside our transaction). */
export async function executeRaw(
  executor: Executor,
  text: string,
  values: unknown[] = [],
): Promise<{ rows: unknown[] }> {
  const result = await executor.executeQuery(CompiledQuery.raw(text, values));
  return { rows: result.rows as unknown[] };
}
