import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/platform/db/database.js';
import { nameStatement } from '../src/platform/db/named-statements.js';
import { compiler, prepared } from '../src/platform/db/prepared.js';
import { bearer, reusableServerDatabase, startTestServer, usingServerDatabase, type TestServer } from './harness.js';
import { organizationFactory } from './factories/organizations.js';

// Named statements are a PostgreSQL server's (the embedded database is one shared session): this suite
// runs in the PostgreSQL pass.
describe.runIf(usingServerDatabase())('named prepared statements', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('sends the statements every request sends by name, parsed once per connection', async () => {
    const { token, organization } = await organizationFactory(server);
    for (let i = 0; i < 3; i++) {
      // The organization read with its token, and the token alone.
      for (const url of [`/v1/organizations/${organization.id}`, '/v1/customers/']) {
        const response = await server.inject({ method: 'GET', url, headers: bearer(token) });
        expect(response.statusCode).toBe(200);
      }
    }
    // Every connection of the pool that served a request holds the token's statement; a connection is
    // taken from the pool to look, so ask each one the pool has.
    const pool = server.runtime.database.pool;
    const clients = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()));
    try {
      const prepared = new Set<string>();
      for (const client of clients) {
        const { rows } = await client.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements');
        for (const row of rows) prepared.add(row.statement);
      }
      const statements = [...prepared].join('\n');
      expect(statements).toContain('select "o".*, "t"."id" as "token_id"');
      expect(statements).toContain('select "t"."id", "t"."organization_id"');
    } finally {
      for (const client of clients) client.release();
    }
  });

  describe('a statement whose rows changed shape (a migration adding a column)', () => {
    let database: Database;
    let drop: () => Promise<void>;
    const table = `named_statements_probe`;
    // Read with `*`, the case PostgreSQL refuses to re-plan silently ("cached plan must not change result type").
    const readAllBuilder = (db: typeof compiler, id: number) =>
      db
        .selectFrom(table as 'users')
        .selectAll()
        .where('id' as never, '=', id as never);
    const readAll = prepared(1, readAllBuilder);
    let url: string;

    beforeAll(async () => {
      const created = (await reusableServerDatabase())!;
      drop = created.drop;
      url = created.url;
      database = await openDatabase({ databaseUrl: created.url, poolSize: 1 });
      await sql
        .raw(`CREATE TABLE ${table} (id int PRIMARY KEY, a text); INSERT INTO ${table} VALUES (1, 'one')`)
        .execute(database.db);
    });
    afterAll(async () => {
      await database.close();
      await drop();
    });

    it('is prepared again at once outside a transaction', async () => {
      expect(await readAll(database.db, 1)).toEqual([{ id: 1, a: 'one' }]);
      await sql.raw(`ALTER TABLE ${table} ADD COLUMN b text DEFAULT 'bee'`).execute(database.db);
      expect(await readAll(database.db, 1)).toEqual([{ id: 1, a: 'one', b: 'bee' }]);
    });

    it('goes unnamed on a connection whose session already has the name (a shared session)', async () => {
      // A fresh pool of one connection whose session holds the statement's name already, as an embedded
      // database reached by URL does for every connection but the first, and a pooler in transaction mode
      // can: the statement answers, and the connection sends statements unnamed from then on.
      const shared = await openDatabase({ databaseUrl: url, poolSize: 1 });
      try {
        const text = (readAllBuilder(compiler, 0) as { compile(): { sql: string } }).compile().sql;
        await sql.raw(`PREPARE "${nameStatement(text)}" AS SELECT 1`).execute(shared.db);
        expect(await readAll(shared.db, 1)).toEqual([{ id: 1, a: 'one', b: 'bee' }]);
        expect(await readAll(shared.db, 1)).toEqual([{ id: 1, a: 'one', b: 'bee' }]);
      } finally {
        await shared.close();
      }
    });

    it('fails the transaction it was in once, then works', async () => {
      expect(await readAll(database.db, 1)).toHaveLength(1);
      await sql.raw(`ALTER TABLE ${table} ADD COLUMN c text DEFAULT 'sea'`).execute(database.db);
      await expect(database.db.transaction().execute((tx) => readAll(tx, 1))).rejects.toMatchObject({ code: '0A000' });
      const rows = await database.db.transaction().execute((tx) => readAll(tx, 1));
      expect(rows).toEqual([{ id: 1, a: 'one', b: 'bee', c: 'sea' }]);
    });

    it('prepares every statement of the connection again, so a migration fails at most one of its transactions', async () => {
      // Two statements the query builder builds anew each time, named by repetition, both reading `*`.
      const first = (id: number) =>
        sql<object>`SELECT *, 'first' AS probe FROM named_statements_probe WHERE id = ${id}`;
      const second = (id: number) =>
        sql<object>`SELECT *, 'second' AS probe FROM named_statements_probe WHERE id = ${id}`;
      for (let i = 0; i < 3; i++) {
        await first(1).execute(database.db);
        await second(1).execute(database.db);
      }
      expect(await preparedTexts(database)).toEqual(
        expect.arrayContaining([
          expect.stringContaining("'first' AS probe"),
          expect.stringContaining("'second' AS probe"),
        ]),
      );
      await sql.raw(`ALTER TABLE ${table} ADD COLUMN d text DEFAULT 'dee'`).execute(database.db);
      await expect(database.db.transaction().execute((tx) => first(1).execute(tx))).rejects.toMatchObject({
        code: '0A000',
      });
      const { rows } = await database.db.transaction().execute((tx) => second(1).execute(tx));
      expect(rows).toEqual([{ id: 1, a: 'one', b: 'bee', c: 'sea', d: 'dee', probe: 'second' }]);
    });
  });

  describe("a transaction's BEGIN, sent with its first statement", () => {
    let database: Database;
    let drop: () => Promise<void>;
    /** Round trips of the pool's one connection while `work` runs: each ends with a ReadyForQuery. */
    let roundTrips: <T>(work: () => Promise<T>) => Promise<{ result: T; trips: number }>;
    let status: () => string;

    beforeAll(async () => {
      const created = (await reusableServerDatabase())!;
      drop = created.drop;
      database = await openDatabase({ databaseUrl: created.url, poolSize: 1 });
      await sql.raw('CREATE TABLE begin_probe (id int PRIMARY KEY)').execute(database.db);
      const client = await database.pool.connect();
      client.release();
      let trips = 0;
      (client as unknown as { connection: NodeJS.EventEmitter }).connection.on('readyForQuery', () => (trips += 1));
      roundTrips = async (work) => {
        const before = trips;
        const result = await work();
        return { result, trips: trips - before };
      };
      status = () => (client as unknown as { getTransactionStatus(): string }).getTransactionStatus();
    });
    afterAll(async () => {
      await database.close();
      await drop();
    });

    const transactionId = (db: Database['db'], marker: number) =>
      sql<{ id: string; marker: number }>`SELECT txid_current()::text AS id, ${marker}::int AS marker`.execute(db);

    it('costs one round trip less, and the statement runs in the transaction', async () => {
      // Named and parsed on the connection by its earlier runs.
      for (let i = 0; i < 3; i++) await transactionId(database.db, i);
      const { result, trips } = await roundTrips(() =>
        database.db.transaction().execute(async (tx) => {
          const first = await transactionId(tx, 1);
          const second = await transactionId(tx, 2);
          return [first.rows[0]!.id, second.rows[0]!.id];
        }),
      );
      // BEGIN with the first statement, the second, COMMIT: three (four with BEGIN on its own).
      expect(trips).toBe(3);
      expect(result[0]).toBe(result[1]);
      expect(status()).toBe('I');
    });

    it("undoes the first statement's write when the transaction rolls back", async () => {
      const failure = new Error('rolled back');
      const insert = (db: Database['db'], id: number) => sql`INSERT INTO begin_probe (id) VALUES (${id})`.execute(db);
      await insert(database.db, 1);
      await insert(database.db, 2);
      await expect(
        database.db.transaction().execute(async (tx) => {
          await insert(tx, 3);
          throw failure;
        }),
      ).rejects.toBe(failure);
      const { rows } = await sql<{ id: number }>`SELECT id FROM begin_probe ORDER BY id`.execute(database.db);
      expect(rows.map((row) => row.id)).toEqual([1, 2]);
    });

    it('sends nothing for a transaction without statements', async () => {
      const { trips } = await roundTrips(() => database.db.transaction().execute(async () => 'nothing'));
      expect(trips).toBe(0);
      const failed = await roundTrips(() =>
        database.db
          .transaction()
          .execute(async () => {
            throw new Error('before any statement');
          })
          .catch((error: Error) => error.message),
      );
      expect(failed).toEqual({ result: 'before any statement', trips: 0 });
      expect((await transactionId(database.db, 9)).rows[0]!.marker).toBe(9);
    });

    it('fails the transaction when its first statement fails, and the connection goes on', async () => {
      const divide = (db: Database['db'], by: number) => sql`SELECT 1 / ${by}::int AS quotient`.execute(db);
      await divide(database.db, 1);
      await divide(database.db, 1);
      await expect(database.db.transaction().execute((tx) => divide(tx, 0))).rejects.toMatchObject({ code: '22012' });
      expect(status()).toBe('I');
      expect((await database.db.transaction().execute((tx) => divide(tx, 1))).rows).toEqual([{ quotient: 1 }]);
    });

    it('opens the transaction with its isolation level', async () => {
      const level = (db: Database['db']) =>
        sql<{ level: string }>`SELECT current_setting('transaction_isolation') AS level, ${1}::int AS one`.execute(db);
      await level(database.db);
      await level(database.db);
      const { rows } = await database.db
        .transaction()
        .setIsolationLevel('serializable')
        .execute((tx) => level(tx));
      expect(rows[0]!.level).toBe('serializable');
    });

    it('goes first on its own before a statement this connection has not parsed, whose parse may fail', async () => {
      // Registered by name but never sent: its parse fails (no such column) after BEGIN's.
      const text = 'SELECT no_such_column FROM begin_probe WHERE id = $1';
      nameStatement(text);
      const run = (db: Database['db']) => db.executeQuery({ sql: text, parameters: [1] } as never);
      for (let i = 0; i < 2; i++) {
        await expect(database.db.transaction().execute((tx) => run(tx))).rejects.toMatchObject({ code: '42703' });
        expect(status()).toBe('I');
      }
      // A text without parameters may hold several commands: it never travels with the BEGIN.
      await database.db
        .transaction()
        .execute((tx) =>
          sql.raw('INSERT INTO begin_probe VALUES (10); INSERT INTO begin_probe VALUES (11)').execute(tx),
        );
      const { rows } = await sql<{ id: number }>`SELECT id FROM begin_probe WHERE id >= ${10}`.execute(database.db);
      expect(rows.map((row) => row.id).sort()).toEqual([10, 11]);
    });
  });

  describe("a named statement's row description, asked once per connection", () => {
    let database: Database;
    let drop: () => Promise<void>;
    /** RowDescription messages the pool's one connection received while `work` ran. */
    let descriptions: <T>(work: () => Promise<T>) => Promise<{ result: T; described: number }>;
    const table = 'described_probe';
    const read = prepared(1, (db: typeof compiler, id: number) =>
      db
        .selectFrom(table as 'users')
        .selectAll()
        .where('id' as never, '=', id as never),
    );

    beforeAll(async () => {
      const created = (await reusableServerDatabase())!;
      drop = created.drop;
      database = await openDatabase({ databaseUrl: created.url, poolSize: 1 });
      await sql
        .raw(
          `CREATE TABLE ${table} (id int PRIMARY KEY, at timestamptz, big bigint, doc jsonb, flag boolean, note text);
           INSERT INTO ${table} VALUES (1, '2026-01-02T03:04:05Z', 9007199254740991, '{"a":[1,2]}', true, NULL),
                                       (2, NULL, -1, '"text"', false, 'two')`,
        )
        .execute(database.db);
      const client = await database.pool.connect();
      client.release();
      let described = 0;
      (client as unknown as { connection: NodeJS.EventEmitter }).connection.on(
        'rowDescription',
        () => (described += 1),
      );
      descriptions = async (work) => {
        const before = described;
        const result = await work();
        return { result, described: described - before };
      };
    });
    afterAll(async () => {
      await database.close();
      await drop();
    });

    const first = {
      id: 1,
      at: new Date('2026-01-02T03:04:05Z'),
      big: 9007199254740991,
      doc: { a: [1, 2] },
      flag: true,
      note: null,
    };
    const second = { id: 2, at: null, big: -1, doc: 'text', flag: false, note: 'two' };

    it('parses the rows of later executions with the description of the first', async () => {
      const once = await descriptions(() => read(database.db, 1));
      expect(once).toEqual({ result: [first], described: 1 });
      const again = await descriptions(async () => [await read(database.db, 2), await read(database.db, 1)]);
      expect(again).toEqual({ result: [[second], [first]], described: 0 });
      // Rows of the same shape as the first execution's: own properties in the columns' order.
      expect(Object.keys(again.result[0]![0]!)).toEqual(['id', 'at', 'big', 'doc', 'flag', 'note']);
    });

    it('answers an execution without rows with none, and rows again after', async () => {
      await read(database.db, 1);
      const { result, described } = await descriptions(async () => [
        await read(database.db, 99),
        await read(database.db, 2),
      ]);
      expect(result).toEqual([[], [second]]);
      expect(described).toBe(0);
    });

    it('goes without it in a transaction whose BEGIN it carries', async () => {
      await read(database.db, 1);
      const { result, described } = await descriptions(() =>
        database.db.transaction().execute(async (tx) => read(tx, 2)),
      );
      expect(result).toEqual([second]);
      expect(described).toBe(0);
    });

    it('fails an execution the server refuses, and the next one parses its rows as before', async () => {
      const divide = prepared(1, (db: typeof compiler, by: number) =>
        db
          .selectFrom(table as 'users')
          .select(sql<number>`(100 / ${by})::int`.as('quotient'))
          .where('id' as never, '=', 1 as never),
      );
      expect(await divide(database.db, 4)).toEqual([{ quotient: 25 }]);
      await expect(divide(database.db, 0)).rejects.toThrow(/division by zero/);
      const { result, described } = await descriptions(() => divide(database.db, 5));
      expect(result).toEqual([{ quotient: 20 }]);
      expect(described).toBe(0);
    });

    it('is asked again when the rows change shape, and the new rows come whole', async () => {
      await read(database.db, 1);
      await sql.raw(`ALTER TABLE ${table} ADD COLUMN extra int DEFAULT 7`).execute(database.db);
      const { result, described } = await descriptions(() => read(database.db, 2));
      expect(result).toEqual([{ ...second, extra: 7 }]);
      expect(described).toBe(1);
      expect(await descriptions(() => read(database.db, 1))).toEqual({
        result: [{ ...first, extra: 7 }],
        described: 0,
      });
    });
  });

  describe('statements named by repetition', () => {
    let database: Database;
    let drop: () => Promise<void>;

    beforeAll(async () => {
      const created = (await reusableServerDatabase())!;
      drop = created.drop;
      database = await openDatabase({ databaseUrl: created.url, poolSize: 1 });
    });
    afterAll(async () => {
      await database.close();
      await drop();
    });

    it('sends a text with parameters by name from its second time on', async () => {
      const marker = `repeated_${randomUUID().replaceAll('-', '')}`;
      // Built by the query builder on every call, as most statements are: the same text each time.
      const read = async (value: number) =>
        (await sql<Record<string, number>>`SELECT ${value}::int AS ${sql.ref(marker)}`.execute(database.db)).rows[0];
      expect(await read(1)).toEqual({ [marker]: 1 });
      expect((await preparedTexts(database)).some((text) => text.includes(marker))).toBe(false);
      expect(await read(2)).toEqual({ [marker]: 2 });
      expect((await preparedTexts(database)).filter((text) => text.includes(marker))).toHaveLength(1);
      expect(await read(3)).toEqual({ [marker]: 3 });
    });

    it('never names a text without parameters (it may hold several statements)', async () => {
      const marker = `plain_${randomUUID().replaceAll('-', '')}`;
      // Sent by name, the text would be refused: a prepared statement holds one command.
      for (let i = 0; i < 3; i++) await sql.raw(`SELECT 1 AS ${marker}; SELECT 2 AS n`).execute(database.db);
      // The same text with a parameter is named at its second time: the absence above is the rule's.
      for (let i = 0; i < 2; i++) await sql`SELECT ${i}::int AS ${sql.raw(marker)}`.execute(database.db);
      const texts = await preparedTexts(database);
      expect(texts.filter((text) => text.includes(marker))).toEqual([expect.stringContaining('$1::int')]);
    });
  });
});

/** The texts prepared on the one connection of `database`'s pool. */
async function preparedTexts(database: Database): Promise<string[]> {
  const { rows } = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(database.db);
  return rows.map((row) => row.statement);
}
