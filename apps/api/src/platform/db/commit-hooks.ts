import {
  PostgresDialect,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type TransactionSettings,
} from 'kysely';
import type { Executor } from './database.js';
import { connectionOfTransaction, TransactionConnection } from './deferred-writes.js';

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

/**
 * Runs `hook` when the transaction `db` commits, once per `key` (a second registration with the same
 * key is ignored). Returns false, registering nothing, when `db` is not a transaction: the caller does
 * the work at once (each statement on the pool commits by itself).
 */
export async function beforeCommit(db: Executor, key: string, phase: number, hook: CommitHook): Promise<boolean> {
  if (!db.isTransaction) return false;
  const connection = await connectionOfTransaction(db);
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

/**
 * A driver that runs a transaction's commit hooks before its COMMIT (and drops them on rollback), and
 * whose connections send a transaction's kept writes before its next statement (deferred-writes.ts).
 */
class CommitHookDriver implements Driver {
  /** The driver's connections live as long as the pool's clients: one wrapper each. */
  private readonly wrapped = new WeakMap<DatabaseConnection, TransactionConnection>();

  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let wrapper = this.wrapped.get(connection);
    if (!wrapper) {
      wrapper = new TransactionConnection(connection);
      this.wrapped.set(connection, wrapper);
    }
    return wrapper;
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    hooksOf.delete(connection);
    (connection as TransactionConnection).drop();
    return this.inner.beginTransaction(connection, settings);
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await runHooks(connection);
    await this.inner.commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    hooksOf.delete(connection);
    (connection as TransactionConnection).drop();
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
    return this.inner.releaseConnection((connection as TransactionConnection).inner);
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
