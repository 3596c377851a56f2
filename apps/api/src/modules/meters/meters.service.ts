import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { IssueCollector, ResourceNotFound, validationError } from '../../platform/http/errors.js';
import { pageOf } from '../../platform/http/query.js';
import type { MeterAggregation, MeterDefinition, MeterFilter } from '../customer-meters/customer-meters.window.js';
import { resolveOrganizationForWrite } from '../organizations/organizations.service.js';
import {
  findVisibleMeter,
  insertMeter,
  listVisibleMeters,
  lockVisibleMeter,
  meterInUse,
  meterQuantities,
  updateMeter as updateMeterRow,
  type MeterChanges,
  type MeterRow,
} from './meters.repository.js';
import { rollsUp, rollupQuantities } from './meter-rollups.repository.js';
import { meterRollupsJob } from './meters.rollups.js';
import {
  MAX_INTERVAL_DAYS,
  type MeterCreateInput,
  type MeterListParams,
  type MeterQuantitiesParams,
  type MeterUpdateInput,
} from './meters.schemas.js';

/** A meter row with its stored filter and aggregation typed (both validated on write). */
export function meterDefinition(row: MeterRow): MeterRow & MeterDefinition {
  return { ...row, filter: row.filter as MeterFilter, aggregation: row.aggregation as MeterAggregation };
}

export async function createMeter(ctx: Context, input: MeterCreateInput): Promise<MeterRow> {
  const organization = await resolveOrganizationForWrite(ctx, input.organization_id);
  const meter = await insertMeter(ctx.db, {
    id: randomUUID(),
    created_at: ctx.clock.now(),
    organization_id: organization.id,
    name: input.name,
    filter: input.filter,
    aggregation: input.aggregation,
    metadata: input.metadata ?? {},
  });
  await ctx.jobs.enqueue(meterRollupsJob, { meter_id: meter.id });
  return meter;
}

export async function getMeter(ctx: Context, id: string): Promise<MeterRow> {
  const row = await findVisibleMeter(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return row;
}

export async function listMeters(ctx: Context, params: MeterListParams) {
  const { rows, total } = await listVisibleMeters(ctx.db, ctx.subject, params);
  return pageOf(rows, total, params);
}

/** JSON with object keys in one order (stored jsonb does not keep the order they were sent in). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const sameJson = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/**
 * `name`, `filter`, `aggregation` and `metadata` change when sent. Once the meter counts for a
 * customer (or a subscription bills it), what it counts is frozen: a different filter or aggregation is
 * a 422 that changes nothing.
 */
export async function updateMeter(ctx: Context, id: string, input: MeterUpdateInput): Promise<MeterRow> {
  const current = await lockVisibleMeter(ctx.db, ctx.subject, id);
  if (!current) throw new ResourceNotFound();
  const changes: MeterChanges = { modified_at: ctx.clock.now() };
  if (input.name != null) changes.name = input.name;
  if (input.metadata !== undefined) changes.metadata = input.metadata;
  const filterChanges = input.filter != null && !sameJson(input.filter, current.filter);
  const aggregationChanges = input.aggregation != null && !sameJson(input.aggregation, current.aggregation);
  if ((filterChanges || aggregationChanges) && (await meterInUse(ctx.db, meterDefinition(current)))) {
    const issues = new IssueCollector();
    const message = "This field can't be updated because the meter is already aggregating events.";
    if (filterChanges) issues.add(['body', 'filter'], message, 'forbidden');
    if (aggregationChanges) issues.add(['body', 'aggregation'], message, 'forbidden');
    issues.throwIfAny();
  }
  if (input.filter != null) changes.filter = input.filter;
  if (input.aggregation != null) changes.aggregation = input.aggregation;
  if (!filterChanges && !aggregationChanges) return updateMeterRow(ctx.db, id, changes);
  // What the meter counts changed: its rollups are stale until rebuilt; reads scan the events meanwhile.
  const updated = await updateMeterRow(ctx.db, id, { ...changes, rollups_built_at: null });
  await ctx.jobs.enqueue(meterRollupsJob, { meter_id: id });
  return updated;
}

const DAY_MS = 86_400_000;
/** The earliest start the reference accepts. */
const EARLIEST_START = Date.parse('2023-01-01T00:00:00Z');

export async function getMeterQuantities(ctx: Context, id: string, params: MeterQuantitiesParams) {
  const meter = meterDefinition(await getMeter(ctx, id));
  const start = new Date(params.start_timestamp);
  const end = new Date(params.end_timestamp);
  if (start.getTime() < EARLIEST_START) {
    throw validationError(['query', 'start_timestamp'], 'Input should be greater than or equal to 2023-01-01.');
  }
  if (end.getTime() < start.getTime()) {
    throw validationError(['query', 'end_timestamp'], 'end_timestamp must not be before start_timestamp.');
  }
  const days = Math.floor((end.getTime() - start.getTime()) / DAY_MS);
  if (days > MAX_INTERVAL_DAYS[params.interval]) {
    throw validationError(
      ['query'],
      'The interval is too big. Try to change the interval or reduce the date range.',
      'value_error',
    );
  }
  const query = {
    meter,
    start,
    end,
    interval: params.interval,
    customerIds: params.customer_id,
    externalCustomerIds: params.external_customer_id,
    metadata: params.metadata,
  };
  // Rollups answer everything but unique and metadata conditions, which they do not keep.
  const byMetadata = Object.values(params.metadata ?? {}).some((values) => values.length > 0);
  const result =
    rollsUp(meter) && !byMetadata ? await rollupQuantities(ctx.db, query) : await meterQuantities(ctx.db, query);
  return {
    quantities: result.buckets.map((bucket) => ({
      timestamp: bucket.timestamp.toISOString(),
      quantity: Number(bucket.quantity),
    })),
    total: Number(result.total),
  };
}
