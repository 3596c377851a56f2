import { createHash } from 'node:crypto';
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

/**
 * The pool's client. A statement prepared before a migration changed the shape of its rows (a column
 * added to a table read with `*`, by a newer node of the same database) fails with 0A000 on a
 * connection that prepared it: every statement of that connection is then prepared again under a new
 * name (the migration may have changed the rows of others too, and each would fail once in turn), at
 * once when no transaction is open (the caller never sees the failure), else from the next execution on
 * (the failed transaction is the caller's to retry, as after any other error). A connection fails at
 * most one transaction that way for each migration.
 */
export class NamedStatementClient extends pg.Client {
  /** How many times this connection's statements were prepared again under new names (0A000). */
  private generation = 0;
  /** The session is shared or not kept (SESSION_NOT_OWN): every statement goes unnamed. */
  private unnamed = false;

  // The driver's one form, `query(text, values)`; every other form (config objects, callbacks, cursors)
  // goes to pg unchanged.
  override query(...args: unknown[]): never {
    const [text, values] = args;
    if (args.length === 2 && typeof text === 'string' && Array.isArray(values)) {
      const name = this.unnamed ? undefined : nameOf(text, values.length);
      if (name !== undefined) return this.runNamed(name, text, values) as never;
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }

  private async runNamed(name: string, text: string, values: unknown[]): Promise<QueryResult> {
    const idle = this.getTransactionStatus() === 'I';
    try {
      return await this.submitNamed(this.currentName(name), text, values);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== undefined && SESSION_NOT_OWN.has(code)) {
        this.unnamed = true;
        if (!idle) throw error;
        return super.query(text, values);
      }
      if (code !== RESULT_TYPE_CHANGED) throw error;
      this.generation += 1;
      if (!idle) throw error;
      return this.submitNamed(this.currentName(name), text, values);
    }
  }

  /**
   * `query({ name, text, values })` as pg runs it, without its copy of the config object (made through
   * property descriptors: a few microseconds a statement, a tenth of a renewal's statement overhead): the
   * query is made from the text and values, which pg takes as they are, and given its name.
   */
  private submitNamed(name: string, text: string, values: unknown[]): Promise<QueryResult> {
    const query = new pg.Query(text, values) as pg.Query & {
      name?: string;
      callback?: (error: Error | null, result: QueryResult) => void;
    };
    query.name = name;
    return new Promise((resolve, reject) => {
      query.callback = (error, result) => (error ? reject(error) : resolve(result));
      super.query(query);
    });
  }

  private currentName(name: string): string {
    return this.generation === 0 ? name : `${name}_${this.generation}`;
  }
}
