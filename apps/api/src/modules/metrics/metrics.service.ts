import { Readable } from 'node:stream';
import { metricsCsvLines } from './metrics.export.js';
import type { Context } from '../../platform/context.js';
import { validationError } from '../../platform/http/errors.js';
import { daysBetween, INTERVALS, MAX_DAYS, MIN_DATE, MIN_DAYS, type TimeInterval } from './metrics.periods.js';
import { aggregateMetrics, type MetricsRow } from './metrics.repository.js';
import {
  EXTENSION_METRICS,
  METRICS,
  type MetricSlug,
  type MetricsExportParams,
  type MetricsParams,
  type MetricsResponseWire,
} from './metrics.schemas.js';
import { visibleOrganizationIds } from './metrics.tenancy.js';

type Values = Record<MetricSlug, number>;

/** How a metric's periods add up to its total (docs/metrics.md). */
const LAST: MetricSlug[] = ['cumulative_revenue', 'active_subscriptions', 'monthly_recurring_revenue', 'active_trials'];
const MEAN: MetricSlug[] = [
  'average_order_value',
  'checkouts_conversion',
  'churn_rate',
  'average_revenue_per_user',
  'trial_conversion_rate',
];

const ratio = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

/** One period's metrics from its aggregates: pure, table-tested. */
export function periodValues(row: Omit<MetricsRow, 'start_at' | 'end_at'>): Values {
  const n = (value: string) => Number(value);
  const revenue = n(row.revenue);
  return {
    orders: n(row.orders),
    revenue,
    cumulative_revenue: n(row.cumulative_revenue),
    average_order_value: n(row.average_order_value),
    one_time_products: n(row.one_time_products),
    one_time_products_revenue: n(row.one_time_products_revenue),
    new_subscriptions: n(row.new_subscriptions),
    new_subscriptions_revenue: n(row.new_subscriptions_revenue),
    renewed_subscriptions: n(row.renewed_subscriptions),
    renewed_subscriptions_revenue: n(row.renewed_subscriptions_revenue),
    active_subscriptions: n(row.active_subscriptions),
    monthly_recurring_revenue: n(row.monthly_recurring_revenue),
    checkouts: n(row.checkouts),
    succeeded_checkouts: n(row.succeeded_checkouts),
    checkouts_conversion: ratio(n(row.succeeded_checkouts), n(row.checkouts)),
    net_revenue: n(row.net_revenue),
    churned_subscriptions: n(row.churned_subscriptions),
    churn_rate: ratio(n(row.churned_subscriptions), n(row.active_at_start)),
    average_revenue_per_user: n(row.ordering_customers) === 0 ? 0 : Math.ceil(revenue / n(row.ordering_customers)),
    new_monthly_recurring_revenue: n(row.new_mrr),
    churned_monthly_recurring_revenue: n(row.churned_mrr),
    expansion_monthly_recurring_revenue: n(row.expansion_mrr),
    contraction_monthly_recurring_revenue: n(row.contraction_mrr),
    active_trials: n(row.active_trials),
    new_trials: n(row.new_trials),
    trial_conversions: n(row.trial_conversions),
    trial_conversion_rate: ratio(n(row.trial_conversions), n(row.ended_trials)),
  };
}

/** Totals of the periods: sums, except the last value of stocks and the mean (zeros included) of rates. */
export function totalsOf(periods: Values[]): Values {
  const totals = {} as Values;
  for (const [slug] of [...METRICS, ...EXTENSION_METRICS]) {
    const values = periods.map((period) => period[slug]);
    if (LAST.includes(slug)) totals[slug] = values.at(-1) ?? 0;
    else if (MEAN.includes(slug))
      totals[slug] = values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
    else totals[slug] = values.reduce((a, b) => a + b, 0);
  }
  return totals;
}

/** The range rules of the limits call: a 422 on the field at fault. */
export function checkRange(params: Pick<MetricsParams, 'start_date' | 'end_date' | 'interval'>): void {
  if (params.start_date < MIN_DATE) {
    throw validationError(['query', 'start_date'], `Date must be ${MIN_DATE} or later.`);
  }
  const days = daysBetween(params.start_date, params.end_date);
  if (days < 0) throw validationError(['query', 'end_date'], 'end_date must not be before start_date.');
  if (days > MAX_DAYS[params.interval]) {
    throw validationError(
      ['query', 'interval'],
      'The interval is too big. Try to change the interval or reduce the date range.',
    );
  }
}

export async function getMetrics(ctx: Context, params: MetricsParams): Promise<MetricsResponseWire> {
  checkRange(params);
  const visible = await visibleOrganizationIds(ctx);
  const organizationIds = params.organization_id?.length
    ? params.organization_id.filter((id) => visible.includes(id))
    : visible;
  const rows = await aggregateMetrics(
    ctx.db,
    {
      // No visible organization: a scope that matches nothing (the nil id).
      organizationIds: organizationIds.length ? organizationIds : ['00000000-0000-0000-0000-000000000000'],
      productIds: params.product_id,
      billingTypes: params.billing_type,
      customerIds: params.customer_id,
    },
    { startDate: params.start_date, endDate: params.end_date, interval: params.interval, timezone: params.timezone },
  ).catch((error: unknown) => {
    // A zone the runtime knows but the database's time zone data does not.
    if (error instanceof Error && /time zone .* not recognized/i.test(error.message)) {
      throw validationError(['query', 'timezone'], 'Unknown time zone.');
    }
    throw error;
  });
  const values = rows.map(periodValues);
  return {
    periods: rows.map((row, i) => ({ timestamp: new Date(row.start_at).toISOString(), ...values[i]! })),
    totals: totalsOf(values),
    metrics: Object.fromEntries(
      [...METRICS, ...EXTENSION_METRICS].map(([slug, display_name, type]) => [slug, { slug, display_name, type }]),
    ) as MetricsResponseWire['metrics'],
  };
}

/**
 * `GET /v1/metrics/export`: the same computation as `GET /v1/metrics/` (its range is bounded by the
 * limits, so the periods are few), written as CSV lines to the response one by one.
 */
export async function exportMetrics(ctx: Context, params: MetricsExportParams): Promise<Readable> {
  const response = await getMetrics(ctx, params);
  return Readable.from(metricsCsvLines(response, params.metrics));
}

export function getLimits() {
  return {
    min_date: MIN_DATE,
    intervals: Object.fromEntries(
      INTERVALS.map((interval) => [interval, { min_days: MIN_DAYS[interval], max_days: MAX_DAYS[interval] }]),
    ),
  } as { min_date: string; intervals: Record<TimeInterval, { min_days: number; max_days: number }> };
}
