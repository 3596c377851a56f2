import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';

/**
 * Named prepared statements on a PostgreSQL server. An unnamed statement is parsed, analysed and planned
 * by the server on every execution; a named one is parsed once per connection and then only bound and
 * executed (and, once the server has seen that a generic plan costs no more, not planned again either).
 * The query builder runs every statement as `client.query(text, values)`; the pool's clients send by
 * name the texts registered here, which are the statements built once (platform/db/prepared.ts) and any
 * other text with parameters once this process has sent it `REPEATS_BEFORE_NAMING` times: a renewal's
 * inserts and updates, a checkout's reads, built anew by the query builder each time but the same text.
 * Everything else goes through as it is.
 *
 * Not for the embedded database: PGlite is one session shared by every wire connection, so two
 * connections preparing the same name would collide (platform/db/pglite-server.ts).
 */

/** A text with parameters sent this many times is sent by name from then on. */
const REPEATS_BEFORE_NAMING = 2;
/**
 * At most this many texts are named by repetition in a process: every connection keeps a plan of each
 * one it runs, so statements whose text varies without end (an `in` list of each length) stop being
 * named there instead of filling the server's memory. The statements the process sends all the time
 * are named long before.
 */
const MAX_REPEATED_NAMES = 500;
/** Longer texts are never named by repetition: they are mostly the ones whose shape varies (many rows). */
const MAX_REPEATED_TEXT = 4_000;
/** Texts counted but not yet named: past this many, the counts start again (one-off texts cost nothing). */
const MAX_COUNTED = 5_000;

const names = new Map<string, string>();
const sightings = new Map<string, number>();
let repeatedNames = 0;

/**
 * Sends `text` by name from now on (idempotent); answers the name. The name is a digest of the text, so it
 * means the same statement in every process and version that shares a session (through a pooler).
 */
export function nameStatement(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `tessera_${createHash('sha256').update(text).digest('hex').slice(0, 40)}`;
    names.set(text, name);
  }
  return name;
}

/** The name of `text` when it is registered or has now been sent often enough to be, else undefined. */
function nameOf(text: string, parameters: number): string | undefined {
  const name = names.get(text);
  if (name !== undefined || parameters === 0 || text.length > MAX_REPEATED_TEXT) return name;
  if (repeatedNames >= MAX_REPEATED_NAMES) return undefined;
  const seen = (sightings.get(text) ?? 0) + 1;
  if (seen < REPEATS_BEFORE_NAMING) {
    if (sightings.size >= MAX_COUNTED) sightings.clear();
    sightings.set(text, seen);
    return undefined;
  }
  sightings.delete(text);
  repeatedNames += 1;
  return nameStatement(text);
}

/** feature_not_supported: "cached plan must not change result type". */
const RESULT_TYPE_CHANGED = '0A000';
/**
 * A name the session already has (duplicate_prepared_statement) or lost (invalid_sql_statement_name): the
 * session is not this connection's own. An embedded database reached by URL is one session for every
 * connection, and a pooler in transaction mode (PgBouncer) hands each transaction another server
 * connection; such a connection sends every statement unnamed from then on.
 */
const SESSION_NOT_OWN = new Set(['42P05', '26000']);

type QueryResult = pg.QueryResult<pg.QueryResultRow>;

/** pg's own mapping of a parameter to its wire text (Date, Buffer, arrays, objects as JSON). */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue(value: unknown): string | Buffer | null;
};

/** What pg's result needs to turn a statement's rows into objects: the columns and their parsers. */
interface Description {
  fields: unknown[];
  parsers: unknown[];
  row: Record<string, null>;
}

/** The parts of pg's query (and its result) that a statement is sent with and described to. */
interface QueryInternals {
  name?: string;
  values?: unknown[];
  portal: string;
  binary?: boolean;
  callback?: unknown;
  _result: { fields: unknown[]; _parsers: unknown[]; _prebuiltEmptyResultObject: Record<string, null> };
  _accumulateRows: boolean;
  hasBeenParsed(connection: PgConnection): boolean;
}

const pgPrepare = (pg.Query.prototype as unknown as { prepare(connection: PgConnection): void }).prepare;

/**
 * A statement sent as pg sends it, except that a named statement whose rows the server has already
 * described to this connection is not described again: pg asks the server for every execution's
 * row description (a Describe message, answered with each column's name and type), which is the same
 * each time for a prepared statement. The connection keeps the first one (`learn`) and later executions
 * parse their rows with it (`known`): the server builds and sends it once, the process parses it once.
 * A statement whose rows changed shape since (a migration adding a column to a `select *`) is refused by
 * the server all the same ("cached plan must not change result type", 0A000), whatever was asked, and
 * NamedStatementClient prepares it again under a new name, described anew.
 */
export class StatementQuery extends pg.Query {
  /** The row description this connection already has for the statement: no Describe is sent. */
  known?: Description;
  /** Takes the description the server sent, for the statement's later executions on this connection. */
  learn?: (description: Description) => void;

  prepare(connection: PgConnection): void {
    const self = this as unknown as QueryInternals;
    if (this.known === undefined || !self.hasBeenParsed(connection)) return pgPrepare.call(this, connection);
    try {
      connection.bind({
        portal: self.portal,
        statement: self.name,
        values: self.values,
        binary: self.binary,
        valueMapper: prepareValue,
      });
    } catch {
      // A value pg cannot send (bind writes nothing then): pg's own way fails the query as it does.
      return pgPrepare.call(this, connection);
    }
    const result = self._result;
    result.fields = this.known.fields;
    result._parsers = this.known.parsers;
    result._prebuiltEmptyResultObject = this.known.row;
    self._accumulateRows = Boolean(self.callback) || this.listeners('row').length === 0;
    connection.execute({ portal: self.portal });
    connection.sync();
  }

  handleRowDescription(message: unknown): void {
    (pg.Query.prototype as unknown as { handleRowDescription(message: unknown): void }).handleRowDescription.call(
      this,
      message,
    );
    if (this.learn === undefined) return;
    const result = (this as unknown as QueryInternals)._result;
    this.learn({ fields: result.fields, parsers: result._parsers, row: result._prebuiltEmptyResultObject });
    this.learn = undefined;
  }
}

/**
 * A statement sent in the same round trip as the BEGIN of its transaction: the extended protocol's
 * messages of `BEGIN` (parse, bind, execute, into the unnamed statement and portal) and then the
 * statement's own, with one Sync after both. The server answers BEGIN's completion first, which is not
 * the statement's result and is dropped; an error in either fails the query (the server skips the rest
 * until the Sync), and the transaction is then the caller's to roll back, as after any failed statement.
 */
export class BeginWithQuery extends StatementQuery {
  private begun = false;

  constructor(
    /** The transaction's BEGIN (or `start transaction …`) text, sent ahead of this query's statement. */
    readonly begin: string,
    text: string,
    values: unknown[],
  ) {
    super(text, values);
  }

  override prepare(connection: PgConnection): void {
    connection.parse({ text: this.begin });
    connection.bind({});
    connection.execute({});
    super.prepare(connection);
  }

  handleCommandComplete(message: unknown, connection: PgConnection): void {
    if (!this.begun) {
      this.begun = true;
      return;
    }
    (
      pg.Query.prototype as unknown as { handleCommandComplete(message: unknown, connection: PgConnection): void }
    ).handleCommandComplete.call(this, message, connection);
  }
}

/** The parts of pg's connection (its wire protocol writer) a query uses when it is submitted. */
interface PgConnection {
  parse(query: { text: string; name?: string }): void;
  bind(config: object): void;
  execute(config: object): void;
  sync(): void;
  parsedStatements: Record<string, string>;
}

/** Kysely's texts that open a transaction (`begin`, or `start transaction` with an isolation level). */
function opensTransaction(text: string): boolean {
  return text === 'begin' || text.startsWith('start transaction');
}

/** A statement's result as pg answers it, for a transaction command answered without a round trip. */
function commandResult(command: string): QueryResult {
  return { command, rowCount: null, oid: 0, rows: [], fields: [] };
}

/**
 * The pool's client. A statement prepared before a migration changed the shape of its rows (a column
 * added to a table read with `*`, by a newer node of the same database) fails with 0A000 on a
 * connection that prepared it: every statement of that connection is then prepared again under a new
 * name (the migration may have changed the rows of others too, and each would fail once in turn), at
 * once when no transaction is open (the caller never sees the failure), else from the next execution on
 * (the failed transaction is the caller's to retry, as after any other error). A connection fails at
 * most one transaction that way for each migration.
 *
 * A transaction's BEGIN waits for its first statement and goes in the same round trip (BeginWithQuery):
 * a transaction costs one round trip less (a PATCH sends four instead of five). The statement runs in
 * the transaction all the same: PostgreSQL takes a transaction's snapshot at its first statement, not at
 * BEGIN, so nothing tells the difference but the time (`now()`, the transaction's start, is the instant
 * the first statement arrived instead of the BEGIN a moment before). A statement is carried that way
 * when it has parameters and is unnamed or already parsed on this connection; otherwise (a text without
 * parameters, which may hold several commands; a name this connection has not parsed yet, whose parse
 * could fail after BEGIN's had been taken for its own; any other form of query) the BEGIN is sent first,
 * as before.
 * A transaction with no statement sends neither its BEGIN nor its COMMIT or ROLLBACK.
 */
export class NamedStatementClient extends pg.Client {
  /** How many times this connection's statements were prepared again under new names (0A000). */
  private generation = 0;
  /** The session is shared or not kept (SESSION_NOT_OWN): every statement goes unnamed. */
  private unnamed = false;
  /** The BEGIN of the transaction opened on this connection, while it waits for its first statement. */
  private pendingBegin: string | undefined;
  /** The row descriptions of the named statements this connection has run, by name (StatementQuery). */
  private readonly descriptions = new Map<string, Description>();

  // The driver's one form, `query(text, values)`; every other form (config objects, callbacks, cursors)
  // goes to pg unchanged.
  override query(...args: unknown[]): never {
    const [text, values] = args;
    if (args.length === 2 && typeof text === 'string' && Array.isArray(values)) {
      if (values.length === 0) {
        const answered = this.transactionCommand(text);
        if (answered) return answered as never;
      }
      const name = this.unnamed ? undefined : nameOf(text, values.length);
      if (name !== undefined) return this.runNamed(name, text, values) as never;
      if (this.pendingBegin !== undefined) return this.runAfterBegin(text, values) as never;
    } else if (this.pendingBegin !== undefined) {
      // Another form (a config object, a cursor): the BEGIN is queued before it, in a round trip of its
      // own; pg sends a client's queries in order, one at a time.
      (super.query(this.takeBegin()!) as Promise<unknown>).catch(() => {
        // Only a broken connection fails a BEGIN outside a transaction, and the query queued after it
        // fails with it.
      });
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }

  /**
   * Kysely's transaction commands: a BEGIN on an idle connection is kept for the first statement; a
   * COMMIT or ROLLBACK of a transaction that sent none ends it without a round trip. Undefined for any
   * other text, which goes on to the server.
   */
  private transactionCommand(text: string): Promise<QueryResult> | undefined {
    if (opensTransaction(text)) {
      if (this.pendingBegin !== undefined || this.getTransactionStatus() !== 'I') return undefined;
      this.pendingBegin = text;
      return Promise.resolve(commandResult('BEGIN'));
    }
    if (this.pendingBegin !== undefined && (text === 'commit' || text === 'rollback')) {
      this.takeBegin();
      return Promise.resolve(commandResult(text.toUpperCase()));
    }
    return undefined;
  }

  /** The BEGIN waiting for the transaction's first statement, now that it goes; none waits after. */
  private takeBegin(): string | undefined {
    const begin = this.pendingBegin;
    this.pendingBegin = undefined;
    return begin;
  }

  /** An unnamed statement, with the BEGIN it waited for when it has parameters, else after it. */
  private async runAfterBegin(text: string, values: unknown[]): Promise<QueryResult> {
    const begin = this.takeBegin()!;
    if (values.length > 0) return this.submitQuery(new BeginWithQuery(begin, text, values));
    // Both queued at once, in this order (pg sends a client's queries one at a time, in order), so a
    // statement of the same transaction issued meanwhile cannot go between them.
    const [, result] = await Promise.all([super.query(begin), super.query(text, values)]);
    return result;
  }

  private async runNamed(name: string, text: string, values: unknown[]): Promise<QueryResult> {
    const begin = this.takeBegin();
    const idle = begin === undefined && this.getTransactionStatus() === 'I';
    const current = this.currentName(name);
    // A statement this connection has not parsed yet goes after its BEGIN, queued before it.
    const alone = begin !== undefined && !this.parsed(current) ? super.query(begin) : undefined;
    try {
      const [, result] = await Promise.all([alone, this.submitNamed(current, text, values, alone ? undefined : begin)]);
      return result;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== undefined && SESSION_NOT_OWN.has(code)) {
        this.unnamed = true;
        if (!idle) throw error;
        return super.query(text, values);
      }
      if (code !== RESULT_TYPE_CHANGED) throw error;
      this.generation += 1;
      this.descriptions.clear();
      if (!idle) throw error;
      return this.submitNamed(this.currentName(name), text, values);
    }
  }

  /**
   * `query({ name, text, values })` as pg runs it, without its copy of the config object (made through
   * property descriptors: a few microseconds a statement, a tenth of a renewal's statement overhead): the
   * query is made from the text and values, which pg takes as they are, and given its name.
   */
  private submitNamed(name: string, text: string, values: unknown[], begin?: string): Promise<QueryResult> {
    const query = begin === undefined ? new StatementQuery(text, values) : new BeginWithQuery(begin, text, values);
    (query as pg.Query & { name?: string }).name = name;
    query.known = this.descriptions.get(name);
    if (query.known === undefined) query.learn = (description) => this.descriptions.set(name, description);
    return this.submitQuery(query);
  }

  private submitQuery(query: pg.Query): Promise<QueryResult> {
    return new Promise((resolve, reject) => {
      (query as pg.Query & { callback?: (error: Error | null, result: QueryResult) => void }).callback = (
        error,
        result,
      ) => (error ? reject(error) : resolve(result));
      super.query(query);
    });
  }

  /** Whether this connection's session has parsed the statement `name` (pg records each parse it saw). */
  private parsed(name: string): boolean {
    return (this as unknown as { connection: PgConnection }).connection.parsedStatements[name] !== undefined;
  }

  private currentName(name: string): string {
    return this.generation === 0 ? name : `${name}_${this.generation}`;
  }
}
