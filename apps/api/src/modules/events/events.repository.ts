import { sql, type Selectable, type SqlBool } from 'kysely';
import type { EventsTable } from '../../db/tables/benefit-grants.js';
import type { CustomersTable } from '../../db/tables/customers.js';
import type { UsageEventColumns } from '../../db/tables/usage.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { likeContains } from '../../platform/db/like.js';
import { metadataMatches } from '../../platform/db/metadata-filter.js';
import { paginate } from '../../platform/db/paginate.js';
import type { MeterDefinition, MeterFilter } from '../customer-meters/customer-meters.window.js';
import { shardSql, withRollups, type RolledUpMeter } from '../meters/meter-rollups.repository.js';
import { customerEventsSql, filterSql, meterEventsSql } from '../meters/meters.repository.js';
import type { EventListParams, EventNameListParams } from './events.schemas.js';

export type EventRow = Selectable<EventsTable> & UsageEventColumns & { child_count: number | string };
type EventCustomer = Selectable<CustomersTable>;

export interface NewEvent {
  id: string;
  timestamp: Date;
  ingested_at: Date;
  organization_id: string;
  customer_id: string | null;
  external_customer_id: string | null;
  external_id: string | null;
  name: string;
  metadata: Record<string, unknown>;
  parent_id: string | null;
}

/**
 * Inserts a batch in one statement: one array per column, unnested (the statement's size does not
 * grow with the batch, and no per-event round trip). Events whose (organization, external_id) exists
 * already are skipped; the ids of the inserted ones are returned. The rollups of `meters` (built, of
 * the events' organizations, under their shared rollup lock) count the inserted events in the same
 * statement.
 */
export async function insertEvents(
  db: Executor,
  events: NewEvent[],
  meters: RolledUpMeter[] = [],
): Promise<Set<string>> {
  if (events.length === 0) return new Set();
  const column = <T>(pick: (event: NewEvent) => T) => events.map(pick);
  const insert = sql`
    INSERT INTO events
      (id, timestamp, ingested_at, organization_id, customer_id, external_customer_id, external_id, name, source, metadata, parent_id)
    SELECT id, timestamp, ingested_at, organization_id, customer_id, external_customer_id, external_id, name, 'user', metadata::jsonb, parent_id
    FROM unnest(
      ${column((e) => e.id)}::uuid[],
      ${column((e) => e.timestamp.toISOString())}::timestamptz[],
      ${column((e) => e.ingested_at.toISOString())}::timestamptz[],
      ${column((e) => e.organization_id)}::uuid[],
      ${column((e) => e.customer_id)}::uuid[],
      ${column((e) => e.external_customer_id)}::text[],
      ${column((e) => e.external_id)}::text[],
      ${column((e) => e.name)}::text[],
      ${column((e) => JSON.stringify(e.metadata))}::text[],
      ${column((e) => e.parent_id)}::uuid[]
    ) AS batch (id, timestamp, ingested_at, organization_id, customer_id, external_customer_id, external_id, name, metadata, parent_id)
    ON CONFLICT (organization_id, external_id) DO NOTHING
    RETURNING id, timestamp, ingested_at, organization_id, customer_id, external_customer_id, name, source, metadata`;
  const result = await withRollups(insert, meters).execute(db);
  return new Set(result.rows.map((row) => row.id));
}

/**
 * The stored events that `refs` name as parents, in one statement: by id (a ref shaped as a UUID) or by
 * external id, within the ref's organization. Answers `organization \0 ref` → the event's id; an id wins
 * over an external id that happens to read the same.
 */
export async function findParentEvents(
  db: Executor,
  refs: { organization_id: string; ref: string }[],
): Promise<Map<string, string>> {
  if (refs.length === 0) return new Map();
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const { rows } = await sql<{ organization_id: string; ref: string; id: string; by_id: boolean }>`
    SELECT given.organization_id, given.ref, events.id, events.id = given.as_id AS by_id
    FROM unnest(
      ${refs.map((r) => r.organization_id)}::uuid[],
      ${refs.map((r) => r.ref)}::text[],
      ${refs.map((r) => (UUID.test(r.ref) ? r.ref : null))}::uuid[]
    ) AS given (organization_id, ref, as_id)
    JOIN events ON events.organization_id = given.organization_id
      AND (events.id = given.as_id OR events.external_id = given.ref)`.execute(db);
  const found = new Map<string, string>();
  for (const row of [...rows].sort((a, b) => Number(a.by_id) - Number(b.by_id))) {
    found.set(`${row.organization_id}\u0000${row.ref}`, row.id);
  }
  return found;
}

/**
 * Marks the live customers the events reach (by id, or by the external id a customer of the event's
 * organization holds) as changed, in one statement. A mark only moves forward: a customer marked again
 * gets a later `since`, so a run that read the older mark leaves the newer one. The two references are
 * resolved by two index lookups (a single join on `id = … OR external_id = …` compares every event with
 * every customer of the organization).
 */
export async function markCustomerStatesChanged(
  db: Executor,
  refs: { organization_id: string; customer_id: string | null; external_customer_id: string | null }[],
  at: Date,
): Promise<void> {
  const byId = new Map<string, { organization_id: string; id: string }>();
  const byExternal = new Map<string, { organization_id: string; id: string }>();
  for (const r of refs) {
    if (r.customer_id !== null)
      byId.set(`${r.organization_id}:${r.customer_id}`, { organization_id: r.organization_id, id: r.customer_id });
    if (r.external_customer_id !== null)
      byExternal.set(`${r.organization_id}:${r.external_customer_id}`, {
        organization_id: r.organization_id,
        id: r.external_customer_id,
      });
  }
  if (byId.size === 0 && byExternal.size === 0) return;
  const ids = [...byId.values()];
  const externals = [...byExternal.values()];
  await sql`
    INSERT INTO customer_state_changes AS marked (customer_id, since, shard)
    SELECT reached.id, ${at}::timestamptz, ${shardSql}
    FROM (
      SELECT customers.id
      FROM unnest(${ids.map((r) => r.organization_id)}::uuid[], ${ids.map((r) => r.id)}::uuid[])
        AS given (organization_id, id)
      JOIN customers ON customers.id = given.id AND customers.organization_id = given.organization_id
      WHERE customers.deleted_at IS NULL
      UNION
      SELECT customers.id
      FROM unnest(${externals.map((r) => r.organization_id)}::uuid[], ${externals.map((r) => r.id)}::text[])
        AS given (organization_id, external_id)
      JOIN customers ON customers.organization_id = given.organization_id
        AND customers.external_id = given.external_id
      WHERE customers.deleted_at IS NULL AND customers.external_id IS NOT NULL
    ) AS reached
    ORDER BY reached.id
    ON CONFLICT (customer_id, shard) DO UPDATE
      SET since = greatest(excluded.since, marked.since + interval '1 microsecond')`.execute(db);
}

/**
 * Up to `limit` marks, oldest first (read without locks: ingests never wait on a run); `since` as text,
 * to the microsecond.
 */
export async function findCustomerStateMarks(
  db: Executor,
  limit: number,
): Promise<{ customer_id: string; shard: number; since: string }[]> {
  return db
    .selectFrom('customer_state_changes')
    .select(['customer_id', 'shard', sql<string>`since::text`.as('since')])
    .orderBy('since')
    .orderBy('customer_id')
    .limit(limit)
    .execute();
}

/** Removes the marks handled, unless a later ingest moved them on. */
export async function deleteCustomerStateMarks(
  db: Executor,
  marks: { customer_id: string; shard: number; since: string }[],
): Promise<void> {
  if (marks.length === 0) return;
  await sql`
    DELETE FROM customer_state_changes
    USING unnest(
      ${marks.map((m) => m.customer_id)}::uuid[],
      ${marks.map((m) => m.shard)}::smallint[],
      ${marks.map((m) => m.since)}::timestamptz[]
    ) AS handled (customer_id, shard, since)
    WHERE customer_state_changes.customer_id = handled.customer_id
      AND customer_state_changes.shard = handled.shard
      AND customer_state_changes.since = handled.since`.execute(db);
}

/** Live customers among `ids`, with their organization. */
export async function findCustomersByIds(db: Executor, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('customers')
    .select(['id', 'organization_id'])
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  return new Map(rows.map((row) => [row.id, row.organization_id]));
}

/** Live customers among `ids`, in id order. */
export async function findLiveCustomers(db: Executor, ids: string[]): Promise<EventCustomer[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('customers')
    .selectAll()
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
}

/** The organizations among `ids` the subject may write to. */
export async function findVisibleOrganizationIds(db: Executor, subject: Subject, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('organizations')
    .select('organizations.id')
    .where('organizations.id', 'in', ids)
    .where(organizationVisibleTo(subject, 'organizations.id'))
    .execute();
  return new Set(rows.map((row) => row.id));
}

/**
 * The live customers the events reach: by id, or by the external id a customer of the event's
 * organization holds (events may name a customer before it exists; they reach it once it does).
 */
export async function findEventCustomers(
  db: Executor,
  refs: { organization_id: string; customer_id: string | null; external_customer_id: string | null }[],
): Promise<EventCustomer[]> {
  const ids = [...new Set(refs.flatMap((r) => (r.customer_id ? [r.customer_id] : [])))];
  const externals = refs.filter((r) => r.external_customer_id !== null);
  if (ids.length === 0 && externals.length === 0) return [];
  return db
    .selectFrom('customers')
    .selectAll()
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        ...(ids.length > 0 ? [eb('id', 'in', ids)] : []),
        ...(externals.length > 0
          ? [
              eb(
                eb.refTuple('organization_id', 'external_id'),
                'in',
                externals.map((r) => eb.tuple(r.organization_id, r.external_customer_id!)),
              ),
            ]
          : []),
      ]),
    )
    .execute();
}

// `selectAll` reads the columns of 0019 and 0055 too (typed by EventRow), with the count of children.
function visible(db: Executor, subject: Subject) {
  return db
    .selectFrom('events')
    .selectAll('events')
    .select(
      sql<number>`(SELECT count(*) FROM events AS children WHERE children.parent_id = events.id)::int`.as(
        'child_count',
      ),
    )
    .where(organizationVisibleTo(subject, 'events.organization_id'));
}

export async function findVisibleEvent(db: Executor, subject: Subject, id: string): Promise<EventRow | undefined> {
  return (await visible(db, subject).where('events.id', '=', id).executeTakeFirst()) as EventRow | undefined;
}

export interface EventListFilters extends EventListParams {
  parsedFilter?: MeterFilter;
  meter?: MeterDefinition;
}

export async function listVisibleEvents(db: Executor, subject: Subject, params: EventListFilters) {
  let query = visible(db, subject);
  if (params.organization_id?.length) query = query.where('events.organization_id', 'in', params.organization_id);
  if (params.start_timestamp) query = query.where('events.timestamp', '>', new Date(params.start_timestamp));
  if (params.end_timestamp) query = query.where('events.timestamp', '<', new Date(params.end_timestamp));
  if (params.customer_id?.length || params.external_customer_id?.length) {
    query = query.where(customerEventsSql('events.organization_id', params.customer_id, params.external_customer_id));
  }
  if (params.name?.length) query = query.where('events.name', 'in', params.name);
  if (params.source?.length) query = query.where('events.source', 'in', params.source);
  if (params.metadata) query = query.where(metadataMatches('events.metadata', params.metadata));
  if (params.parsedFilter) query = query.where(filterSql(params.parsedFilter));
  if (params.meter) query = query.where(meterEventsSql(params.meter));
  if (params.parent_id !== undefined || params.depth !== undefined) {
    query = query.where(treeSql(params.parent_id, params.depth));
  }
  for (const sort of params.sorting) {
    query = query.orderBy(`events.${sort.key}`, sort.descending ? 'desc' : 'asc');
  }
  return paginate(db, query.orderBy('events.id') as never, params) as Promise<{ rows: EventRow[]; total: number }>;
}

/**
 * The events of a tree: under `anchor` (its children at level 0), or the root events (no parent, at
 * level 0); down to `depth` levels, or all of them. Under an anchor the walk follows the parent index
 * from it; from the roots, an event is kept when its (depth + 1)-th ancestor is missing, read by at
 * most six primary key lookups up its chain, so no walk starts from every root of the table.
 */
function treeSql(anchor: string | undefined, depth: number | undefined) {
  if (anchor === undefined) {
    let ancestor = sql`events.parent_id`;
    for (let level = 0; level < (depth ?? 0); level++) {
      ancestor = sql`(SELECT up.parent_id FROM events AS up WHERE up.id = ${ancestor})`;
    }
    return sql<SqlBool>`${ancestor} IS NULL`;
  }
  const deeper = depth === undefined ? sql`` : sql`WHERE tree.level < ${depth}`;
  return sql<SqlBool>`events.id IN (
    WITH RECURSIVE tree (id, level) AS (
      SELECT id, 0 FROM events WHERE parent_id = ${anchor}::uuid
      UNION ALL
      SELECT child.id, tree.level + 1 FROM tree JOIN events AS child ON child.parent_id = tree.id ${deeper}
    )
    SELECT id FROM tree)`;
}

export interface EventNameRow {
  name: string;
  source: 'system' | 'user';
  occurrences: string | number;
  first_seen: Date;
  last_seen: Date;
}

export async function listVisibleEventNames(db: Executor, subject: Subject, params: EventNameListParams) {
  let query = db
    .selectFrom('events')
    .where(organizationVisibleTo(subject, 'events.organization_id'))
    .select((eb) => [
      'events.name',
      'events.source',
      eb.fn.countAll<string>().as('occurrences'),
      eb.fn.min('events.timestamp').as('first_seen'),
      eb.fn.max('events.timestamp').as('last_seen'),
    ])
    .groupBy(['events.name', 'events.source']);
  if (params.organization_id?.length) query = query.where('events.organization_id', 'in', params.organization_id);
  if (params.customer_id?.length || params.external_customer_id?.length) {
    query = query.where(customerEventsSql('events.organization_id', params.customer_id, params.external_customer_id));
  }
  if (params.source?.length) query = query.where('events.source', 'in', params.source);
  if (params.query) query = query.where('events.name', 'ilike', likeContains(params.query));
  for (const sort of params.sorting) {
    const column = sort.key === 'name' ? 'events.name' : sql.ref(sort.key);
    query = query.orderBy(column as never, sort.descending ? 'desc' : 'asc');
  }
  query = query.orderBy('events.name').orderBy('events.source');
  return paginate(db, query as never, params) as Promise<{ rows: EventNameRow[]; total: number }>;
}
