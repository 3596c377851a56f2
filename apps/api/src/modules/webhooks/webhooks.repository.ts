import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type {
  WebhookDeliveriesTable,
  WebhookEndpointEventsTable,
  WebhookEndpointsTable,
} from '../../db/tables/webhooks.js';
import type { WebhookEventsTable } from '../../db/tables/foundation.js';
import type { Subject } from '../../platform/auth/subject.js';
import { organizationVisibleTo } from '../../platform/auth/tenancy.js';
import type { Executor } from '../../platform/db/database.js';
import { paginate } from '../../platform/db/paginate.js';
import { prepared } from '../../platform/db/prepared.js';
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

/** An enabled endpoint of one of the organizations, with the event types it is subscribed to. */
export interface EndpointSubscription {
  id: string;
  organization_id: string;
  format: WebhookEndpointRow['format'];
  organization_name: string;
  events: string[];
}

/**
 * Stores events (in the order given) and, in the same round trip, answers the enabled endpoints of
 * their organizations subscribed to any of their types, oldest endpoint first. One statement text for
 * any number of events (prepared once per connection): the events go as one JSON array, each payload
 * placed in it as the JSON text it already is, and the organizations and types as arrays.
 */
export async function insertEventsFindingEndpoints(
  db: Executor,
  events: readonly { id: string; created_at: Date; organization_id: string; type: string; payload: string }[],
): Promise<EndpointSubscription[]> {
  let rows = '';
  for (const event of events) {
    rows += `${rows === '' ? '[' : ','}{"id":"${event.id}","created_at":"${event.created_at.toISOString()}","organization_id":"${event.organization_id}","type":${JSON.stringify(event.type)},"payload":${event.payload}}`;
  }
  return eventsStoredFindingEndpoints(
    db,
    `${rows}]`,
    [...new Set(events.map((event) => event.organization_id))],
    [...new Set(events.map((event) => event.type))],
  );
}

const eventsStoredFindingEndpoints = prepared(
  3,
  (db, rows: string, organizationIds: readonly string[], types: readonly string[]) =>
    db
      .with('stored', (qb) =>
        qb
          .insertInto('webhook_events')
          .columns(['id', 'created_at', 'organization_id', 'type', 'payload'])
          .expression(
            qb
              .selectFrom(
                sql<Selectable<WebhookEventsTable>>`jsonb_populate_recordset(null::webhook_events, ${rows}::jsonb)`.as(
                  'e',
                ),
              )
              .select(['e.id', 'e.created_at', 'e.organization_id', 'e.type', 'e.payload']),
          )
          .returning('id'),
      )
      .selectFrom('webhook_endpoints as w')
      .innerJoin('organizations as o', 'o.id', 'w.organization_id')
      .select(['w.id', 'w.organization_id', 'w.format', 'o.name as organization_name', 'w.events'])
      .where(sql<boolean>`w.organization_id = any(${organizationIds}::uuid[])`)
      .where('w.deleted_at', 'is', null)
      .where('w.enabled', '=', true)
      .where(sql<boolean>`w.events && ${types}::text[]`)
      .orderBy('w.created_at')
      .orderBy('w.id'),
);

export async function insertEndpointEvents(
  db: Executor,
  rows: Insertable<WebhookEndpointEventsTable>[],
): Promise<void> {
  // 13 parameters a row: 2,000 rows stay under PostgreSQL's 65,535.
  for (let start = 0; start < rows.length; start += 2_000) {
    await db
      .insertInto('webhook_endpoint_events')
      .values(rows.slice(start, start + 2_000))
      .execute();
  }
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
 * The endpoint row, locked for the rest of the transaction (whatever its state). FOR NO KEY UPDATE, the
 * lock an UPDATE of its columns takes: it does not wait for the key-share lock that every transaction
 * writing an event for the endpoint holds until it commits (the foreign key). Only the read of a batch
 * waits for those (waitForEventWriters).
 */
export function lockEndpointForUpdate(db: Executor, id: string) {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).forNoKeyUpdate().executeTakeFirst();
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
 * another worker is claiming right now (SKIP LOCKED; a request writing an event for the endpoint is not
 * such a lock: its key-share lock does not conflict with FOR NO KEY UPDATE). The head is due when it was never attempted or its retry
 * time has come; an endpoint whose head waits for a retry is not taken, whatever follows it. The
 * endpoints whose head has waited longest go first, so that when there are more endpoints with work
 * than lanes, the ones a lane gave up for them (webhooks.dispatcher.ts) get their turn.
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
      CROSS JOIN LATERAL (
        SELECT e.seq, e.attempts, e.next_attempt_at FROM webhook_endpoint_events e
        WHERE e.endpoint_id = w.id AND e.status = 'pending' ORDER BY e.seq LIMIT 1) head
      WHERE w.enabled AND w.deleted_at IS NULL
        AND (w.delivering_until IS NULL OR w.delivering_until <= ${now})
        AND w.id <> ALL(${exclude}::uuid[])
        AND (head.attempts = 0 OR head.next_attempt_at IS NULL OR head.next_attempt_at <= ${now})
      ORDER BY head.seq
      LIMIT ${limit}
      FOR NO KEY UPDATE OF w SKIP LOCKED)
    RETURNING *`.execute(db);
  return result.rows;
}

/**
 * Waits until every transaction writing an event for the endpoint has ended, and keeps new ones
 * waiting until the caller's transaction ends: FOR UPDATE conflicts with the key-share lock each of
 * them holds on the endpoint's row (the foreign key). A batch read after it, in the same transaction,
 * so holds every event with a lower `seq` than any it holds: an event inserted first but committed
 * last is never overtaken. The claim (claimIdleEndpoints) does not wait for nor skip such rows.
 */
export async function waitForEventWriters(db: Executor, id: string): Promise<void> {
  await db.selectFrom('webhook_endpoints').select('id').where('id', '=', id).forUpdate().execute();
}

/** What a lane needs of its endpoint: where and how to send, and its failure run. */
export type DeliveryEndpoint = Pick<
  WebhookEndpointRow,
  'id' | 'organization_id' | 'url' | 'secret' | 'failing_since' | 'consecutive_failures'
>;

/**
 * In one statement: takes or renews the endpoint's delivery lease for `token` until `until` — only when
 * it is free, expired at `now` or already ours, and the endpoint enabled and not deleted — and reads
 * its oldest pending events (up to `limit`, in order). Undefined when the lease was not taken (gone,
 * disabled, or held by another live worker); the events are those committed when the statement
 * started (after waitForEventWriters, in the same transaction).
 */
export async function claimEndpointEvents(
  db: Executor,
  options: { id: string; token: string; now: Date; until: Date; limit: number },
): Promise<{ endpoint: DeliveryEndpoint; events: WebhookEndpointEventRow[] } | undefined> {
  const { id, token, now, until, limit } = options;
  const result = await sql<
    Partial<WebhookEndpointEventRow> & {
      ep_id: string;
      ep_organization_id: string;
      ep_url: string;
      ep_secret: string;
      ep_failing_since: Date | null;
      ep_consecutive_failures: number;
    }
  >`
    WITH ep AS (
      UPDATE webhook_endpoints SET delivery_token = ${token}, delivering_until = ${until}
      WHERE id = ${id} AND enabled AND deleted_at IS NULL
        AND (delivery_token IS NULL OR delivery_token = ${token}
             OR delivering_until IS NULL OR delivering_until <= ${now})
      RETURNING id, organization_id, url, secret, failing_since, consecutive_failures),
    ev AS (
      SELECT * FROM webhook_endpoint_events
      WHERE endpoint_id = ${id} AND status = 'pending' ORDER BY seq LIMIT ${limit})
    SELECT ep.id AS ep_id, ep.organization_id AS ep_organization_id, ep.url AS ep_url, ep.secret AS ep_secret,
      ep.failing_since AS ep_failing_since, ep.consecutive_failures AS ep_consecutive_failures, ev.*
    FROM ep LEFT JOIN ev ON true
    ORDER BY ev.seq`.execute(db);
  const first = result.rows[0];
  if (!first) return undefined;
  const endpoint: DeliveryEndpoint = {
    id: first.ep_id,
    organization_id: first.ep_organization_id,
    url: first.ep_url,
    secret: first.ep_secret,
    failing_since: first.ep_failing_since,
    consecutive_failures: first.ep_consecutive_failures,
  };
  const events: WebhookEndpointEventRow[] = [];
  for (const row of result.rows) {
    if (row.id == null) continue;
    const {
      ep_id: _id,
      ep_organization_id: _organization,
      ep_url: _url,
      ep_secret: _secret,
      ep_failing_since: _failing,
      ep_consecutive_failures: _failures,
      ...event
    } = row;
    events.push(event as WebhookEndpointEventRow);
  }
  return { endpoint, events };
}

/** A successful attempt to record: the event as it was read, and what the receiver answered. */
export interface DeliveredAttempt {
  event: WebhookEndpointEventRow;
  httpCode: number | null;
  response: string | null;
  durationMs: number;
}

/**
 * Records a batch of successful attempts in one statement (no transaction around it): each in the
 * delivery log, the events marked delivered each only if still as the attempt read it (see
 * markEventsDelivered), and the endpoint's failure run ended if one of them was. Answers how many
 * events were marked and whether the lease is still `token`.
 */
export async function recordDelivered(
  db: Executor,
  options: {
    endpoint: Pick<DeliveryEndpoint, 'id' | 'organization_id'>;
    token: string;
    now: Date;
    attempts: readonly DeliveredAttempt[];
  },
): Promise<{ applied: number; ours: boolean }> {
  const { endpoint, token, now, attempts } = options;
  const result = await sql<{ applied: number; token: string | null }>`
    WITH logged AS (
      INSERT INTO webhook_deliveries
        (id, created_at, modified_at, organization_id, endpoint_id, endpoint_event_id, http_code, succeeded,
         response, error, duration_ms)
      SELECT gen_random_uuid(), ${now}, NULL, ${endpoint.organization_id}, ${endpoint.id}, a.event_id, a.code, true,
        a.response, NULL, a.duration_ms
      FROM unnest(${attempts.map((a) => a.event.id)}::uuid[], ${attempts.map((a) => a.httpCode)}::int[],
                  ${attempts.map((a) => a.response)}::text[], ${attempts.map((a) => a.durationMs)}::int[])
        WITH ORDINALITY AS a(event_id, code, response, duration_ms, n)
      ORDER BY a.n),
    delivered AS (
      UPDATE webhook_endpoint_events e
      SET status = 'delivered', attempts = e.attempts + 1, next_attempt_at = NULL, modified_at = ${now},
          last_http_code = v.code, succeeded = true
      FROM unnest(${attempts.map((a) => a.event.id)}::uuid[], ${attempts.map((a) => a.event.attempts)}::int[],
                  ${attempts.map((a) => a.event.modified_at)}::timestamptz[], ${attempts.map((a) => a.httpCode)}::int[])
        AS v(id, attempts, modified_at, code)
      WHERE e.id = v.id AND e.status = 'pending' AND e.attempts = v.attempts
        AND e.modified_at IS NOT DISTINCT FROM v.modified_at
      RETURNING e.id),
    recovered AS (
      UPDATE webhook_endpoints SET failing_since = NULL, consecutive_failures = 0
      WHERE id = ${endpoint.id} AND (failing_since IS NOT NULL OR consecutive_failures > 0)
        AND EXISTS (SELECT 1 FROM delivered))
    SELECT (SELECT count(*) FROM delivered)::int AS applied,
      (SELECT delivery_token FROM webhook_endpoints WHERE id = ${endpoint.id}) AS token`.execute(db);
  const row = result.rows[0]!;
  return { applied: Number(row.applied), ours: row.token === token };
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
