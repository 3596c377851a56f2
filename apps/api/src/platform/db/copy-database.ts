import type pg from 'pg';

/**
 * Copies every row of one database into another that has the same schema (`tessera migrate-to`: an
 * embedded installation into a PostgreSQL server). Both sides must already be migrated to the same
 * version; the caller makes the target's schema by running the migrations and starting the job queue
 * on it, which is how a server database is made anyway.
 *
 * - The source is read in one REPEATABLE READ transaction (one consistent snapshot), table by table
 *   through a cursor, `batchSize` rows at a time: no table is ever held in memory.
 * - The target is written in one transaction: the tables are emptied (migrations and the job queue's
 *   start may have written rows), foreign keys dropped so rows can come in any order (cycles exist:
 *   orders ↔ subscriptions) and triggers disabled (derived rows are copied, not recomputed), rows inserted, sequences set to the source's values, and the foreign keys
 *   added back, which checks every reference. Any failure rolls all of it back.
 * - Values travel as text (every column read with its output function and given back to its input
 *   function), so timestamps keep their microseconds and nothing goes through JavaScript numbers.
 */
export interface CopyProgress {
  table: string;
  rows: number;
}

export interface CopyResult {
  tables: CopyProgress[];
  sequences: number;
}

export class TargetNotEmpty extends Error {}

/** Returns values exactly as PostgreSQL printed them. */
const AS_TEXT = { getTypeParser: () => (value: string) => value };

/** Bind parameters per statement stay well under PostgreSQL's 65,535. */
const MAX_PARAMETERS = 30_000;

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

interface Table {
  schema: string;
  name: string;
}

const qualified = (table: Table) => `${quote(table.schema)}.${quote(table.name)}`;
const label = (table: Table) => `${table.schema}.${table.name}`;

/** Throws `TargetNotEmpty` when the target has any relation outside the system schemas. */
export async function assertEmptyTarget(target: pg.Pool): Promise<void> {
  const { rows } = await target.query<{ name: string }>(
    `SELECT n.nspname || '.' || c.relname AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
        AND n.nspname NOT IN ('pg_catalog', 'information_schema')
        AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
      ORDER BY 1 LIMIT 5`,
  );
  if (rows.length > 0) {
    throw new TargetNotEmpty(
      `the target database is not empty (${rows.map((row) => row.name).join(', ')}…); ` +
        'give an empty database (create a new one, or drop and recreate it to retry a failed copy)',
    );
  }
}

async function listTables(db: pg.Pool | pg.PoolClient, schemas: string[]): Promise<Table[]> {
  const { rows } = await db.query<Table>(
    `SELECT n.nspname AS schema, c.relname AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ANY($1) AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      ORDER BY 1, 2`,
    [schemas],
  );
  return rows;
}

/** Columns a row is inserted with (generated columns are computed by the target). */
async function insertableColumns(db: pg.PoolClient, table: Table): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT attname AS name FROM pg_attribute
      WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
      ORDER BY attnum`,
    [qualified(table)],
  );
  return rows.map((row) => row.name);
}

interface ForeignKey {
  table: Table;
  name: string;
  definition: string;
}

async function listForeignKeys(db: pg.PoolClient, schemas: string[]): Promise<ForeignKey[]> {
  // conparentid = 0: a partition's copy of its parent's constraint goes with the parent's.
  const { rows } = await db.query<{ schema: string; table: string; name: string; definition: string }>(
    `SELECT n.nspname AS schema, c.relname AS table, con.conname AS name,
            pg_get_constraintdef(con.oid) AS definition
       FROM pg_constraint con
       JOIN pg_class c ON c.oid = con.conrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE con.contype = 'f' AND n.nspname = ANY($1) AND con.conparentid = 0
      ORDER BY 1, 2, 3`,
    [schemas],
  );
  return rows.map((row) => ({
    table: { schema: row.schema, name: row.table },
    name: row.name,
    definition: row.definition,
  }));
}

interface Trigger {
  table: Table;
  name: string;
}

/** Enabled triggers of the application (rollups kept by triggers would count copied rows twice). */
async function listTriggers(db: pg.PoolClient, schemas: string[]): Promise<Trigger[]> {
  const { rows } = await db.query<{ schema: string; table: string; name: string }>(
    `SELECT n.nspname AS schema, c.relname AS table, t.tgname AS name
       FROM pg_trigger t
       JOIN pg_class c ON c.oid = t.tgrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE NOT t.tgisinternal AND t.tgenabled <> 'D' AND t.tgparentid = 0 AND n.nspname = ANY($1)
      ORDER BY 1, 2, 3`,
    [schemas],
  );
  return rows.map((row) => ({ table: { schema: row.schema, name: row.table }, name: row.name }));
}

/**
 * Makes the target's job queue able to hold every source job: a queue the source has (a job of an
 * earlier version) gets its partition on the target before rows arrive.
 */
async function ensureJobQueues(source: pg.PoolClient, target: pg.PoolClient, jobSchema: string): Promise<void> {
  const exists = await source.query(`SELECT to_regclass($1) AS t`, [`${jobSchema}.queue`]);
  if (!exists.rows[0].t) return;
  const sourceQueues = await source.query<{ name: string; policy: string | null }>(
    `SELECT name, policy FROM ${quote(jobSchema)}.queue`,
  );
  const targetQueues = new Set(
    (await target.query<{ name: string }>(`SELECT name FROM ${quote(jobSchema)}.queue`)).rows.map((row) => row.name),
  );
  for (const queue of sourceQueues.rows) {
    if (targetQueues.has(queue.name)) continue;
    await target.query(`SELECT ${quote(jobSchema)}.create_queue($1, $2::json)`, [
      queue.name,
      JSON.stringify({ policy: queue.policy ?? 'standard' }),
    ]);
  }
}

async function copyTable(
  source: pg.PoolClient,
  target: pg.PoolClient,
  table: Table,
  columns: string[],
  batchSize: number,
): Promise<number> {
  const list = columns.map(quote).join(', ');
  const perBatch = Math.max(1, Math.min(batchSize, Math.floor(MAX_PARAMETERS / columns.length)));
  await source.query(`DECLARE copy_rows NO SCROLL CURSOR FOR SELECT ${list} FROM ${qualified(table)}`);
  let copied = 0;
  try {
    for (;;) {
      const batch = await source.query<Record<string, string | null>>({
        text: `FETCH ${perBatch} FROM copy_rows`,
        types: AS_TEXT,
      });
      if (batch.rows.length === 0) break;
      const values: (string | null)[] = [];
      const tuples = batch.rows.map((row) => {
        const placeholders = columns.map((column) => {
          values.push(row[column] ?? null);
          return `$${values.length}`;
        });
        return `(${placeholders.join(', ')})`;
      });
      // Untyped parameters take each column's type, so its input function reads the text printed by
      // the source. OVERRIDING SYSTEM VALUE keeps identity columns' values (webhook event order).
      await target.query(
        `INSERT INTO ${qualified(table)} (${list}) OVERRIDING SYSTEM VALUE VALUES ${tuples.join(', ')}`,
        values,
      );
      copied += batch.rows.length;
    }
  } finally {
    await source.query('CLOSE copy_rows');
  }
  return copied;
}

async function copySequences(source: pg.PoolClient, target: pg.PoolClient, schemas: string[]): Promise<number> {
  const { rows } = await source.query<{ name: string; last_value: string | null }>({
    text: `SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) AS name, last_value
             FROM pg_sequences WHERE schemaname = ANY($1)`,
    values: [schemas],
    types: AS_TEXT,
  });
  let set = 0;
  for (const row of rows) {
    // A sequence never used keeps its start; a used one continues after the source's last value.
    if (row.last_value === null) continue;
    await target.query(`SELECT setval($1::regclass, $2::bigint, true)`, [row.name, row.last_value]);
    set++;
  }
  return set;
}

export async function copyDatabase(
  sourcePool: pg.Pool,
  targetPool: pg.Pool,
  options: { schemas: string[]; jobSchema?: string; batchSize?: number; onTable?: (progress: CopyProgress) => void },
): Promise<CopyResult> {
  const batchSize = options.batchSize ?? 1000;
  const source = await sourcePool.connect();
  const target = await targetPool.connect();
  try {
    for (const client of [source, target]) {
      // Text forms both sides read the same way.
      await client.query(`SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'postgres'`);
      await client.query('SET extra_float_digits = 3');
    }
    await source.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await target.query('BEGIN');
    try {
      if (options.jobSchema) await ensureJobQueues(source, target, options.jobSchema);
      const tables = await listTables(target, options.schemas);
      const sourceTables = new Set((await listTables(source, options.schemas)).map(label));
      const missing = [...sourceTables].filter((name) => !tables.some((table) => label(table) === name));
      if (missing.length > 0)
        throw new Error(`the target has no table for ${missing.join(', ')}: are both databases at the same version?`);

      const foreignKeys = await listForeignKeys(target, options.schemas);
      for (const key of foreignKeys)
        await target.query(`ALTER TABLE ${qualified(key.table)} DROP CONSTRAINT ${quote(key.name)}`);
      // Rows arrive as they are, derived tables included: nothing recomputes them on the way in.
      const triggers = await listTriggers(target, options.schemas);
      for (const trigger of triggers)
        await target.query(`ALTER TABLE ${qualified(trigger.table)} DISABLE TRIGGER ${quote(trigger.name)}`);
      if (tables.length > 0) await target.query(`TRUNCATE ${tables.map(qualified).join(', ')}`);

      const copied: CopyProgress[] = [];
      for (const table of tables) {
        if (!sourceTables.has(label(table))) continue;
        const rows = await copyTable(source, target, table, await insertableColumns(target, table), batchSize);
        const progress = { table: label(table), rows };
        copied.push(progress);
        options.onTable?.(progress);
      }
      const sequences = await copySequences(source, target, options.schemas);
      for (const trigger of triggers)
        await target.query(`ALTER TABLE ${qualified(trigger.table)} ENABLE TRIGGER ${quote(trigger.name)}`);
      for (const key of foreignKeys)
        await target.query(`ALTER TABLE ${qualified(key.table)} ADD CONSTRAINT ${quote(key.name)} ${key.definition}`);
      await target.query('COMMIT');
      return { tables: copied, sequences };
    } catch (error) {
      await target.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      await source.query('ROLLBACK').catch(() => {});
    }
  } finally {
    source.release();
    target.release();
  }
}

/** Row counts of every table of `schemas` (to check a copy). */
export async function countRows(pool: pg.Pool, schemas: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const table of await listTables(pool, schemas)) {
    const { rows } = await pool.query<{ count: string }>({
      text: `SELECT count(*) AS count FROM ${qualified(table)}`,
      types: AS_TEXT,
    });
    counts.set(label(table), Number(rows[0]!.count));
  }
  return counts;
}
