import { CompiledQuery, sql, type DatabaseConnection, type QueryResult } from 'kysely';
import type { Executor } from './database.js';
import { compiler } from './prepared.js';

/**
 * Writes a transaction sends together. A billing group renews 25 subscriptions in one transaction, and
 * each renewal writes the same four rows: its period's claim, its order, the order's items, its charge.
 * In a transaction that defers writes (`deferWritesIn`), such a write is kept instead of sent, and the
 * transaction's next statement of any kind (a read, another write, a savepoint, its commit hooks, its
 * COMMIT) first sends what was kept: one statement per kind of write, whatever the number of rows. So
 * every statement of the transaction still sees every write made before it, as if each had been sent at
 * once; a rollback drops what was kept. A kept write that fails fails the statement that sent it, and
 * with it the transaction.
 *
 * Rows are sent in one JSON parameter, `jsonb_populate_recordset(NULL::table, $1)`, which gives each
 * field its column's type: the statement's text is the same for any number of rows (it is prepared once
 * per connection) and its one parameter costs the driver less than a parameter per value. The JSON of a
 * row is made when it is kept: a caller may change its objects afterwards.
 *
 * Rows of one kind (`key`) are sent together, kinds in the order each was first kept: a row may refer
 * only to rows of kinds first kept before its own (an order's items to the order), or written already.
 * Callers get back the row as written from what they gave (`asWritten` in the repositories): a kept
 * write cannot answer `RETURNING`.
 */
interface Kept {
  key: string;
  rows: string[];
  /** The rows' ids, for an update (whose statement must then affect every row); none for an insert. */
  ids: string[];
  statement: (rows: string, ids: readonly string[]) => CompiledQuery;
}

const deferring = new WeakSet<Executor>();
const connectionOf = new WeakMap<Executor, TransactionConnection>();

/** From now on, the transaction `db` keeps its deferrable writes until its next statement. */
export function deferWritesIn(db: Executor): void {
  if (db.isTransaction) deferring.add(db);
}

/** Whether `db` is a transaction that keeps its deferrable writes. */
export function defersWrites(db: Executor): boolean {
  return deferring.has(db);
}

/** The one connection of the transaction `db` (as the driver handed it out). */
export async function connectionOfTransaction(db: Executor): Promise<TransactionConnection> {
  let connection = connectionOf.get(db);
  if (!connection) {
    // A transaction's executor always provides its one connection.
    connection = (await db.getExecutor().provideConnection(async (held) => held)) as TransactionConnection;
    connectionOf.set(db, connection);
  }
  return connection;
}

/**
 * Keeps `row` (a plain object of column values: dates, numbers, strings, booleans, nulls, objects for
 * JSON columns) to be inserted into `table` with the other rows kept under the same columns. Only for
 * a transaction that defers writes (`defersWrites`).
 */
export async function keepInsert(db: Executor, table: string, row: Record<string, unknown>): Promise<void> {
  const columns = Object.keys(row);
  const key = `insert ${table} (${columns.join(',')})`;
  await keep(db, key, JSON.stringify(row), undefined, (rows) =>
    sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) select ${sql.join(
      columns.map((c) => sql.ref(c)),
    )} from jsonb_populate_recordset(null::${sql.table(table)}, ${rows}::jsonb)`.compile(db),
  );
}

/**
 * Keeps an update of the row of `table` whose `id` is `row.id`, setting the other columns of `row`;
 * rows kept with the same columns are updated by one statement, which fails unless every one of them
 * exists. Only for a transaction that defers writes.
 */
export async function keepUpdate(db: Executor, table: string, row: { id: string } & Record<string, unknown>) {
  const columns = Object.keys(row).filter((column) => column !== 'id');
  const key = `update ${table} (${columns.join(',')})`;
  await keep(db, key, JSON.stringify(row), row.id, (rows, ids) => keptUpdateStatement(table, columns, rows, ids));
}

/**
 * The one statement of kept updates: `rows` the JSON array of the rows, `ids` their ids. The planner
 * takes a set-returning function for 100 rows, so joined on its own it reads a table of some thousands
 * of rows whole and hashes it (a billing group's 25 subscriptions against all of them); the ids as an
 * array make it find the rows by their primary key.
 */
export function keptUpdateStatement(
  table: string,
  columns: readonly string[],
  rows: string,
  ids: readonly string[],
): CompiledQuery {
  return sql`update ${sql.table(table)} as t set ${sql.join(
    columns.map((c) => sql`${sql.ref(c)} = v.${sql.ref(c)}`),
  )} from jsonb_populate_recordset(null::${sql.table(table)}, ${rows}::jsonb) as v where t.id = any(${ids}::uuid[]) and t.id = v.id`.compile(
    compiler,
  );
}

/** `id`: the row's id for an update (which must then affect every row kept), none for an insert. */
async function keep(
  db: Executor,
  key: string,
  json: string,
  id: string | undefined,
  statement: Kept['statement'],
): Promise<void> {
  if (!deferring.has(db)) throw new Error('keepInsert/keepUpdate outside a transaction that defers writes');
  const connection = await connectionOfTransaction(db);
  const kept = (connection.kept ??= []);
  const same = kept.find((entry) => entry.key === key);
  const entry = same ?? { key, rows: [], ids: [], statement };
  if (!same) kept.push(entry);
  entry.rows.push(json);
  if (id !== undefined) entry.ids.push(id);
}

/**
 * The connection the driver hands out: sends what its transaction kept before any statement of its own
 * (and forgets it on rollback: `drop`). One per pool connection, for as long as it lives.
 */
export class TransactionConnection implements DatabaseConnection {
  kept: Kept[] | undefined;
  private sending: Promise<void> | undefined;

  constructor(readonly inner: DatabaseConnection) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.kept !== undefined || this.sending !== undefined) await this.send();
    return this.inner.executeQuery<R>(query);
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (this.kept !== undefined || this.sending !== undefined) await this.send();
    yield* this.inner.streamQuery<R>(query, chunkSize);
  }

  /** Forgets what was kept (the transaction rolls back, or a new one begins). */
  drop(): void {
    this.kept = undefined;
  }

  /** Sends what was kept, kinds in the order they were first kept; statements arriving meanwhile wait. */
  private async send(): Promise<void> {
    for (;;) {
      if (this.sending) {
        await this.sending;
        continue;
      }
      const kept = this.kept;
      if (!kept) return;
      this.kept = undefined;
      this.sending = this.write(kept).finally(() => {
        this.sending = undefined;
      });
    }
  }

  private async write(kept: readonly Kept[]): Promise<void> {
    for (const entry of kept) {
      const result = await this.inner.executeQuery(entry.statement(`[${entry.rows.join(',')}]`, entry.ids));
      if (entry.ids.length > 0 && Number(result.numAffectedRows) !== entry.rows.length) {
        throw new Error(`${entry.key}: ${result.numAffectedRows} of ${entry.rows.length} rows updated`);
      }
    }
  }
}
