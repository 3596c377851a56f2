import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * Named prepared statements for the statements every request sends (platform/db/prepared.ts), on a
 * PostgreSQL server. An unnamed statement is parsed, analysed and planned by the server on every
 * execution; a named one is parsed once per connection and then only bound and executed (and, once the
 * server has seen that a generic plan costs no more, not planned again either). The query builder runs
 * every statement as `client.query(text, values)`; the pool's clients look the text up here and send the
 * registered ones by name. Everything else goes through as it is.
 *
 * Not for the embedded database: PGlite is one session shared by every wire connection, so two
 * connections preparing the same name would collide (platform/db/pglite-server.ts).
 */

const names = new Map<string, string>();

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
 * added to a table read with `*`, by a newer node of the same database) fails once with 0A000 on each
 * connection that prepared it: the statement is then prepared again under a new name on that
 * connection, at once when no transaction is open (the caller never sees the failure), else from the
 * next execution on (the failed transaction is the caller's to retry, as after any other error).
 */
export class NamedStatementClient extends pg.Client {
  /** Statements of this connection prepared again under a new name: text → generation. */
  private readonly generations = new Map<string, number>();
  /** The session is shared or not kept (SESSION_NOT_OWN): every statement goes unnamed. */
  private unnamed = false;

  // The driver's one form, `query(text, values)`; every other form (config objects, callbacks, cursors)
  // goes to pg unchanged.
  override query(...args: unknown[]): never {
    const [text, values] = args;
    if (args.length === 2 && typeof text === 'string' && Array.isArray(values)) {
      const name = this.unnamed ? undefined : names.get(text);
      if (name !== undefined) return this.runNamed(name, text, values) as never;
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }

  private async runNamed(name: string, text: string, values: unknown[]): Promise<QueryResult> {
    const idle = this.getTransactionStatus() === 'I';
    try {
      return await super.query({ name: this.currentName(name, text), text, values });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== undefined && SESSION_NOT_OWN.has(code)) {
        this.unnamed = true;
        if (!idle) throw error;
        return super.query(text, values);
      }
      if (code !== RESULT_TYPE_CHANGED) throw error;
      this.generations.set(text, (this.generations.get(text) ?? 0) + 1);
      if (!idle) throw error;
      return super.query({ name: this.currentName(name, text), text, values });
    }
  }

  private currentName(name: string, text: string): string {
    const generation = this.generations.get(text);
    return generation === undefined ? name : `${name}_${generation}`;
  }
}
