import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type CompiledQuery,
  type RawBuilder,
  type Compilable,
} from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Executor } from './database.js';
import { nameStatement } from './named-statements.js';

/**
 * Statements built once and run with new values. Kysely builds and compiles a statement on every call
 * (about a tenth of the CPU of a simple request); the statements every request sends (the token behind
 * a bearer, an organization read) are compiled at their first use here and then only given their values.
 * The SQL is the same as the builder's, and the statement runs on the executor given (pool or transaction).
 * On a PostgreSQL server the statement is also sent by name, so the server parses it once per connection
 * (platform/db/named-statements.ts).
 */

/** A query builder that compiles only and never connects (also what tests compare statements with). */
export const compiler = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

const STAND_IN = '\u0000prepared-parameter:';

/**
 * `build` gets a stand-in for each argument and must use each one as a value (compared, inserted, set),
 * never as a name or in a shape that depends on it (`in` lists, optional clauses); constants it uses stay.
 */
export function prepared<Args extends unknown[], Row>(
  arity: Args['length'],
  build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>,
): (executor: Executor, ...args: Args) => Promise<Row[]> {
  let template: { query: CompiledQuery<Row>; slots: (number | undefined)[] } | undefined;
  const compile = () => {
    const standIns = Array.from({ length: arity }, (_, index) => `${STAND_IN}${index}`);
    const query = build(compiler, ...(standIns as Args)).compile();
    const slots = query.parameters.map((value) =>
      typeof value === 'string' && value.startsWith(STAND_IN) ? Number(value.slice(STAND_IN.length)) : undefined,
    );
    const used = new Set(slots.filter((slot) => slot !== undefined));
    if (used.size !== arity) throw new Error(`prepared statement uses ${used.size} of its ${arity} arguments`);
    nameStatement(query.sql);
    return { query, slots };
  };
  return async (executor, ...args) => {
    template ??= compile();
    const { query, slots } = template;
    const parameters = query.parameters.map((value, index) => {
      const slot = slots[index];
      return slot === undefined ? value : args[slot];
    });
    const result = await executor.executeQuery<Row>({ ...query, parameters });
    return result.rows;
  };
}

/**
 * `column = any($n::uuid[])`: a list of ids as one array parameter, so a statement keeps one text (and
 * one name, one plan) whatever the list's length, where `in ($1, $2, …)` would be a new statement for
 * each length. For `prepared` statements reading the rows of several parents at once.
 */
export function anyUuid(ids: readonly string[]): RawBuilder<string> {
  return sql<string>`any(${ids}::uuid[])`;
}
