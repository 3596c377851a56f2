import { randomBytes } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { IssueCollector, ResourceNotFound, validationError } from '../../platform/http/errors.js';
import { pageOf } from '../../platform/http/query.js';
import { toValidationIssues } from '../../platform/http/validation.js';
import { countsFor, type MeterAggregation, type MeterFilter } from '../customer-meters/customer-meters.window.js';
import { findMetersOf, lockRollupsShared, rollsUp, usageInstant } from '../meters/meter-rollups.repository.js';
import { findVisibleMeter } from '../meters/meters.repository.js';
import { Filter } from '../meters/meters.schemas.js';
import { meterDefinition } from '../meters/meters.service.js';
import {
  findCustomersByIds,
  findEventCustomers,
  findParentEvents,
  findVisibleEvent,
  findVisibleOrganizationIds,
  insertEvents,
  listVisibleEventNames,
  listVisibleEvents,
  markCustomerStatesChanged,
  type EventListFilters,
  type NewEvent,
} from './events.repository.js';
import type { EventListParams, EventNameListParams, EventsIngestInput } from './events.schemas.js';
import { eventLabels } from '../event-types/event-types.service.js';
import { customerStateChangesJob, STATE_CHANGES_DELAY_SECONDS } from './events.jobs.js';
import { customerOfEvent, serializeEvent, serializeEventName } from './events.serializer.js';

/**
 * Ingestion is all or nothing: every problem of every event is collected into one 422 at
 * `body.events.<i>.<field>`, and only a batch without any is inserted (in one statement). Events whose
 * `external_id` the organization already has are skipped and counted as duplicates.
 */
export async function ingestEvents(
  ctx: Context,
  input: EventsIngestInput,
): Promise<{ inserted: number; duplicates: number }> {
  const issues = new IssueCollector();
  const now = ctx.clock.now();
  const subject = ctx.subject;
  const at = (index: number, field: string) => ['body', 'events', index, field];

  const requested = [...new Set(input.events.flatMap((e) => (e.organization_id ? [e.organization_id] : [])))];
  const allowed =
    subject.kind === 'organization' ? new Set<string>() : await findVisibleOrganizationIds(ctx.db, subject, requested);
  const customers = await findCustomersByIds(ctx.db, [
    ...new Set(input.events.flatMap((e) => (e.customer_id ? [e.customer_id] : []))),
  ]);
  const firstWithExternalId = new Map<string, number>();
  // Each event's row id (by its index in the batch), for children later in the batch.
  const rowIds: (string | undefined)[] = [];

  const rows: NewEvent[] = [];
  input.events.forEach((event, index) => {
    let organizationId: string | null = null;
    if (subject.kind === 'organization') {
      if (event.organization_id != null) {
        issues.add(
          at(index, 'organization_id'),
          'Setting organization_id is disallowed when using an organization token.',
          'organization_token',
        );
      } else organizationId = subject.organizationId;
    } else if (event.organization_id == null) {
      issues.add(at(index, 'organization_id'), 'organization_id is required.', 'missing');
    } else if (!allowed.has(event.organization_id)) {
      issues.add(at(index, 'organization_id'), 'Organization not found.');
    } else organizationId = event.organization_id;

    if (event.customer_id !== undefined && organizationId !== null) {
      if (customers.get(event.customer_id) !== organizationId) {
        issues.add(at(index, 'customer_id'), 'Customer not found.', 'customer_id');
      }
    }
    const timestamp = event.timestamp ? new Date(event.timestamp) : now;
    if (timestamp.getTime() > now.getTime()) {
      issues.add(at(index, 'timestamp'), 'Value error, Timestamp must be in the past.');
    }
    if (event.external_id !== undefined && organizationId !== null) {
      const key = `${organizationId}\u0000${event.external_id}`;
      const first = firstWithExternalId.get(key);
      if (first !== undefined) {
        issues.add(
          at(index, 'external_id'),
          `Duplicate external_id in this batch: events ${first} and ${index} have the same one.`,
          'duplicate',
        );
      } else firstWithExternalId.set(key, index);
    }
    if (organizationId === null) return;
    const id = timeOrderedId();
    rowIds[index] = id;
    rows.push({
      id,
      timestamp,
      ingested_at: now,
      organization_id: organizationId,
      customer_id: event.customer_id ?? null,
      external_customer_id: event.external_customer_id ?? null,
      external_id: event.external_id ?? null,
      name: event.name,
      metadata: event.metadata ?? {},
      parent_id: null,
    });
  });
  await linkParents(ctx, input, rows, rowIds, firstWithExternalId, issues);
  issues.throwIfAny();
  if (rows.length === 0) return { inserted: 0, duplicates: 0 };

  // Under the organizations' shared rollup lock, read after taking it: a meter's rollups built before
  // are maintained by this insert, and a build after waits for this transaction.
  const organizationIds = [...new Set(rows.map((row) => row.organization_id))];
  await lockRollupsShared(ctx.db, organizationIds);
  // Stamped once the lock is held, from the database's clock (every node reads the same one) and never
  // before the organization's latest reset (usageInstant): billing closes a customer's meter window
  // under the exclusive lock (billing.usage.ts), so it either saw this batch and reset after it, or
  // committed its reset before this batch's instant; no event falls between two windows or in both.
  const ingestedAt = new Map<string, Date>();
  for (const id of organizationIds) {
    ingestedAt.set(id, await usageInstant(ctx.db, id, { testClocks: ctx.config.devMode }));
  }
  for (const row of rows) row.ingested_at = ingestedAt.get(row.organization_id)!;
  const meters = (await findMetersOf(ctx.db, organizationIds)).map(meterDefinition);
  const insertedIds = await insertEvents(ctx.db, rows, meters.filter(rollsUp));
  const inserted = rows.filter((row) => insertedIds.has(row.id));
  await enqueueCustomerStateChanges(
    ctx,
    inserted,
    meters.filter((meter) => meter.archived_at === null),
  );
  return { inserted: inserted.length, duplicates: rows.length - inserted.length };
}

/**
 * Sets each row's `parent_id` from its event's: a stored event of the organization named by its id or
 * external id (one statement for the batch), else an event earlier in the batch with that external id
 * (an event cannot be its own parent, and a later one is not known yet, so a batch holds no cycle). A
 * parent found nowhere is a 422 at the event's `parent_id`.
 */
async function linkParents(
  ctx: Context,
  input: EventsIngestInput,
  rows: NewEvent[],
  rowIds: readonly (string | undefined)[],
  firstWithExternalId: ReadonlyMap<string, number>,
  issues: IssueCollector,
): Promise<void> {
  const rowById = new Map(rows.map((row) => [row.id, row]));
  const children = input.events.flatMap((event, index) => {
    const row = rowById.get(rowIds[index] ?? '');
    return row && event.parent_id != null ? [{ index, row, ref: event.parent_id }] : [];
  });
  if (children.length === 0) return;
  const stored = await findParentEvents(
    ctx.db,
    children.map(({ row, ref }) => ({ organization_id: row.organization_id, ref })),
  );
  for (const { index, row, ref } of children) {
    const key = `${row.organization_id}\u0000${ref}`;
    const earlier = firstWithExternalId.get(key);
    const parent = stored.get(key) ?? (earlier !== undefined && earlier < index ? rowIds[earlier] : undefined);
    if (parent === undefined) issues.add(['body', 'events', index, 'parent_id'], 'Parent event not found.');
    else row.parent_id = parent;
  }
}

/**
 * A version 7 UUID (RFC 9562): the millisecond time first, so new events' ids grow and their primary
 * key index is appended to instead of written at random places.
 */
export function timeOrderedId(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A customer's meters change when a new event counts for one of them: the customers the inserted events
 * reach (by id or external id) through such an event are marked, in this transaction, for the
 * `customers.state_changes` job, which records one `customer.state_changed` each.
 */
async function enqueueCustomerStateChanges(
  ctx: Context,
  inserted: NewEvent[],
  activeMeters: ReturnType<typeof meterDefinition>[],
): Promise<void> {
  if (inserted.length === 0) return;
  const meters = new Map<string, ReturnType<typeof meterDefinition>[]>();
  for (const meter of activeMeters)
    meters.set(meter.organization_id, [...(meters.get(meter.organization_id) ?? []), meter]);
  const counted = inserted.filter((event) =>
    (meters.get(event.organization_id) ?? []).some((meter) => countsFor(meter, { ...event, source: 'user' })),
  );
  if (counted.length === 0) return;
  await markCustomerStatesChanged(ctx.db, counted, ctx.clock.now());
  await ctx.jobs.enqueue(
    customerStateChangesJob,
    {},
    { singletonKey: 'pending', startAfter: STATE_CHANGES_DELAY_SECONDS },
  );
}

async function withCustomers<T extends Parameters<typeof serializeEvent>[0]>(ctx: Context, rows: T[]) {
  const [customers, labelOf] = await Promise.all([findEventCustomers(ctx.db, rows), eventLabels(ctx, rows)]);
  return rows.map((row) => serializeEvent(row, customerOfEvent(row, customers), labelOf(row)));
}

export async function getEvent(ctx: Context, id: string) {
  const row = await findVisibleEvent(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return (await withCustomers(ctx, [row]))[0]!;
}

export async function listEvents(ctx: Context, params: EventListParams) {
  const filters: EventListFilters = { ...params };
  if (params.filter !== undefined) {
    let value: unknown;
    try {
      value = JSON.parse(params.filter);
    } catch {
      throw validationError(['query', 'filter'], 'Invalid JSON', 'json_invalid');
    }
    const parsed = Filter.safeParse(value);
    if (!parsed.success) {
      const issues = new IssueCollector();
      for (const issue of toValidationIssues(parsed.error.issues, ['query', 'filter'])) {
        issues.add(issue.loc, issue.msg, issue.type);
      }
      issues.throwIfAny();
    }
    filters.parsedFilter = parsed.data as MeterFilter;
  }
  if (params.meter_id !== undefined) {
    const meter = await findVisibleMeter(ctx.db, ctx.subject, params.meter_id);
    if (!meter) throw validationError(['query', 'meter_id'], 'Meter not found.');
    filters.meter = meterDefinition(meter) as { id: string; filter: MeterFilter; aggregation: MeterAggregation };
  }
  const { rows, total } = await listVisibleEvents(ctx.db, ctx.subject, filters);
  return pageOf(await withCustomers(ctx, rows), total, params);
}

export async function listEventNames(ctx: Context, params: EventNameListParams) {
  const { rows, total } = await listVisibleEventNames(ctx.db, ctx.subject, params);
  return pageOf(rows.map(serializeEventName), total, params);
}
