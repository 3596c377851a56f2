import { z } from 'zod/v4';
import { Id } from '../../platform/http/schemas.js';
import { oneOrList, queryDocs } from '../../platform/http/query.js';
import { ProductBillingType } from '../orders/orders.schemas.js';
import { INTERVALS, isTimeZone } from './metrics.periods.js';

/** The most ids one filter takes: more is a 422, not a statement with thousands of parameters. */
export const MAX_FILTER_IDS = 100;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Date string must be in YYYY-MM-DD format.' })
  .refine((value) => {
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
  }, 'Invalid date.');

const asList = (value: unknown) => (value === undefined ? undefined : Array.isArray(value) ? value : [value]);

/** One id or a repeated key, at most MAX_FILTER_IDS of them. */
const ids = (description: string) => {
  const schema = z
    .preprocess(asList, z.array(Id()).max(MAX_FILTER_IDS, `At most ${MAX_FILTER_IDS} values.`).optional())
    .meta({ description });
  queryDocs.set(
    schema,
    z
      .union([Id(), z.array(Id())])
      .optional()
      .meta({ description }),
  );
  return schema;
};

/** The meters' `TimeInterval` (same values, documented there). */
export const TimeInterval = z.enum(INTERVALS);

export const MetricsQuery = z.object({
  start_date: day.meta({ description: 'First day of the range (in `timezone`), inclusive; 2023-01-01 or later.' }),
  end_date: day.meta({ description: 'Last day of the range (in `timezone`), inclusive.' }),
  interval: TimeInterval,
  timezone: z
    .string()
    .refine(isTimeZone, 'Unknown time zone.')
    .default('UTC')
    .meta({ description: 'IANA time zone of the dates and period boundaries (an extension; default UTC).' }),
  organization_id: ids('Filter by organization.'),
  product_id: ids('Filter by product.'),
  billing_type: oneOrList(ProductBillingType, 'Filter by the product billing type.'),
  customer_id: ids('Filter by customer.'),
});
export type MetricsParams = z.output<typeof MetricsQuery>;

const slug = z.string().min(1).max(64);
const slugsDescription =
  'Slugs of the metrics to export, in the columns of the reference order; all of them when left out. ' +
  'A slug Tessera does not compute is left out.';
const slugs = z
  .preprocess(asList, z.array(slug).max(MAX_FILTER_IDS, `At most ${MAX_FILTER_IDS} values.`).optional())
  .meta({ description: slugsDescription });
queryDocs.set(
  slugs,
  z
    .union([slug, z.array(slug)])
    .optional()
    .meta({ description: slugsDescription }),
);

/** `GET /v1/metrics/export`: the metrics' query and the columns to write. */
export const MetricsExportQuery = MetricsQuery.extend({ metrics: slugs });
export type MetricsExportParams = z.output<typeof MetricsExportQuery>;

export const MetricType = z.enum(['scalar', 'currency', 'percentage']).meta({ id: 'MetricType' });

export const Metric = z
  .object({ slug: z.string(), display_name: z.string(), type: MetricType })
  .meta({ id: 'Metric', description: 'Information about a metric.' });

/** The reference's metrics, in its order. */
export const METRICS = [
  ['orders', 'Orders', 'scalar'],
  ['revenue', 'Revenue', 'currency'],
  ['cumulative_revenue', 'Cumulative Revenue', 'currency'],
  ['average_order_value', 'Average Order Value', 'currency'],
  ['one_time_products', 'One-Time Products', 'scalar'],
  ['one_time_products_revenue', 'One-Time Products Revenue', 'currency'],
  ['new_subscriptions', 'New Subscriptions', 'scalar'],
  ['new_subscriptions_revenue', 'New Subscriptions Revenue', 'currency'],
  ['renewed_subscriptions', 'Renewed Subscriptions', 'scalar'],
  ['renewed_subscriptions_revenue', 'Renewed Subscriptions Revenue', 'currency'],
  ['active_subscriptions', 'Active Subscriptions', 'scalar'],
  ['monthly_recurring_revenue', 'Monthly Recurring Revenue', 'currency'],
  ['checkouts', 'Checkouts', 'scalar'],
  ['succeeded_checkouts', 'Succeeded Checkouts', 'scalar'],
  ['checkouts_conversion', 'Checkouts Conversion Rate', 'percentage'],
] as const;

/** Tessera's extra metrics (docs/metrics.md); clients of the reference ignore them. */
export const EXTENSION_METRICS = [
  ['net_revenue', 'Net Revenue', 'currency'],
  ['churned_subscriptions', 'Churned Subscriptions', 'scalar'],
  ['churn_rate', 'Churn Rate', 'percentage'],
  ['average_revenue_per_user', 'Average Revenue Per User', 'currency'],
  ['new_monthly_recurring_revenue', 'New MRR', 'currency'],
  ['churned_monthly_recurring_revenue', 'Churned MRR', 'currency'],
  ['expansion_monthly_recurring_revenue', 'Expansion MRR', 'currency'],
  ['contraction_monthly_recurring_revenue', 'Contraction MRR', 'currency'],
  ['active_trials', 'Active Trials', 'scalar'],
  ['new_trials', 'New Trials', 'scalar'],
  ['trial_conversions', 'Trial Conversions', 'scalar'],
  ['trial_conversion_rate', 'Trial Conversion Rate', 'percentage'],
] as const;

export type MetricSlug = (typeof METRICS)[number][0] | (typeof EXTENSION_METRICS)[number][0];

const numbers = (list: readonly (readonly [string, string, string])[]) =>
  Object.fromEntries(list.map(([slug]) => [slug, z.number()])) as Record<MetricSlug, z.ZodNumber>;
const definitions = (list: readonly (readonly [string, string, string])[]) =>
  Object.fromEntries(list.map(([slug]) => [slug, Metric])) as Record<MetricSlug, typeof Metric>;
const extension = { 'x-tessera-extension': true } as const;

export const MetricPeriod = z
  .object({
    timestamp: z.iso.datetime({ offset: true }).meta({ description: 'Start of the period.' }),
    ...numbers(METRICS),
    ...Object.fromEntries(
      EXTENSION_METRICS.map(([slug]) => [
        slug,
        z.number().meta({ description: 'Extension (docs/metrics.md).', ...extension }),
      ]),
    ),
  })
  .meta({ id: 'MetricPeriod' });

export const MetricsTotals = z.object(numbers([...METRICS, ...EXTENSION_METRICS])).meta({ id: 'MetricsTotals' });
export const Metrics = z.object(definitions([...METRICS, ...EXTENSION_METRICS])).meta({ id: 'Metrics' });

export const MetricsResponse = z
  .object({ periods: z.array(MetricPeriod), totals: MetricsTotals, metrics: Metrics })
  .meta({ id: 'MetricsResponse', description: 'Metrics response schema.' });
export type MetricsResponseWire = z.input<typeof MetricsResponse>;

export const MetricsIntervalLimit = z
  .object({
    min_days: z.int().meta({ description: 'Minimum number of days for this interval.' }),
    max_days: z.int().meta({ description: 'Maximum number of days for this interval.' }),
  })
  .meta({ id: 'MetricsIntervalLimit' });
export const MetricsLimits = z
  .object({
    min_date: z.iso.date(),
    intervals: z
      .object(
        Object.fromEntries(INTERVALS.map((i) => [i, MetricsIntervalLimit])) as Record<
          (typeof INTERVALS)[number],
          typeof MetricsIntervalLimit
        >,
      )
      .meta({ id: 'MetricsIntervalsLimits' }),
  })
  .meta({ id: 'MetricsLimits', description: 'Date limits to get metrics.' });
