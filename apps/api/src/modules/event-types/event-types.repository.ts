import { sql, type Selectable, type SqlBool } from 'kysely';
import type { EventTypesTable } from '../../db/tables/event-types.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { likeContains } from '../../platform/db/like.js';
import { paginate } from '../../platform/db/paginate.js';
import { customerEventsSql } from '../meters/meters.repository.js';
import type { EventTypesListParams } from './event-types.schemas.js';

export type EventTypeRow = Selectable<EventTypesTable>;

export interface EventTypeStatsRow {
  id: string | null;
  created_at: Date | null;
  modified_at: Date | null;
  organization_id: string;
  name: string;
  label: string;
  label_property_selector: string | null;
  source: 'system' | 'user';
  occurrences: string | number;
  first_seen: Date;
  last_seen: Date;
}

/**
 * The list: the events the subject may see under the filters, grouped by organization, name and
 * source (one statement, the events' organization/name index), each group with its type's row (the
 * trigger of migration 0056 writes it with the group's first event). `query` matches the name or the
 * label, case-insensitively.
 */
export async function listVisibleEventTypes(db: Executor, subject: Subject, params: EventTypesListParams) {
  let events = db
    .selectFrom('events')
    .where(organizationVisibleTo(subject, 'events.organization_id'))
    .select((eb) => [
      'events.organization_id',
      'events.name',
      'events.source',
      eb.fn.countAll<string>().as('occurrences'),
      eb.fn.min('events.timestamp').as('first_seen'),
      eb.fn.max('events.timestamp').as('last_seen'),
    ])
    .groupBy(['events.organization_id', 'events.name', 'events.source']);
  if (params.organization_id?.length) events = events.where('events.organization_id', 'in', params.organization_id);
  if (params.customer_id?.length || params.external_customer_id?.length) {
    events = events.where(customerEventsSql('events.organization_id', params.customer_id, params.external_customer_id));
  }
  // parent_id is of migration 0055 (UsageEventColumns), not in the grant engine's table type.
  if (params.root_events) events = events.where(sql<SqlBool>`events.parent_id IS NULL`);
  if (params.parent_id) events = events.where(sql<SqlBool>`events.parent_id = ${params.parent_id}::uuid`);
  if (params.source) events = events.where('events.source', '=', params.source);

  let query = db
    .selectFrom(events.as('stats'))
    .leftJoin('event_types', (join) =>
      join
        .onRef('event_types.organization_id', '=', 'stats.organization_id')
        .onRef('event_types.name', '=', 'stats.name'),
    )
    .select([
      'event_types.id',
      'event_types.created_at',
      'event_types.modified_at',
      'stats.organization_id',
      'stats.name',
      sql<string>`coalesce(event_types.label, stats.name)`.as('label'),
      'event_types.label_property_selector',
      'stats.source',
      'stats.occurrences',
      'stats.first_seen',
      'stats.last_seen',
    ]);
  if (params.query) {
    const term = likeContains(params.query);
    query = query.where((eb) => eb.or([eb('stats.name', 'ilike', term), eb('event_types.label', 'ilike', term)]));
  }
  for (const sort of params.sorting) {
    const column = sort.key === 'label' ? sql`coalesce(event_types.label, stats.name)` : sql.ref(`stats.${sort.key}`);
    query = query.orderBy(column as never, sort.descending ? 'desc' : 'asc');
  }
  query = query.orderBy('stats.name').orderBy('stats.source').orderBy('stats.organization_id');
  return paginate(db, query as never, params) as Promise<{ rows: EventTypeStatsRow[]; total: number }>;
}

export async function findVisibleEventType(
  db: Executor,
  subject: Subject,
  id: string,
  lock = false,
): Promise<EventTypeRow | undefined> {
  let query = db
    .selectFrom('event_types')
    .selectAll()
    .where('id', '=', id)
    .where(organizationVisibleTo(subject, 'event_types.organization_id'));
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function updateEventType(
  db: Executor,
  id: string,
  changes: { label: string; label_property_selector: string | null; modified_at: Date },
): Promise<EventTypeRow> {
  return db.updateTable('event_types').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** The labels of the (organization, name) pairs that have a type; `organization \0 name` → label. */
export async function findEventTypeLabels(
  db: Executor,
  pairs: { organization_id: string; name: string }[],
): Promise<Map<string, string>> {
  if (pairs.length === 0) return new Map();
  const { rows } = await sql<{ organization_id: string; name: string; label: string }>`
    SELECT event_types.organization_id, event_types.name, event_types.label
    FROM unnest(${pairs.map((p) => p.organization_id)}::uuid[], ${pairs.map((p) => p.name)}::text[])
      AS given (organization_id, name)
    JOIN event_types ON event_types.organization_id = given.organization_id AND event_types.name = given.name`.execute(
    db,
  );
  return new Map(rows.map((row) => [`${row.organization_id}\u0000${row.name}`, row.label]));
}
