import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../src/platform/db/database.js';
import type { TimeInterval } from '../../src/modules/metrics/metrics.periods.js';
import type { MetricsRow, MetricsScope } from '../../src/modules/metrics/metrics.repository.js';

/** Revenue statuses: a pending or failed order brought no money. */
const PAID = sql`('paid', 'refunded', 'partially_refunded')`;

function productFilter(alias: string, scope: MetricsScope): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [
    sql`${sql.ref(`${alias}.organization_id`)} IN (${sql.join(scope.organizationIds)})`,
  ];
  if (scope.productIds?.length) parts.push(sql`${sql.ref(`${alias}.id`)} IN (${sql.join(scope.productIds)})`);
  if (scope.billingTypes?.length === 1) {
    parts.push(
      scope.billingTypes[0] === 'recurring'
        ? sql`${sql.ref(`${alias}.recurring_interval`)} IS NOT NULL`
        : sql`${sql.ref(`${alias}.recurring_interval`)} IS NULL`,
    );
  }
  return sql.join(parts, sql` AND `);
}

function customerFilter(column: string, scope: MetricsScope): RawBuilder<unknown> {
  return scope.customerIds?.length ? sql`${sql.ref(column)} IN (${sql.join(scope.customerIds)})` : sql`true`;
}

/**
 * The metrics by their definitions, literally: each aggregate joins rows to the period whose
 * [start_at, end_at) holds their timestamp (a row against every period). Quadratic, kept as the oracle
 * the production statement (`aggregateMetrics`) is compared with on random worlds.
 */
export async function referenceMetrics(
  db: Executor,
  scope: MetricsScope,
  range: { startDate: string; endDate: string; interval: TimeInterval; timezone: string },
): Promise<MetricsRow[]> {
  const { startDate, endDate, interval, timezone } = range;
  const step = sql.lit(`1 ${interval}`);
  const unit = sql.lit(interval);
  const periods =
    interval === 'hour'
      ? sql`SELECT g AS start_at, least(g + interval '1 hour', b.re) AS end_at
            FROM bounds b, generate_series(b.rs, b.re - interval '1 microsecond', interval '1 hour') g`
      : sql`SELECT greatest(g, b.ls) AT TIME ZONE ${timezone} AS start_at,
                   least(g + interval ${step}, b.le) AT TIME ZONE ${timezone} AS end_at
            FROM bounds b, generate_series(date_trunc(${unit}, b.ls), b.le - interval '1 microsecond', interval ${step}) g`;
  const orderProducts = productFilter('pr', scope);
  const result = await sql<MetricsRow>`
    WITH bounds AS (
      SELECT ${startDate}::timestamp AS ls, ${endDate}::timestamp + interval '1 day' AS le,
             ${startDate}::timestamp AT TIME ZONE ${timezone} AS rs,
             (${endDate}::timestamp + interval '1 day') AT TIME ZONE ${timezone} AS re
    ),
    periods AS (${periods}),
    scoped_orders AS (
      SELECT o.id, o.created_at, o.net_amount, o.refunded_amount, o.subscription_id, o.customer_id,
             -- A trial's subscription starts with its first paid period (docs/trials.md).
             coalesce(s.trial_end, s.started_at) AS subscription_started_at
      FROM orders o
      JOIN products pr ON pr.id = o.product_id
      LEFT JOIN subscriptions s ON s.id = o.subscription_id
      WHERE ${orderProducts} AND ${customerFilter('o.customer_id', scope)}
        AND o.organization_id IN (${sql.join(scope.organizationIds)})
        AND o.status IN ${PAID}
        AND o.created_at < (SELECT re FROM bounds)
    ),
    order_stats AS (
      SELECT p.start_at,
             count(o.id) AS orders,
             coalesce(sum(o.net_amount), 0) AS revenue,
             coalesce(sum(o.net_amount - o.refunded_amount), 0) AS net_revenue,
             coalesce(ceil(avg(o.net_amount)), 0) AS average_order_value,
             count(DISTINCT o.customer_id) AS ordering_customers,
             count(o.id) FILTER (WHERE o.subscription_id IS NULL) AS one_time_products,
             coalesce(sum(o.net_amount) FILTER (WHERE o.subscription_id IS NULL), 0) AS one_time_products_revenue,
             coalesce(sum(o.net_amount) FILTER (
               WHERE o.subscription_started_at >= p.start_at AND o.subscription_started_at < p.end_at), 0)
               AS new_subscriptions_revenue,
             count(DISTINCT o.subscription_id) FILTER (
               WHERE o.subscription_id IS NOT NULL
                 AND NOT (o.subscription_started_at >= p.start_at AND o.subscription_started_at < p.end_at))
               AS renewed_subscriptions,
             coalesce(sum(o.net_amount) FILTER (
               WHERE o.subscription_id IS NOT NULL
                 AND NOT (o.subscription_started_at >= p.start_at AND o.subscription_started_at < p.end_at)), 0)
               AS renewed_subscriptions_revenue
      FROM periods p
      LEFT JOIN scoped_orders o ON o.created_at >= p.start_at AND o.created_at < p.end_at
      GROUP BY p.start_at
    ),
    revenue_before AS (
      SELECT coalesce(sum(net_amount), 0) AS amount FROM scoped_orders WHERE created_at < (SELECT rs FROM bounds)
    ),
    scoped_subscriptions AS (
      SELECT s.id, coalesce(s.trial_end, s.started_at) AS started_at, s.ended_at,
             CASE WHEN s.recurring_interval = 'year' THEN round(s.amount / 12.0) ELSE s.amount END AS mrr,
             coalesce(
               (SELECT CASE WHEN ch.previous_interval = 'year' THEN round(ch.previous_amount / 12.0)
                            ELSE ch.previous_amount END
                FROM subscription_amount_changes ch WHERE ch.subscription_id = s.id
                ORDER BY ch.changed_at, ch.seq LIMIT 1),
               CASE WHEN s.recurring_interval = 'year' THEN round(s.amount / 12.0) ELSE s.amount END
             ) AS initial_mrr
      FROM subscriptions s
      JOIN products pr ON pr.id = s.product_id
      WHERE ${orderProducts} AND ${customerFilter('s.customer_id', scope)}
        AND s.organization_id IN (${sql.join(scope.organizationIds)})
        AND s.started_at IS NOT NULL
        -- Never while trialing, never when it ended with its trial unpaid.
        AND s.status <> 'trialing'
        AND (s.trial_end IS NULL OR s.ended_at IS NULL OR s.ended_at > s.trial_end)
        AND coalesce(s.trial_end, s.started_at) < (SELECT re FROM bounds)
        AND (s.ended_at IS NULL OR s.ended_at >= (SELECT rs FROM bounds))
    ),
    scoped_trials AS (
      SELECT s.id, s.trial_start, s.trial_end,
             -- Over at its end, or when the subscription ended first.
             greatest(s.trial_start, least(s.trial_end, coalesce(s.ended_at, s.trial_end))) AS over_at,
             s.status <> 'trialing' AND (s.ended_at IS NULL OR s.ended_at > s.trial_end) AS converted,
             s.status <> 'trialing' AS decided
      FROM subscriptions s
      JOIN products pr ON pr.id = s.product_id
      WHERE ${orderProducts} AND ${customerFilter('s.customer_id', scope)}
        AND s.organization_id IN (${sql.join(scope.organizationIds)})
        AND s.trial_start IS NOT NULL AND s.trial_end IS NOT NULL
    ),
    trial_stats AS (
      SELECT p.start_at,
             count(t.id) FILTER (WHERE t.trial_start < p.end_at AND t.over_at >= p.end_at) AS active_trials,
             count(t.id) FILTER (WHERE t.trial_start >= p.start_at AND t.trial_start < p.end_at) AS new_trials,
             count(t.id) FILTER (WHERE t.converted AND t.trial_end >= p.start_at AND t.trial_end < p.end_at)
               AS trial_conversions,
             count(t.id) FILTER (WHERE t.decided AND t.over_at >= p.start_at AND t.over_at < p.end_at)
               AS ended_trials
      FROM periods p
      LEFT JOIN scoped_trials t ON t.trial_start < p.end_at AND t.over_at >= p.start_at
      GROUP BY p.start_at
    ),
    subscription_stats AS (
      SELECT p.start_at,
             count(s.id) FILTER (WHERE s.started_at >= p.start_at AND s.started_at < p.end_at) AS new_subscriptions,
             count(s.id) FILTER (WHERE s.started_at < p.end_at AND (s.ended_at IS NULL OR s.ended_at >= p.end_at))
               AS active_subscriptions,
             count(s.id) FILTER (WHERE s.started_at < p.start_at AND (s.ended_at IS NULL OR s.ended_at >= p.start_at))
               AS active_at_start,
             coalesce(sum(s.mrr) FILTER (
               WHERE s.started_at < p.end_at AND (s.ended_at IS NULL OR s.ended_at >= p.end_at)), 0)
               AS monthly_recurring_revenue,
             count(s.id) FILTER (WHERE s.ended_at >= p.start_at AND s.ended_at < p.end_at) AS churned_subscriptions,
             coalesce(sum(s.initial_mrr) FILTER (
               WHERE s.started_at >= p.start_at AND s.started_at < p.end_at
                 AND (s.ended_at IS NULL OR s.ended_at >= p.end_at)), 0) AS new_mrr,
             coalesce(sum(s.mrr) FILTER (
               WHERE s.started_at < p.start_at AND s.ended_at >= p.start_at AND s.ended_at < p.end_at), 0)
               AS churned_mrr
      FROM periods p
      LEFT JOIN scoped_subscriptions s ON s.started_at < p.end_at AND (s.ended_at IS NULL OR s.ended_at >= p.start_at)
      GROUP BY p.start_at
    ),
    amount_changes AS (
      SELECT ch.changed_at,
             (CASE WHEN ch.recurring_interval = 'year' THEN round(ch.amount / 12.0) ELSE ch.amount END)
             - (CASE WHEN ch.previous_interval = 'year' THEN round(ch.previous_amount / 12.0) ELSE ch.previous_amount END)
               AS delta
      FROM subscription_amount_changes ch
      JOIN scoped_subscriptions s ON s.id = ch.subscription_id
      WHERE ch.organization_id IN (${sql.join(scope.organizationIds)})
        AND ch.changed_at >= (SELECT rs FROM bounds) AND ch.changed_at < (SELECT re FROM bounds)
    ),
    change_stats AS (
      SELECT p.start_at,
             coalesce(sum(c.delta) FILTER (WHERE c.delta > 0), 0) AS expansion_mrr,
             coalesce(-sum(c.delta) FILTER (WHERE c.delta < 0), 0) AS contraction_mrr
      FROM periods p
      LEFT JOIN amount_changes c ON c.changed_at >= p.start_at AND c.changed_at < p.end_at
      GROUP BY p.start_at
    ),
    checkout_stats AS (
      SELECT p.start_at,
             count(c.id) AS checkouts,
             count(c.id) FILTER (WHERE c.status = 'succeeded') AS succeeded_checkouts
      FROM periods p
      LEFT JOIN (
        SELECT c.id, c.created_at, c.status
        FROM checkouts c
        JOIN products pr ON pr.id = c.product_id
        WHERE ${orderProducts} AND ${customerFilter('c.customer_id', scope)}
          AND c.organization_id IN (${sql.join(scope.organizationIds)})
          AND c.created_at >= (SELECT rs FROM bounds) AND c.created_at < (SELECT re FROM bounds)
      ) c ON c.created_at >= p.start_at AND c.created_at < p.end_at
      GROUP BY p.start_at
    )
    SELECT p.start_at, p.end_at,
           os.orders, os.revenue, os.net_revenue,
           (SELECT amount FROM revenue_before) + sum(os.revenue) OVER (ORDER BY p.start_at) AS cumulative_revenue,
           os.average_order_value, os.ordering_customers, os.one_time_products, os.one_time_products_revenue,
           ss.new_subscriptions, os.new_subscriptions_revenue, os.renewed_subscriptions,
           os.renewed_subscriptions_revenue, ss.active_subscriptions, ss.active_at_start,
           ss.monthly_recurring_revenue, ss.churned_subscriptions, ss.new_mrr, ss.churned_mrr,
           ch.expansion_mrr, ch.contraction_mrr,
           cs.checkouts, cs.succeeded_checkouts,
           ts.active_trials, ts.new_trials, ts.trial_conversions, ts.ended_trials
    FROM periods p
    JOIN order_stats os ON os.start_at = p.start_at
    JOIN subscription_stats ss ON ss.start_at = p.start_at
    JOIN checkout_stats cs ON cs.start_at = p.start_at
    JOIN change_stats ch ON ch.start_at = p.start_at
    JOIN trial_stats ts ON ts.start_at = p.start_at
    ORDER BY p.start_at
  `.execute(db);
  return result.rows;
}
