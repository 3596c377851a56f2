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
 * Wakes the delivery workers for these endpoints when the caller's transaction commits (`pg_notify`
 * is delivered on commit and dropped on rollback; the payload is the endpoint id, so a worker already
 * working that endpoint can ignore it). No id: every worker looks for due work.
 */
export async function notifyDelivery(db: Executor, channel: string, endpointIds: readonly string[]): Promise<void> {
  if (endpointIds.length === 0) {
    await sql`SELECT pg_notify(${channel}, '')`.execute(db);
    return;
  }
  await sql`SELECT pg_notify(${channel}, id) FROM unnest(${[...new Set(endpointIds)]}::text[]) AS id`.execute(db);
}

/**
 * Takes the delivery lease (`token` until `until`) of at most `limit` endpoints that have a due head
 * of line and no live lease, leaving out `exclude` (the ones this worker is already working) and rows
 * another worker is claiming right now (SKIP LOCKED). The head is due when it was never attempted or
 * its retry time has come; an endpoint whose head waits for a retry is not taken, whatever follows it.
 */
export async function claimIdleEndpoints(
  db: Executor,
  options: { token: string; now: Date; until: Date; limit: number; exclude: readonly string[] },
): Promise<WebhookEndpointRow[]> {
  const { token, now, until, limit, exclude } = options;
  const result = await sql<WebhookEndpointRow>`
    UPDATE webhook_endpoints SET delivery_token = ${token}, delivering_until = ${until}
    WHERE id IN (
      SELECT w.id FROM webhook_endpoints w
      WHERE w.enabled AND w.deleted_at IS NULL
        AND (w.delivering_until IS NULL OR w.delivering_until <= ${now})
        AND w.id <> ALL(${exclude}::uuid[])
        AND EXISTS (
          SELECT 1 FROM (
            SELECT e.attempts, e.next_attempt_at FROM webhook_endpoint_events e
            WHERE e.endpoint_id = w.id AND e.status = 'pending' ORDER BY e.seq LIMIT 1
          ) head
          WHERE head.attempts = 0 OR head.next_attempt_at IS NULL OR head.next_attempt_at <= ${now})
      ORDER BY w.delivering_until NULLS FIRST, w.id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING *`.execute(db);
  return result.rows;
}

/** The head of line and what follows it: the endpoint's oldest pending events, in order. */
export function findPendingEvents(db: Executor, endpointId: string, limit: number) {
  return db
    .selectFrom('webhook_endpoint_events')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/**
 * Marks events delivered by successful attempts, each only if it is still as the attempt read it
 * (pending, same attempts and modified_at; see updateAttemptedEvent). Returns how many were updated.
 */
export async function markEventsDelivered(
  db: Executor,
  delivered: readonly { event: WebhookEndpointEventRow; httpCode: number | null }[],
  now: Date,
): Promise<number> {
  if (delivered.length === 0) return 0;
  const result = await sql`
    UPDATE webhook_endpoint_events e
    SET status = 'delivered', attempts = e.attempts + 1, next_attempt_at = NULL, modified_at = ${now},
        last_http_code = v.code, succeeded = true
    FROM unnest(${delivered.map((d) => d.event.id)}::uuid[], ${delivered.map((d) => d.event.attempts)}::int[],
                ${delivered.map((d) => d.event.modified_at)}::timestamptz[], ${delivered.map((d) => d.httpCode)}::int[])
      AS v(id, attempts, modified_at, code)
    WHERE e.id = v.id AND e.status = 'pending' AND e.attempts = v.attempts
      AND e.modified_at IS NOT DISTINCT FROM v.modified_at`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
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

export async function insertDeliveries(db: Executor, rows: Insertable<WebhookDeliveriesTable>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('webhook_deliveries').values(rows).execute();
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
