import { z } from 'zod/v4';
import { MetadataInput, MetadataOutput } from '../../platform/http/metadata.js';
import { metadataQuery, oneOrList, paginationQuery, queryString, sortingQuery } from '../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../platform/http/schemas.js';

/** Nested filters go at most this deep (the top-level filter is level 1); deeper is a 422. */
export const MAX_FILTER_DEPTH = 10;
/** Clauses in one filter (each level counts its own). */
export const MAX_FILTER_CLAUSES = 100;

export const FilterOperator = z
  .enum(['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'not_like'])
  .meta({ id: 'FilterOperator' });

export const FilterClause = z
  .object({
    property: z.string().min(1).max(200),
    operator: FilterOperator,
    value: z.union([z.string().max(1000), z.int(), z.boolean()]),
  })
  .meta({ id: 'FilterClause' });

export type FilterShape = {
  conjunction: 'and' | 'or';
  clauses: (z.output<typeof FilterClause> | FilterShape)[];
};

const FilterObject: z.ZodType<FilterShape> = z
  .object({
    conjunction: z.enum(['and', 'or']).meta({ id: 'FilterConjunction' }),
    get clauses() {
      return z.array(z.union([FilterClause, FilterObject])).max(MAX_FILTER_CLAUSES);
    },
  })
  .meta({ id: 'Filter' });

/** Clauses (and nested filters) in a whole filter: what one query may be asked to evaluate. */
export const MAX_FILTER_NODES = 1000;

/**
 * How deep a filter nests and how many clauses and nested filters it holds, measured without recursion
 * (a client picks the depth); stops counting past the limits.
 */
export function filterSize(value: unknown): { depth: number; nodes: number } {
  let depth = 0;
  let nodes = 0;
  const stack: { node: unknown; level: number }[] = [{ node: value, level: 1 }];
  while (stack.length > 0 && depth <= MAX_FILTER_DEPTH && nodes <= MAX_FILTER_NODES) {
    const { node, level } = stack.pop()!;
    if (level > 1) nodes++;
    if (!node || typeof node !== 'object' || !('clauses' in node)) continue;
    depth = Math.max(depth, level);
    const clauses = (node as { clauses: unknown }).clauses;
    if (Array.isArray(clauses)) for (const clause of clauses) stack.push({ node: clause, level: level + 1 });
  }
  return { depth, nodes };
}

/**
 * A meter filter: clauses and nested filters, at most `MAX_FILTER_DEPTH` levels and
 * `MAX_FILTER_NODES` clauses and nested filters in all.
 */
export const Filter = z.preprocess((value, ctx) => {
  const { depth, nodes } = filterSize(value);
  const problem =
    depth > MAX_FILTER_DEPTH
      ? `Filters nest at most ${MAX_FILTER_DEPTH} levels deep.`
      : nodes > MAX_FILTER_NODES
        ? `A filter holds at most ${MAX_FILTER_NODES} clauses and nested filters.`
        : null;
  if (problem) {
    ctx.issues.push({ code: 'custom', message: problem, input: value, params: { type: 'value_error' } });
    return { conjunction: 'and', clauses: [] };
  }
  return value;
}, FilterObject);

export const CountAggregation = z.object({ func: z.literal('count') }).meta({ id: 'CountAggregation' });
export const PropertyAggregation = z
  .object({ func: z.enum(['sum', 'max', 'min', 'avg']), property: z.string().min(1).max(200) })
  .meta({ id: 'PropertyAggregation' });
/** An extension: the number of distinct values of a property among the meter's events. */
export const UniqueAggregation = z
  .object({ func: z.literal('unique'), property: z.string().min(1).max(200) })
  .meta({ id: 'UniqueAggregation' });

export const Aggregation = z.union([CountAggregation, PropertyAggregation, UniqueAggregation]);

export const Meter = z
  .object({
    metadata: MetadataOutput,
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    id: z.uuid(),
    name: z.string(),
    filter: FilterObject,
    aggregation: Aggregation,
    organization_id: z.uuid(),
  })
  .meta({ id: 'Meter' });

export const ListResourceMeter = ListResource(Meter, 'ListResourceMeter');

const name = z.string().min(3).max(255);

export const MeterCreate = z
  .object({
    metadata: MetadataInput.optional(),
    name,
    filter: Filter,
    aggregation: Aggregation,
    organization_id: Id().nullish(),
  })
  .meta({ id: 'MeterCreate' });
export type MeterCreateInput = z.output<typeof MeterCreate>;

export const MeterUpdate = z
  .object({
    metadata: MetadataInput.optional(),
    name: name.nullish(),
    filter: Filter.nullish(),
    aggregation: Aggregation.nullish(),
  })
  .meta({ id: 'MeterUpdate' });
export type MeterUpdateInput = z.output<typeof MeterUpdate>;

export const MeterListQuery = z.object({
  organization_id: oneOrList(Id()),
  query: queryString(),
  ...paginationQuery,
  sorting: sortingQuery(['created_at', 'name'], ['name']),
  metadata: metadataQuery(),
});
export type MeterListParams = z.output<typeof MeterListQuery>;

export const TIME_INTERVALS = ['year', 'month', 'week', 'day', 'hour'] as const;
export type TimeInterval = (typeof TIME_INTERVALS)[number];

/** The reference's `MAX_INTERVAL_DAYS`: the widest range, in days, each interval may cover. */
export const MAX_INTERVAL_DAYS: Record<TimeInterval, number> = {
  hour: 7,
  day: 366,
  week: 365,
  month: 1460,
  year: 3650,
};

export const MeterQuantitiesQuery = z.object({
  start_timestamp: DateTime(),
  end_timestamp: DateTime(),
  interval: z.enum(TIME_INTERVALS).meta({ id: 'TimeInterval' }),
  customer_id: oneOrList(Id()),
  external_customer_id: oneOrList(z.string().min(1).max(500)),
  metadata: metadataQuery(),
});
export type MeterQuantitiesParams = z.output<typeof MeterQuantitiesQuery>;

export const MeterQuantities = z
  .object({
    quantities: z.array(z.object({ timestamp: DateTime(), quantity: z.number() }).meta({ id: 'MeterQuantity' })),
    total: z.number(),
  })
  .meta({ id: 'MeterQuantities' });
