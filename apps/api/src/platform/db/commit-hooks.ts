import {
  PostgresDialect,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type TransactionSettings,
} from 'kysely';
import type { Executor } from './database.js';

/**
 * Work a transaction does last, just before it commits: the statements that take a lock every other
 * writer of the same row waits for (an organization's next invoice number) run there, so the lock is
 * held for the commit only instead of for the rest of the transaction.
 *
 * A hook is registered on the transaction's executor and runs when the transaction commits, whoever
 * opened it (a request, a job, the CLI, a test): the database's driver runs the hooks of a connection
 * before sending COMMIT. A hook that throws rolls the transaction back like any failed statement, and a
 * rolled-back transaction's hooks are dropped. Hooks run by phase (lower first), then in the order they
 * were registered; a hook may register more.
 */
export type CommitHook = () => Promise<void>;

interface Registered {
  phase: number;
  run: CommitHook;
}

const hooksOf = new WeakMap<DatabaseConnection, Map<string, Registered>>();
const connectionOf = new WeakMap<Executor, DatabaseConnection>();

/**
 * Runs `hook` when the transaction `db` commits, once per `key` (a second registration with the same
 * key is ignored). Returns false, registering nothing, when `db` is not a transaction: the caller does
 * the work at once (each statement on the pool commits by itself).
 */
export async function beforeCommit(db: Executor, key: string, phase: number, hook: CommitHook): Promise<boolean> {
  if (!db.isTransaction) return false;
  let connection = connectionOf.get(db);
  if (!connection) {
    // A transaction's executor always provides its one connection.
    connection = await db.getExecutor().provideConnection(async (held) => held);
    connectionOf.set(db, connection);
  }
  let hooks = hooksOf.get(connection);
  if (!hooks) {
    hooks = new Map();
    hooksOf.set(connection, hooks);
  }
  if (!hooks.has(key)) hooks.set(key, { phase, run: hook });
  return true;
}

async function runHooks(connection: DatabaseConnection): Promise<void> {
  const hooks = hooksOf.get(connection);
  if (!hooks) return;
  try {
    while (hooks.size > 0) {
      let next: [string, Registered] | undefined;
      for (const entry of hooks) if (!next || entry[1].phase < next[1].phase) next = entry;
      hooks.delete(next![0]);
      await next![1].run();
    }
  } finally {
    hooksOf.delete(connection);
  }
}

/** A driver that runs a transaction's commit hooks before its COMMIT (and drops them on rollback). */
class CommitHookDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }
  acquireConnection(): Promise<DatabaseConnection> {
    return this.inner.acquireConnection();
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    hooksOf.delete(connection);
    return this.inner.beginTransaction(connection, settings);
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await runHooks(connection);
    await this.inner.commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    hooksOf.delete(connection);
    return this.inner.rollbackTransaction(connection);
  }
  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.savepoint!(connection, name, compile);
  }
  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    return this.inner.rollbackToSavepoint!(connection, name, compile);
  }
  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    return this.inner.releaseSavepoint!(connection, name, compile);
  }
  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(connection);
  }
  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** PostgreSQL's dialect with commit hooks (every database the server opens uses it). */
export class CommitHookDialect extends PostgresDialect {
  override createDriver(): Driver {
    return new CommitHookDriver(super.createDriver());
  }
}
