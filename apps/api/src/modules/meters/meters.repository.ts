import { sql, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import type { MetersTable } from '../../db/tables/benefits.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { likeContains } from '../../platform/db/like.js';
import { metadataMatches } from '../../platform/db/metadata-filter.js';
import { paginate } from '../../platform/db/paginate.js';
import type {
  FilterClause,
  FilterOperator,
  MeterAggregation,
  MeterDefinition,
  MeterFilter,
} from '../customer-meters/customer-meters.window.js';
import type { MeterListParams, TimeInterval } from './meters.schemas.js';

export type MeterRow = Selectable<MetersTable>;

// ---------------------------------------------------------------------------------------------------
// Filters and aggregations in SQL: the same semantics as the pure functions of
// customer-meters.window.ts (which the tests hold them to), evaluated where the events are.
// ---------------------------------------------------------------------------------------------------

const OPERATORS: Record<Exclude<FilterOperator, 'like' | 'not_like'>, string> = {
  eq: '=',
  ne: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
};

const FALSE = sql<SqlBool>`false`;
const TRUE = sql<SqlBool>`true`;

function withoutMetadataPrefix(property: string): string {
  return property.startsWith('metadata.') ? property.slice('metadata.'.length) : property;
}

const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/** A number as PostgreSQL reads a numeric literal (positional notation, no exponent surprises). */
function numericText(value: number): string {
  return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

/** The filter value as text: booleans as PostgreSQL writes them (`t`/`f`), numbers positionally. */
function textOfValue(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return typeof value === 'number' ? numericText(value) : value;
}

/**
 * `LIKE '%value%'` with the value's own wildcards kept; a lone trailing backslash is a literal one (it
 * escapes nothing), as the pure matcher reads it.
 */
function likePattern(value: string): string {
  const trailing = /\\+$/.exec(value)?.[0].length ?? 0;
  return `%${trailing % 2 === 1 ? `${value}\\` : value}%`;
}

function compareText(column: RawBuilder<unknown>, operator: FilterOperator, text: string): RawBuilder<SqlBool> {
  if (operator === 'like') return sql<SqlBool>`coalesce(${column} LIKE ${likePattern(text)}, false)`;
  if (operator === 'not_like') return sql<SqlBool>`coalesce(${column} NOT LIKE ${likePattern(text)}, false)`;
  // Equality is the same in every deterministic collation; left plain, `name = …` can use an index.
  if (operator === 'eq') return sql<SqlBool>`(${column} = ${text}::text)`;
  if (operator === 'ne') return sql<SqlBool>`(${column} <> ${text}::text)`;
  return sql<SqlBool>`(${column} COLLATE "C" ${sql.raw(OPERATORS[operator])} (${text}::text COLLATE "C"))`;
}

function clauseSql(clause: FilterClause, table: string): RawBuilder<SqlBool> {
  const property = withoutMetadataPrefix(clause.property);
  const { operator, value } = clause;
  const column = (name: string) => sql.ref(`${table}.${name}`);
  if (property === 'name' || property === 'source') {
    return typeof value === 'string' ? compareText(sql`${column(property)}`, operator, value) : FALSE;
  }
  if (property === 'timestamp') {
    if (!isInt(value) || operator === 'like' || operator === 'not_like') return FALSE;
    return sql<SqlBool>`(extract(epoch from ${column('timestamp')}) ${sql.raw(OPERATORS[operator])} ${numericText(value)}::numeric)`;
  }
  const json = sql`(${column('metadata')} -> ${property}::text)`;
  const text = sql`(${column('metadata')} ->> ${property}::text)`;
  if (operator === 'like' || operator === 'not_like') return compareText(text, operator, textOfValue(value));
  const op = sql.raw(OPERATORS[operator]);
  const number = isInt(value) ? sql<SqlBool>`(${text})::numeric ${op} ${numericText(value)}::numeric` : FALSE;
  const boolean = typeof value === 'boolean' ? sql<SqlBool>`(${text})::boolean ${op} ${value}::boolean` : FALSE;
  return sql<SqlBool>`(CASE jsonb_typeof(${json})
    WHEN 'string' THEN ${compareText(text, operator, textOfValue(value))}
    WHEN 'number' THEN ${number}
    WHEN 'boolean' THEN ${boolean}
    ELSE false END)`;
}

/** The filter as a boolean SQL expression over `table` (an events alias). An empty filter is true. */
export function filterSql(filter: MeterFilter, table = 'events'): RawBuilder<SqlBool> {
  if (filter.clauses.length === 0) return TRUE;
  const parts = filter.clauses.map((clause) =>
    'conjunction' in clause ? filterSql(clause, table) : clauseSql(clause, table),
  );
  return sql<SqlBool>`(${sql.join(parts, sql.raw(filter.conjunction === 'or' ? ' OR ' : ' AND '))})`;
}

/** Whether an event carries what the aggregation reads (a finite number; any non-null value for unique). */
export function aggregationGuardSql(aggregation: MeterAggregation, table = 'events'): RawBuilder<SqlBool> {
  if (aggregation.func === 'count') return TRUE;
  const json = sql`(${sql.ref(`${table}.metadata`)} -> ${withoutMetadataPrefix(aggregation.property)}::text)`;
  if (aggregation.func === 'unique') return sql<SqlBool>`coalesce(jsonb_typeof(${json}) <> 'null', false)`;
  return sql<SqlBool>`coalesce(jsonb_typeof(${json}) = 'number', false)`;
}

/**
 * The aggregate over the rows that pass the guard, as exact numeric (text on the wire, so a sum no
 * double can hold never fails the query).
 */
export function aggregateSql(aggregation: MeterAggregation, table = 'events'): RawBuilder<string | null> {
  if (aggregation.func === 'count') return sql<string>`count(*)::numeric::text`;
  const property = withoutMetadataPrefix(aggregation.property);
  if (aggregation.func === 'unique') {
    return sql<string>`count(DISTINCT (${sql.ref(`${table}.metadata`)} -> ${property}::text))::numeric::text`;
  }
  const value = sql`(${sql.ref(`${table}.metadata`)} ->> ${property}::text)::numeric`;
  return sql<string | null>`${sql.raw(aggregation.func)}(${value})::text`;
}

/** The user events a meter counts: its filter and its aggregation's guard. */
export function meterEventsSql(meter: Pick<MeterDefinition, 'filter' | 'aggregation'>, table = 'events') {
  return sql<SqlBool>`(${sql.ref(`${table}.source`)} = 'user' AND ${filterSql(meter.filter, table)} AND ${aggregationGuardSql(meter.aggregation, table)})`;
}

// ---------------------------------------------------------------------------------------------------
// Meters
// ---------------------------------------------------------------------------------------------------

function visible(db: Executor, subject: Subject) {
  return db.selectFrom('meters').selectAll('meters').where(organizationVisibleTo(subject, 'meters.organization_id'));
}

export async function findVisibleMeter(db: Executor, subject: Subject, id: string): Promise<MeterRow | undefined> {
  return visible(db, subject).where('meters.id', '=', id).executeTakeFirst();
}

export async function lockVisibleMeter(db: Executor, subject: Subject, id: string): Promise<MeterRow | undefined> {
  return visible(db, subject).where('meters.id', '=', id).forUpdate().executeTakeFirst();
}

export async function listVisibleMeters(db: Executor, subject: Subject, params: MeterListParams) {
  let query = visible(db, subject).where('meters.archived_at', 'is', null);
  if (params.organization_id?.length) query = query.where('meters.organization_id', 'in', params.organization_id);
  if (params.query) query = query.where('meters.name', 'ilike', likeContains(params.query));
  if (params.metadata) query = query.where(metadataMatches('meters.metadata', params.metadata));
  for (const sort of params.sorting) query = query.orderBy(`meters.${sort.key}`, sort.descending ? 'desc' : 'asc');
  return paginate(db, query.orderBy('meters.id'), params);
}

export interface NewMeter {
  id: string;
  created_at: Date;
  organization_id: string;
  name: string;
  filter: unknown;
  aggregation: unknown;
  metadata: unknown;
}

export async function insertMeter(db: Executor, row: NewMeter): Promise<MeterRow> {
  return db
    .insertInto('meters')
    .values({
      ...row,
      modified_at: null,
      archived_at: null,
      filter: JSON.stringify(row.filter),
      aggregation: JSON.stringify(row.aggregation),
      metadata: JSON.stringify(row.metadata),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface MeterChanges {
  modified_at: Date;
  name?: string;
  filter?: unknown;
  aggregation?: unknown;
  metadata?: unknown;
  rollups_built_at?: null;
}

export async function updateMeter(db: Executor, id: string, changes: MeterChanges): Promise<MeterRow> {
  const { filter, aggregation, metadata, ...rest } = changes;
  return db
    .updateTable('meters')
    .set({
      ...rest,
      ...(filter !== undefined ? { filter: JSON.stringify(filter) } : {}),
      ...(aggregation !== undefined ? { aggregation: JSON.stringify(aggregation) } : {}),
      ...(metadata !== undefined ? { metadata: JSON.stringify(metadata) } : {}),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Whether the meter has started to count for customers, after which what it counts may no longer
 * change: a customer's event it counts (by id, or by an external id a customer holds), a credit or
 * reset of it, or a subscription on a product with a metered price on it.
 */
export async function meterInUse(db: Executor, meter: MeterRow & MeterDefinition): Promise<boolean> {
  const row = await sql<{ used: boolean }>`
    SELECT (
      EXISTS (
        SELECT 1 FROM events
        WHERE events.organization_id = ${meter.organization_id}
          AND ${meterEventsSql(meter)}
          AND (events.customer_id IS NOT NULL OR EXISTS (
            SELECT 1 FROM customers
            WHERE customers.organization_id = events.organization_id
              AND customers.external_id = events.external_customer_id))
      )
      OR EXISTS (
        SELECT 1 FROM events
        WHERE events.organization_id = ${meter.organization_id}
          AND events.source = 'system'
          AND events.name IN ('meter.credited', 'meter.reset')
          AND events.metadata ->> 'meter_id' = ${meter.id}
      )
      OR EXISTS (
        SELECT 1 FROM product_prices
        JOIN subscriptions ON subscriptions.product_id = product_prices.product_id
        WHERE product_prices.meter_id = ${meter.id}
      )
    ) AS used`.execute(db);
  return row.rows[0]?.used === true;
}

// ---------------------------------------------------------------------------------------------------
// Quantities
// ---------------------------------------------------------------------------------------------------

export interface QuantitiesQuery {
  meter: MeterRow & MeterDefinition;
  start: Date;
  end: Date;
  interval: TimeInterval;
  customerIds?: string[];
  externalCustomerIds?: string[];
  metadata?: Record<string, string[]>;
}

/** Events of the given customers, through either column (an external id reaches the customer it names). */
export function customerEventsSql(
  organizationColumn: string,
  customerIds: string[] | undefined,
  externalCustomerIds: string[] | undefined,
  table = 'events',
): RawBuilder<SqlBool> {
  const parts: RawBuilder<SqlBool>[] = [];
  const ids = customerIds ?? [];
  const externals = externalCustomerIds ?? [];
  const customerId = sql.ref(`${table}.customer_id`);
  const externalId = sql.ref(`${table}.external_customer_id`);
  if (ids.length > 0) {
    parts.push(sql<SqlBool>`${customerId} IN (${sql.join(ids)})`);
    parts.push(sql<SqlBool>`${externalId} IN (
      SELECT customers.external_id FROM customers
      WHERE customers.id IN (${sql.join(ids)}) AND customers.organization_id = ${sql.ref(organizationColumn)})`);
  }
  if (externals.length > 0) {
    parts.push(sql<SqlBool>`${externalId} IN (${sql.join(externals)})`);
    parts.push(sql<SqlBool>`${customerId} IN (
      SELECT customers.id FROM customers
      WHERE customers.external_id IN (${sql.join(externals)})
        AND customers.organization_id = ${sql.ref(organizationColumn)})`);
  }
  return parts.length === 0 ? TRUE : sql<SqlBool>`(${sql.join(parts, sql.raw(' OR '))})`;
}

function metadataSql(metadata: Record<string, string[]> | undefined, table = 'events'): RawBuilder<SqlBool> {
  const entries = Object.entries(metadata ?? {}).filter(([, values]) => values.length > 0);
  if (entries.length === 0) return TRUE;
  return sql<SqlBool>`(${sql.join(
    entries.map(([key, values]) => sql`(${sql.ref(`${table}.metadata`)} ->> ${key}::text) IN (${sql.join(values)})`),
    sql.raw(' AND '),
  )})`;
}

/**
 * The meter's quantity per bucket and in total. Buckets start at `start` and step by one interval
 * (not truncated); a bucket holds the events whose timestamp truncates (in UTC) to the bucket's own
 * truncation. The total aggregates every event between the truncated ends, so for max it is the
 * overall max, not a sum of buckets.
 */
export async function meterQuantities(db: Executor, query: QuantitiesQuery): Promise<Quantities> {
  const { meter, start, end, interval } = query;
  const step = sql.lit(`1 ${interval}`);
  const unit = sql.lit(interval);
  const where = sql<SqlBool>`events.organization_id = ${meter.organization_id}
    AND ${meterEventsSql(meter)}
    AND ${customerEventsSql('events.organization_id', query.customerIds, query.externalCustomerIds)}
    AND ${metadataSql(query.metadata)}
    AND events.timestamp >= date_trunc(${unit}, ${start}::timestamptz, 'UTC')
    AND events.timestamp < date_trunc(${unit}, ${end}::timestamptz, 'UTC') + ${step}::interval`;
  // One pass over the events for the buckets and the total: `GROUPING SETS` aggregates each bucket and,
  // in the row whose bucket is NULL, the whole range (max is the overall max, unique the distinct values
  // of the range). At volume the scan is the cost (a metadata condition or a unique meter reads every
  // event of the range), so reading the events twice cost twice.
  return bucketedQuantities(db, {
    from: sql`events`,
    where,
    time: sql`events.timestamp`,
    aggregate: aggregateSql(meter.aggregation),
    start,
    end,
    interval,
  });
}

export type Quantities = { buckets: { timestamp: Date; quantity: string }[]; total: string };

/**
 * The buckets (one per interval from `start` to `end`, 0 where no row falls) and the total of `aggregate`
 * over the rows of `from` that match `where`, grouped by `time` truncated to the interval in UTC, in one
 * pass over the rows (`GROUPING SETS`): the events, or the hourly rollups (meter-rollups.repository.ts).
 */
export async function bucketedQuantities(
  db: Executor,
  query: {
    from: RawBuilder<unknown>;
    where: RawBuilder<SqlBool>;
    time: RawBuilder<unknown>;
    aggregate: RawBuilder<unknown>;
    start: Date;
    end: Date;
    interval: TimeInterval;
  },
): Promise<Quantities> {
  const { start, end } = query;
  const step = sql.lit(`1 ${query.interval}`);
  const unit = sql.lit(query.interval);
  const bucket = sql`date_trunc(${unit}, ${query.time}, 'UTC')`;
  const { rows } = await sql<{ timestamp: Date | null; quantity: string | null; is_total: boolean }>`
    WITH grouped AS MATERIALIZED (
      SELECT ${bucket} AS bucket, ${query.aggregate} AS quantity, grouping(${bucket}) = 1 AS is_total
      FROM ${query.from} WHERE ${query.where}
      GROUP BY GROUPING SETS ((${bucket}), ())
    ),
    series AS (
      SELECT ts FROM generate_series(${start}::timestamptz, ${end}::timestamptz, ${step}::interval) AS ts
    )
    SELECT series.ts AS timestamp, coalesce(grouped.quantity, '0') AS quantity, false AS is_total
    FROM series LEFT JOIN grouped ON NOT grouped.is_total AND grouped.bucket = date_trunc(${unit}, series.ts, 'UTC')
    UNION ALL
    SELECT NULL, quantity, true FROM grouped WHERE is_total
    ORDER BY is_total, timestamp`.execute(db);
  return {
    buckets: rows.filter((row) => !row.is_total).map((row) => ({ timestamp: row.timestamp!, quantity: row.quantity! })),
    total: rows.find((row) => row.is_total)?.quantity ?? '0',
  };
}
