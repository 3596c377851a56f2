import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type {
  WebhookDeliveriesTable,
  WebhookEndpointEventsTable,
  WebhookEndpointsTable,
} from '../../db/tables/webhooks.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { paginate } from '../../platform/db/paginate.js';
import type { PageParams } from '../../platform/http/query.js';

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookEndpointEventRow = Selectable<WebhookEndpointEventsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookDeliveryWithEventRow = WebhookDeliveryRow & {
  event_created_at: Date;
  event_modified_at: Date | null;
  last_http_code: number | null;
  event_succeeded: boolean | null;
  payload: string;
};

// ---- Endpoints (API) ----

function visibleEndpoints(db: Executor, subject: Subject) {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll('webhook_endpoints')
    .where('webhook_endpoints.deleted_at', 'is', null)
    .where(organizationVisibleTo(subject, 'webhook_endpoints.organization_id'));
}

export function findVisibleEndpoint(db: Executor, subject: Subject, id: string) {
  return visibleEndpoints(db, subject).where('webhook_endpoints.id', '=', id).executeTakeFirst();
}

export function lockVisibleEndpoint(db: Executor, subject: Subject, id: string) {
  return visibleEndpoints(db, subject).where('webhook_endpoints.id', '=', id).forUpdate().executeTakeFirst();
}

export function listVisibleEndpoints(
  db: Executor,
  subject: Subject,
  params: PageParams & { organization_id?: string[] },
) {
  let query = visibleEndpoints(db, subject);
  if (params.organization_id) query = query.where('webhook_endpoints.organization_id', 'in', params.organization_id);
  return paginate(
    db,
    query.orderBy('webhook_endpoints.created_at', 'desc').orderBy('webhook_endpoints.id', 'desc'),
    params,
  );
}

export async function insertEndpoint(db: Executor, row: Insertable<WebhookEndpointsTable>): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

export async function updateEndpointRow(
  db: Executor,
  id: string,
  changes: Updateable<WebhookEndpointsTable>,
): Promise<void> {
  await db.updateTable('webhook_endpoints').set(changes).where('id', '=', id).execute();
}

// ---- Per-endpoint events and delivery attempts (API) ----

export function findVisibleEndpointEvent(db: Executor, subject: Subject, id: string) {
  return db
    .selectFrom('webhook_endpoint_events')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_endpoint_events.endpoint_id')
    .selectAll('webhook_endpoint_events')
    .where('webhook_endpoint_events.id', '=', id)
    .where('webhook_endpoints.deleted_at', 'is', null)
    .where(organizationVisibleTo(subject, 'webhook_endpoints.organization_id'))
    .forUpdate('webhook_endpoint_events')
    .executeTakeFirst();
}

export async function listVisibleDeliveries(
  db: Executor,
  subject: Subject,
  params: PageParams & { endpoint_id?: string[] },
): Promise<{ rows: WebhookDeliveryWithEventRow[]; total: number }> {
  let query = db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_endpoint_events', 'webhook_endpoint_events.id', 'webhook_deliveries.endpoint_event_id')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .selectAll('webhook_deliveries')
    .select([
      'webhook_endpoint_events.created_at as event_created_at',
      'webhook_endpoint_events.modified_at as event_modified_at',
      'webhook_endpoint_events.last_http_code',
      'webhook_endpoint_events.succeeded as event_succeeded',
      'webhook_endpoint_events.payload',
    ])
    .where('webhook_endpoints.deleted_at', 'is', null)
    .where(organizationVisibleTo(subject, 'webhook_endpoints.organization_id'));
  if (params.endpoint_id) query = query.where('webhook_deliveries.endpoint_id', 'in', params.endpoint_id);
  return paginate(
    db,
    query.orderBy('webhook_deliveries.created_at', 'desc').orderBy('webhook_deliveries.id', 'desc'),
    params,
  );
}

// ---- Fan-out (inside the transaction of the business change) ----

/** Enabled, live endpoints of the organization subscribed to this type, with the organization's name. */
export function findSubscribedEndpoints(db: Executor, organizationId: string, type: string) {
  return db
    .selectFrom('webhook_endpoints as w')
    .innerJoin('organizations as o', 'o.id', 'w.organization_id')
    .select(['w.id', 'w.format', 'o.name as organization_name'])
    .where('w.organization_id', '=', organizationId)
    .where('w.deleted_at', 'is', null)
    .where('w.enabled', '=', true)
    .where(sql<boolean>`${type} = ANY(w.events)`)
    .orderBy('w.created_at')
    .execute();
}

export async function insertEndpointEvents(
  db: Executor,
  rows: Insertable<WebhookEndpointEventsTable>[],
): Promise<void> {
  if (rows.length > 0) await db.insertInto('webhook_endpoint_events').values(rows).execute();
}

/** The stored event of a test sent to one endpoint (webhooks.test-event.ts). */
export async function insertTestWebhookEvent(
  db: Executor,
  row: { id: string; created_at: Date; organization_id: string; type: string; payload: string },
): Promise<void> {
  await db.insertInto('webhook_events').values(row).execute();
}

export async function findOrganizationName(db: Executor, organizationId: string): Promise<string> {
  const row = await db.selectFrom('organizations').select('name').where('id', '=', organizationId).executeTakeFirst();
  return row?.name ?? '';
}

// ---- Delivery (worker) ----

/**
 * Takes (or renews) the endpoint's delivery lease for `token` until `until`: only when it is free,
 * expired at `now`, or already ours. The row lock is held for the claiming transaction only. Returns
 * the endpoint with the lease, 'busy' when another worker holds a live lease, undefined when the
 * endpoint is gone, disabled or deleted.
 */
export async function claimEndpointForDelivery(
  db: Executor,
  id: string,
  token: string,
  now: Date,
  until: Date,
): Promise<WebhookEndpointRow | 'busy' | undefined> {
  const row = await lockEndpointForUpdate(db, id);
  if (!row || !row.enabled || row.deleted_at) return undefined;
  const held = row.delivery_token !== null && row.delivery_token !== token;
  if (held && row.delivering_until && row.delivering_until > now) return 'busy';
  await updateEndpointRow(db, id, { delivery_token: token, delivering_until: until });
  return { ...row, delivery_token: token, delivering_until: until };
}

/** The endpoint row, locked for the rest of the transaction (whatever its state). */
export function lockEndpointForUpdate(db: Executor, id: string) {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Gives the lease up, if it is still held by `token`. */
export async function releaseEndpointLease(db: Executor, id: string, token: string): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ delivery_token: null, delivering_until: null })
    .where('id', '=', id)
    .where('delivery_token', '=', token)
    .execute();
}

/**
 * Enabled endpoints with a due pending event, no live lease and no delivery job waiting in the queue
 * (`jobNames`, looked up in pg-boss's table by the job's `endpoint_id`): nobody is going to work them.
 * A job that is active but whose worker died does not count, so its endpoint is found once its lease
 * has expired instead of after pg-boss's expiry.
 */
export async function findStalledEndpoints(
  db: Executor,
  now: Date,
  jobSchema: string,
  jobNames: string[],
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_endpoints as w')
    .select('w.id')
    .where('w.enabled', '=', true)
    .where('w.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('w.delivering_until', 'is', null), eb('w.delivering_until', '<=', now)]))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('webhook_endpoint_events as e')
          .select(sql`1`.as('one'))
          .whereRef('e.endpoint_id', '=', 'w.id')
          .where('e.status', '=', 'pending')
          .where('e.next_attempt_at', '<=', now),
      ),
    )
    .where(
      sql<boolean>`NOT EXISTS (SELECT 1 FROM ${sql.table(`${jobSchema}.job`)} j
        WHERE j.name = ANY(${jobNames}::text[]) AND j.state IN ('created', 'retry')
          AND j.data->>'endpoint_id' = w.id::text)`,
    )
    .orderBy('w.id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** The head of line: the endpoint's oldest event not yet delivered or given up. */
export function findHeadOfLine(db: Executor, endpointId: string) {
  return db
    .selectFrom('webhook_endpoint_events')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
}

export async function updateEndpointEvent(
  db: Executor,
  id: string,
  changes: Updateable<WebhookEndpointEventsTable>,
): Promise<void> {
  await db.updateTable('webhook_endpoint_events').set(changes).where('id', '=', id).execute();
}

/**
 * Records the outcome of an attempt on the event only if it is still as the attempt read it (pending,
 * same attempts and modified_at): a redelivery or another worker's attempt in between wins. Returns
 * whether it was updated.
 */
export async function updateAttemptedEvent(
  db: Executor,
  read: WebhookEndpointEventRow,
  changes: Updateable<WebhookEndpointEventsTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoint_events')
    .set(changes)
    .where('id', '=', read.id)
    .where('status', '=', 'pending')
    .where('attempts', '=', read.attempts)
    .where((eb) =>
      read.modified_at === null ? eb('modified_at', 'is', null) : eb('modified_at', '=', read.modified_at),
    )
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function makePendingDueNow(db: Executor, endpointId: string, now: Date): Promise<void> {
  await db
    .updateTable('webhook_endpoint_events')
    .set({ next_attempt_at: now })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}

export async function insertDelivery(db: Executor, row: Insertable<WebhookDeliveriesTable>): Promise<void> {
  await db.insertInto('webhook_deliveries').values(row).execute();
}

// ---- Email outbox ----

/** The organization's contact email and its members' emails, deduplicated case-insensitively. */
export async function organizationRecipients(db: Executor, organizationId: string): Promise<string[]> {
  const organization = await db
    .selectFrom('organizations')
    .select('email')
    .where('id', '=', organizationId)
    .executeTakeFirst();
  const members = await db
    .selectFrom('user_organizations as uo')
    .innerJoin('users as u', 'u.id', 'uo.user_id')
    .select('u.email')
    .where('uo.organization_id', '=', organizationId)
    .orderBy('u.email')
    .execute();
  const seen = new Map<string, string>();
  for (const email of [organization?.email, ...members.map((m) => m.email)]) {
    if (email && !seen.has(email.toLowerCase())) seen.set(email.toLowerCase(), email);
  }
  return [...seen.values()];
}
