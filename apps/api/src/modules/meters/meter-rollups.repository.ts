import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { MeterAggregation, MeterDefinition } from '../customer-meters/customer-meters.window.js';
import {
  bucketedQuantities,
  meterEventsSql,
  type MeterRow,
  type Quantities,
  type QuantitiesQuery,
} from './meters.repository.js';

/**
 * Per-meter rollups (migration 0021): for each meter, the events it counts summed per customer
 * reference and hour, maintained in the ingest's own statement and rebuilt from the events when a
 * meter is created or changes what it counts. Every aggregation but `unique` is exact from them: count,
 * numeric sum, min and max compose, and avg is sum / count. Reads use them only for built meters
 * (`rollups_built_at`), and otherwise scan the events with the same SQL rules.
 *
 * Ingests take a shared advisory lock per organization, a rebuild the exclusive one: a rebuild sees
 * every ingest committed before it and none that started after it, and those see the built meter.
 */

/** The class of the two-key advisory locks on an organization's rollups. */
const ROLLUP_LOCK = 210021;

/** A meter whose rollups the ingest maintains: built, and not `unique`. */
export type RolledUpMeter = Pick<MeterRow, 'id' | 'organization_id'> & Pick<MeterDefinition, 'filter' | 'aggregation'>;

export function rollsUp(meter: Pick<MeterRow, 'rollups_built_at' | 'aggregation'>): boolean {
  return meter.rollups_built_at !== null && (meter.aggregation as MeterAggregation).func !== 'unique';
}

/** Shared: ingests of one organization run side by side, but never beside a rebuild of its meters. */
export async function lockRollupsShared(db: Executor, organizationIds: string[]): Promise<void> {
  for (const id of [...new Set(organizationIds)].sort()) {
    await sql`SELECT pg_advisory_xact_lock_shared(${ROLLUP_LOCK}, hashtext(${id}))`.execute(db);
  }
}

/** Exclusive: waits for the organization's ingests in flight to commit, and holds new ones back. */
export async function lockRollupsExclusive(db: Executor, organizationId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${ROLLUP_LOCK}, hashtext(${organizationId}))`.execute(db);
}

/**
 * The instant a usage event of the organization is stamped at (`ingested_at` of an ingest, the instant
 * of a `meter.reset` or `meter.credited`): the database's clock plus the organization's test-clock
 * offset (`testClocks`: outside production), never earlier than 1 ms after the organization's latest
 * `meter.reset`, nor than 1 ms after `after`. Read under the organization's usage lock (shared for an
 * ingest or a credit, exclusive for billing's reset): one clock for every node, and a lower bound that
 * keeps every event in exactly one window even if the database's clock stepped back. Whole
 * milliseconds, so the instant survives a JavaScript `Date` unchanged (windows compare them).
 */
export async function usageInstant(
  db: Executor,
  organizationId: string,
  options: { testClocks: boolean; after?: Date | null },
): Promise<Date> {
  const offset = options.testClocks
    ? sql`coalesce((SELECT offset_seconds FROM test_clocks WHERE organization_id = ${organizationId}), 0)`
    : sql`0`;
  const { rows } = await sql<{ at: Date }>`SELECT greatest(
      date_trunc('milliseconds', clock_timestamp()) + make_interval(secs => ${offset}),
      (SELECT max(timestamp) FROM events WHERE organization_id = ${organizationId} AND name = 'meter.reset')
        + interval '1 millisecond',
      ${options.after ?? null}::timestamptz + interval '1 millisecond'
    ) AS at`.execute(db);
  return rows[0]!.at;
}

/** Every meter of the organizations (archived ones too: their quantities stay readable). */
export async function findMetersOf(db: Executor, organizationIds: string[]): Promise<MeterRow[]> {
  if (organizationIds.length === 0) return [];
  return db
    .selectFrom('meters')
    .selectAll()
    .where('organization_id', 'in', organizationIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The property an aggregation reads, as numeric (NULL for count). */
function valueSql(aggregation: MeterAggregation, table: string): RawBuilder<unknown> {
  if (aggregation.func === 'count' || aggregation.func === 'unique') return sql`NULL::numeric`;
  const property = aggregation.property.startsWith('metadata.')
    ? aggregation.property.slice('metadata.'.length)
    : aggregation.property;
  return sql`(${sql.ref(`${table}.metadata`)} ->> ${property}::text)::numeric`;
}

/**
 * The counted rows of `table` (an alias with the events' columns): one per event and meter that counts
 * it, with its rollup key and value.
 */
function countedSql(meters: RolledUpMeter[], table: string): RawBuilder<unknown> {
  const column = (name: string) => sql.ref(`${table}.${name}`);
  return sql.join(
    meters.map(
      (meter) => sql`SELECT ${meter.id}::uuid AS meter_id, ${column('organization_id')} AS organization_id,
        ${column('customer_id')} AS customer_id, ${column('external_customer_id')} AS external_customer_id,
        date_trunc('hour', ${column('timestamp')}, 'UTC') AS bucket,
        date_trunc('hour', ${column('ingested_at')}, 'UTC') AS ingested_bucket,
        ${valueSql(meter.aggregation, table)} AS value, ${column('ingested_at')} AS ingested_at
      FROM ${sql.table(table)}
      WHERE ${column('organization_id')} = ${meter.organization_id} AND ${meterEventsSql(meter, table)}`,
    ),
    sql` UNION ALL `,
  );
}

/**
 * The shard of the rows an ingest upserts (migration 0032): its connection's, so concurrent ingests of
 * the same hour and customer write different rows instead of waiting for each other's commit. Readers
 * aggregate rows, so any number of shards per key reads the same.
 */
export const shardSql = sql<number>`(pg_backend_pid() % 8)::smallint`;

/** Upserts of the counted rows into both rollup tables (keys in order, so concurrent upserts never deadlock). */
function upsertRollupsSql(counted: string): { rollups: RawBuilder<unknown>; totals: RawBuilder<unknown> } {
  const from = sql.table(counted);
  return {
    rollups: sql`INSERT INTO meter_rollups AS r (meter_id, organization_id, customer_id, external_customer_id, bucket,
        ingested_bucket, events, sum, min, max, first_ingested_at, last_ingested_at, shard)
      SELECT meter_id, organization_id, customer_id, external_customer_id, bucket, ingested_bucket,
        count(*), coalesce(sum(value), 0), min(value), max(value), min(ingested_at), max(ingested_at), ${shardSql}
      FROM ${from}
      GROUP BY meter_id, organization_id, customer_id, external_customer_id, bucket, ingested_bucket
      ORDER BY meter_id, customer_id, external_customer_id, bucket, ingested_bucket
      ON CONFLICT ON CONSTRAINT meter_rollups_key DO UPDATE SET
        events = r.events + excluded.events,
        sum = r.sum + excluded.sum,
        min = least(r.min, excluded.min),
        max = greatest(r.max, excluded.max),
        first_ingested_at = least(r.first_ingested_at, excluded.first_ingested_at),
        last_ingested_at = greatest(r.last_ingested_at, excluded.last_ingested_at)`,
    totals: sql`INSERT INTO meter_rollup_totals AS t (meter_id, bucket, events, sum, min, max, shard)
      SELECT meter_id, bucket, count(*), coalesce(sum(value), 0), min(value), max(value), ${shardSql}
      FROM ${from}
      GROUP BY meter_id, bucket
      ORDER BY meter_id, bucket
      ON CONFLICT (meter_id, bucket, shard) DO UPDATE SET
        events = t.events + excluded.events,
        sum = t.sum + excluded.sum,
        min = least(t.min, excluded.min),
        max = greatest(t.max, excluded.max)`,
  };
}

/**
 * The ingest's insert, with the rollups of `meters` (built, not unique, of the events' organizations)
 * brought up to date in the same statement: the inserted rows (duplicates skipped) are counted once.
 * `insert` is an `INSERT INTO events … RETURNING *`-style statement returning the events' columns.
 */
export function withRollups(insert: RawBuilder<unknown>, meters: RolledUpMeter[]): RawBuilder<{ id: string }> {
  if (meters.length === 0) return sql<{ id: string }>`WITH inserted AS (${insert}) SELECT id FROM inserted`;
  const { rollups, totals } = upsertRollupsSql('counted');
  return sql<{ id: string }>`WITH inserted AS (${insert}),
    counted AS MATERIALIZED (${countedSql(meters, 'inserted')}),
    rollups AS (${rollups}),
    totals AS (${totals})
    SELECT id FROM inserted`;
}

/**
 * Rebuilds the meter's rollups from the events (the caller holds the organization's exclusive lock)
 * and marks them built. A `unique` meter has none: its rows are only removed.
 */
export async function rebuildMeterRollups(db: Executor, meter: MeterRow & MeterDefinition, now: Date): Promise<void> {
  await db.deleteFrom('meter_rollups').where('meter_id', '=', meter.id).execute();
  await db.deleteFrom('meter_rollup_totals').where('meter_id', '=', meter.id).execute();
  if (meter.aggregation.func === 'unique') return;
  const { rollups } = upsertRollupsSql('counted');
  await sql`WITH counted AS MATERIALIZED (${countedSql([meter], 'events')}) ${rollups}`.execute(db);
  await sql`INSERT INTO meter_rollup_totals (meter_id, bucket, events, sum, min, max)
    SELECT meter_id, bucket, sum(events), sum(sum), min(min), max(max)
    FROM meter_rollups WHERE meter_id = ${meter.id}
    GROUP BY meter_id, bucket`.execute(db);
  await db.updateTable('meters').set({ rollups_built_at: now }).where('id', '=', meter.id).execute();
}

/** Meters whose rollups are not built (new, changed, or from before 0021), oldest first. */
export async function findMetersToRoll(db: Executor, limit: number): Promise<MeterRow[]> {
  return db
    .selectFrom('meters')
    .selectAll()
    .where('rollups_built_at', 'is', null)
    .where(sql<SqlBool>`aggregation ->> 'func' <> 'unique'`)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function findMetersByIds(db: Executor, ids: string[]): Promise<MeterRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('meters').selectAll().where('id', 'in', ids).execute();
}

export async function lockMeter(db: Executor, id: string): Promise<MeterRow | undefined> {
  return db.selectFrom('meters').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function meterRollsUp(db: Executor, meterId: string): Promise<boolean> {
  const row = await db
    .selectFrom('meters')
    .select(['rollups_built_at', 'aggregation'])
    .where('id', '=', meterId)
    .executeTakeFirst();
  return row !== undefined && rollsUp(row);
}

// ---------------------------------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------------------------------

/** The aggregation over rollup rows of `table` (exact numeric as text, like `aggregateSql` on events). */
export function rollupAggregateSql(aggregation: MeterAggregation, table: string): RawBuilder<string | null> {
  const column = (name: string) => sql.ref(`${table}.${name}`);
  switch (aggregation.func) {
    case 'count':
      return sql<string>`coalesce(sum(${column('events')}), 0)::numeric::text`;
    case 'sum':
      return sql<string | null>`sum(${column('sum')})::text`;
    case 'min':
      return sql<string | null>`min(${column('min')})::text`;
    case 'max':
      return sql<string | null>`max(${column('max')})::text`;
    case 'avg':
      return sql<string | null>`(sum(${column('sum')}) / sum(${column('events')}))::text`;
    case 'unique':
      throw new Error('unique is never rolled up');
  }
}

/** The rows a rollup read sums, as one part of a window: events, sum, min, max, first and last. */
export function rawWindowPartSql(aggregation: MeterAggregation, table: string): RawBuilder<unknown> {
  const value = valueSql(aggregation, table);
  return sql`1::bigint AS events, coalesce(${value}, 0) AS sum, ${value} AS min, ${value} AS max,
    ${sql.ref(`${table}.ingested_at`)} AS first, ${sql.ref(`${table}.ingested_at`)} AS last`;
}

/**
 * Both references of the given customers, as `customerEventsSql` reads them: the ids given and those of
 * the organization's customers holding the external ids given, and the external ids given and those
 * the customers given hold. Resolved first, so the rollup read is a plain lookup on either column.
 */
async function customerReferences(
  db: Executor,
  organizationId: string,
  customerIds: string[],
  externalIds: string[],
): Promise<{ ids: string[]; externals: string[] }> {
  const rows = await db
    .selectFrom('customers')
    .select(['id', 'external_id'])
    .where('organization_id', '=', organizationId)
    .where((eb) =>
      eb.or([
        ...(customerIds.length > 0 ? [eb('id', 'in', customerIds)] : []),
        ...(externalIds.length > 0 ? [eb('external_id', 'in', externalIds)] : []),
      ]),
    )
    .execute();
  return {
    ids: [
      ...new Set([
        ...customerIds,
        ...rows.filter((r) => r.external_id !== null && externalIds.includes(r.external_id)).map((r) => r.id),
      ]),
    ],
    externals: [
      ...new Set([
        ...externalIds,
        ...rows.flatMap((r) => (r.external_id !== null && customerIds.includes(r.id) ? [r.external_id] : [])),
      ]),
    ],
  };
}

function referencesSql(refs: { ids: string[]; externals: string[] }): RawBuilder<SqlBool> {
  const parts: RawBuilder<SqlBool>[] = [];
  if (refs.ids.length > 0) parts.push(sql<SqlBool>`r.customer_id IN (${sql.join(refs.ids)})`);
  if (refs.externals.length > 0) parts.push(sql<SqlBool>`r.external_customer_id IN (${sql.join(refs.externals)})`);
  return parts.length === 0 ? sql<SqlBool>`false` : sql<SqlBool>`(${sql.join(parts, sql` OR `)})`;
}

/**
 * `meterQuantities` from the rollups, for a built meter that is not `unique` and a query without a
 * metadata condition: the range's ends are truncated to the interval, and every interval is a whole
 * number of UTC hours, so the hourly rows sum exactly into the buckets. Without a customer the
 * per-hour totals are read, otherwise the customer rows (through either column, as on events).
 */
export async function rollupQuantities(db: Executor, query: Omit<QuantitiesQuery, 'metadata'>): Promise<Quantities> {
  const { meter, start, end, interval } = query;
  const step = sql.lit(`1 ${interval}`);
  const unit = sql.lit(interval);
  const byCustomer = (query.customerIds?.length ?? 0) > 0 || (query.externalCustomerIds?.length ?? 0) > 0;
  const from = byCustomer ? sql`meter_rollups AS r` : sql`meter_rollup_totals AS r`;
  const refs = byCustomer
    ? await customerReferences(db, meter.organization_id, query.customerIds ?? [], query.externalCustomerIds ?? [])
    : undefined;
  const where = sql<SqlBool>`r.meter_id = ${meter.id}
    AND ${refs ? referencesSql(refs) : sql`true`}
    AND r.bucket >= date_trunc(${unit}, ${start}::timestamptz, 'UTC')
    AND r.bucket < date_trunc(${unit}, ${end}::timestamptz, 'UTC') + ${step}::interval`;
  // The buckets and the total in one pass over the rows, as `meterQuantities` does on events.
  return bucketedQuantities(db, {
    from,
    where,
    time: sql`r.bucket`,
    aggregate: rollupAggregateSql(meter.aggregation, 'r'),
    start,
    end,
    interval,
  });
}
