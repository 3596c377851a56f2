import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { currentHours, staleParts, type HoursPart } from './metrics-hours.repository.js';
import { periodsOf, type Period, type TimeInterval } from './metrics.periods.js';

export interface MetricsScope {
  organizationIds: string[];
  productIds?: string[];
  billingTypes?: ('one_time' | 'recurring')[];
  customerIds?: string[];
}

/** One period's raw aggregates, as the statement returns them (bigints as strings). */
export interface MetricsRow {
  start_at: Date;
  end_at: Date;
  orders: string;
  revenue: string;
  net_revenue: string;
  cumulative_revenue: string;
  average_order_value: string;
  ordering_customers: string;
  one_time_products: string;
  one_time_products_revenue: string;
  new_subscriptions: string;
  new_subscriptions_revenue: string;
  renewed_subscriptions: string;
  renewed_subscriptions_revenue: string;
  active_subscriptions: string;
  active_at_start: string;
  monthly_recurring_revenue: string;
  churned_subscriptions: string;
  new_mrr: string;
  churned_mrr: string;
  expansion_mrr: string;
  contraction_mrr: string;
  checkouts: string;
  succeeded_checkouts: string;
  active_trials: string;
  new_trials: string;
  trial_conversions: string;
  ended_trials: string;
}

/** A period starting and ending on whole UTC hours: each UTC hour is inside it or outside it. */
const onHours = (period: Period) => period.start.getTime() % 3_600_000 === 0 && period.end.getTime() % 3_600_000 === 0;

/** Every period of the range starts and ends on a whole UTC hour (both hourly rollups need it). */
const onWholeHours = (range: MetricsRange) =>
  periodsOf(range.startDate, range.endDate, range.interval, range.timezone).every(onHours);

/** Revenue statuses: a pending or failed order brought no money. */
const PAID = sql`('paid', 'refunded', 'partially_refunded')`;

function customerFilter(column: string, scope: MetricsScope): RawBuilder<unknown> {
  return scope.customerIds?.length ? sql`${sql.ref(column)} IN (${sql.join(scope.customerIds)})` : sql`true`;
}

/** Every metric of every period of a range: from the hours where they answer it, else from the rows. */
export async function aggregateMetrics(db: Executor, scope: MetricsScope, range: MetricsRange): Promise<MetricsRow[]> {
  if (readsHours(scope, range)) {
    const rows = await aggregateFromHours(db, scope, range);
    if (rows) return rows;
  }
  return aggregateFromRows(db, scope, range);
}

export interface MetricsRange {
  startDate: string;
  endDate: string;
  interval: TimeInterval;
  timezone: string;
}

/**
 * The hours (migration 0050) answer hour and day periods made of whole UTC hours (any interval of a zone
 * whose offsets over the range are whole hours) of whole organizations: their distinct counts are kept
 * for periods starting up to 24 hours before an hour, and per organization, not per product or customer.
 */
function readsHours(scope: MetricsScope, range: MetricsRange): boolean {
  return (
    (range.interval === 'hour' || range.interval === 'day') &&
    !scope.productIds?.length &&
    scope.billingTypes?.length !== 1 &&
    !scope.customerIds?.length &&
    onWholeHours(range)
  );
}

/** JIT off (see aggregateFromRows) and room to sort in memory, for this transaction's statements. */
async function metricsSettings(tx: Executor): Promise<void> {
  await sql`SET LOCAL jit = off`.execute(tx);
  await sql`SET LOCAL work_mem = '32MB'`.execute(tx);
}

/** Runs a metrics statement in a transaction of its own with the metrics settings. */
async function runMetricsStatement<R>(db: Executor, statement: RawBuilder<R>): Promise<R[]> {
  if (db.isTransaction) return (await statement.execute(db)).rows;
  return db.transaction().execute(async (tx) => {
    await metricsSettings(tx);
    return (await statement.execute(tx)).rows;
  });
}

/** The periods of a range: key, first instant and end (`periodKey` of a row's instant finds its period). */
function periodsStatement(range: MetricsRange) {
  const { startDate, endDate, interval, timezone } = range;
  const step = sql.lit(`1 ${interval}`);
  const unit = sql.lit(interval);
  // Local bounds (wall times in the zone) and the same as instants.
  const ls = sql`${startDate}::timestamp`;
  const le = sql`(${endDate}::timestamp + interval '1 day')`;
  const rs = sql`(${startDate}::timestamp AT TIME ZONE ${timezone})`;
  const re = sql`((${endDate}::timestamp + interval '1 day') AT TIME ZONE ${timezone})`;
  /** The key of the period holding instant `at` (for an instant inside the range). */
  const periodKey = (at: RawBuilder<unknown>) =>
    interval === 'hour'
      ? sql`date_bin(interval '1 hour', ${at}, ${rs})`
      : sql`greatest(date_trunc(${unit}, ${at} AT TIME ZONE ${timezone}), ${ls})`;
  const periods =
    interval === 'hour'
      ? sql`SELECT g AS k, g AS start_at, least(g + interval '1 hour', ${re}) AS end_at
            FROM generate_series(${rs}, ${re} - interval '1 microsecond', interval '1 hour') g`
      : sql`SELECT greatest(g, ${ls}) AS k, greatest(g, ${ls}) AT TIME ZONE ${timezone} AS start_at,
                   least(g + interval ${step}, ${le}) AT TIME ZONE ${timezone} AS end_at
            FROM generate_series(date_trunc(${unit}, ${ls}), ${le} - interval '1 microsecond', interval ${step}) g`;
  return { rs, re, periodKey, periods };
}

/**
 * Every metric from the organizations' hours: each hour row joined to its period by key, the arrays read
 * at the hour's distance from the period's start (j) or to its end (k); the stocks are the sums of all
 * hours before the range plus running sums. Null when an hour of the range holds an irregular row (the
 * rows statement answers those).
 */
export async function aggregateFromHours(
  db: Executor,
  scope: MetricsScope,
  range: MetricsRange,
): Promise<MetricsRow[] | null> {
  const { rs, re, periods } = periodsStatement(range);
  const orgs = scope.organizationIds;
  const statement = (stale: Set<HoursPart> | 'all') => sql<MetricsRow & { irregular: string }>`
    WITH periods AS (${periods}),
    -- Every hour of the range with its period, its distance from the period's start (j, an array's
    -- index) and to its end (k_end): the hour rows join it by equality, no zone arithmetic per row.
    slots AS (
      SELECT p.k, g AS hour, (extract(epoch FROM g - p.start_at) / 3600)::int + 1 AS j,
             (extract(epoch FROM p.end_at - g) / 3600)::int AS k_end
      FROM periods p, generate_series(p.start_at, p.end_at - interval '1 hour', interval '1 hour') g
    ),
    oh AS (${currentHours('orders', orgs, re, stale === 'all' || stale.has('orders'))}),
    sh AS (${currentHours('subscriptions', orgs, re, stale === 'all' || stale.has('subscriptions'))}),
    ch AS (${currentHours('checkouts', orgs, re, stale === 'all' || stale.has('checkouts'))}),
    before AS (
      SELECT (SELECT coalesce(sum(revenue), 0) FROM oh WHERE hour < ${rs}) AS revenue,
             coalesce(sum(starts - ends), 0) AS active,
             coalesce(sum(starts_mrr - ends_mrr), 0) AS mrr,
             coalesce(sum(trial_starts - trial_overs), 0) AS trials
      FROM sh WHERE hour < ${rs}
    ),
    order_stats AS (
      SELECT p.k, sum(o.orders) AS orders, sum(o.revenue) AS revenue, sum(o.net_revenue) AS net_revenue,
             sum(o.one_time_products) AS one_time_products,
             sum(o.one_time_products_revenue) AS one_time_products_revenue,
             sum(o.customers[p.j]) AS ordering_customers,
             sum(o.new_revenue[p.j]) AS new_subscriptions_revenue,
             sum(o.renewed[p.j]) AS renewed_subscriptions,
             sum(o.subscription_revenue) - sum(o.new_revenue[p.j]) AS renewed_subscriptions_revenue,
             sum(o.irregular) AS irregular
      FROM oh o
      JOIN slots p ON p.hour = o.hour
      GROUP BY p.k
    ),
    subscription_stats AS (
      SELECT p.k, sum(s.starts - s.ends) AS n, sum(s.starts_mrr - s.ends_mrr) AS m,
             sum(s.starts) AS new_subscriptions, sum(s.new_mrr[p.k_end]) AS new_mrr,
             sum(s.churned) AS churned_subscriptions, sum(s.churned_mrr[p.j]) AS churned_mrr,
             sum(s.expansion_mrr) AS expansion_mrr, sum(s.contraction_mrr) AS contraction_mrr,
             sum(s.trial_starts - s.trial_overs) AS trials_n, sum(s.trial_starts) AS new_trials,
             sum(s.trial_conversions) AS trial_conversions, sum(s.trials_decided) AS ended_trials,
             sum(s.irregular) AS irregular
      FROM sh s
      JOIN slots p ON p.hour = s.hour
      GROUP BY p.k
    ),
    checkout_stats AS (
      SELECT p.k, sum(c.checkouts) AS checkouts, sum(c.succeeded) AS succeeded_checkouts
      FROM ch c
      JOIN slots p ON p.hour = c.hour
      GROUP BY p.k
    ),
    -- One pass over the periods, each period's row of every part joined once (joined again after the
    -- window, the planner scanned every part's rows once per period).
    running AS (
      SELECT p.start_at, p.end_at,
             (SELECT revenue FROM before) + sum(coalesce(os.revenue, 0)) OVER w AS cumulative_revenue,
             (SELECT active FROM before) + sum(coalesce(ss.n, 0)) OVER w AS active_subscriptions,
             (SELECT mrr FROM before) + sum(coalesce(ss.m, 0)) OVER w AS monthly_recurring_revenue,
             (SELECT trials FROM before) + sum(coalesce(ss.trials_n, 0)) OVER w AS active_trials,
             coalesce(ss.n, 0) AS change_in_active,
             os.orders, os.revenue, os.net_revenue, os.ordering_customers, os.one_time_products,
             os.one_time_products_revenue, os.new_subscriptions_revenue, os.renewed_subscriptions,
             os.renewed_subscriptions_revenue, ss.new_subscriptions, ss.churned_subscriptions, ss.new_mrr,
             ss.churned_mrr, ss.expansion_mrr, ss.contraction_mrr, ss.new_trials, ss.trial_conversions,
             ss.ended_trials, cs.checkouts, cs.succeeded_checkouts,
             coalesce(os.irregular, 0) + coalesce(ss.irregular, 0) AS irregular
      FROM periods p
      LEFT JOIN order_stats os ON os.k = p.k
      LEFT JOIN subscription_stats ss ON ss.k = p.k
      LEFT JOIN checkout_stats cs ON cs.k = p.k
      WINDOW w AS (ORDER BY p.start_at)
    )
    SELECT start_at, end_at,
           coalesce(orders, 0) AS orders, coalesce(revenue, 0) AS revenue,
           coalesce(net_revenue, 0) AS net_revenue, cumulative_revenue,
           CASE WHEN coalesce(orders, 0) > 0 THEN ceil(revenue::numeric / orders) ELSE 0 END AS average_order_value,
           coalesce(ordering_customers, 0) AS ordering_customers,
           coalesce(one_time_products, 0) AS one_time_products,
           coalesce(one_time_products_revenue, 0) AS one_time_products_revenue,
           coalesce(new_subscriptions, 0) AS new_subscriptions,
           coalesce(new_subscriptions_revenue, 0) AS new_subscriptions_revenue,
           coalesce(renewed_subscriptions, 0) AS renewed_subscriptions,
           coalesce(renewed_subscriptions_revenue, 0) AS renewed_subscriptions_revenue,
           active_subscriptions, active_subscriptions - change_in_active AS active_at_start,
           monthly_recurring_revenue,
           coalesce(churned_subscriptions, 0) AS churned_subscriptions,
           coalesce(new_mrr, 0) AS new_mrr, coalesce(churned_mrr, 0) AS churned_mrr,
           coalesce(expansion_mrr, 0) AS expansion_mrr, coalesce(contraction_mrr, 0) AS contraction_mrr,
           coalesce(checkouts, 0) AS checkouts, coalesce(succeeded_checkouts, 0) AS succeeded_checkouts,
           active_trials, coalesce(new_trials, 0) AS new_trials,
           coalesce(trial_conversions, 0) AS trial_conversions, coalesce(ended_trials, 0) AS ended_trials,
           irregular
    FROM running
    ORDER BY start_at
  `;
  // Which parts have stale hours, and the hours, in one snapshot: a part seen without marks is read
  // from its stored rows alone (the statement is a third the size to plan, and skips the marks).
  const rows = db.isTransaction
    ? (await statement('all').execute(db)).rows
    : await db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (tx) => {
          await metricsSettings(tx);
          return (await statement(await staleParts(tx, orgs, re)).execute(tx)).rows;
        });
  if (rows.some((row) => Number(row.irregular) > 0)) return null;
  return rows.map(({ irregular: _irregular, ...row }) => row);
}

/**
 * Every metric of every period from the rows of the base tables (any interval, zone and filter), in one
 * statement, each base table read once over the range:
 *
 * - Each row's period is computed from its timestamp (`periodKey`: the local day, Monday, month or
 *   year it falls in, the first period starting at `start_date`; hours binned from the range's first
 *   instant), so the aggregates are hash groupings by that key joined to the periods by equality,
 *   never a row against every period.
 * - Active subscriptions and MRR are running sums of +1 at `started_at` and −1 at `ended_at` (never
 *   before the start) over the periods, from the count active at the range's start: a subscription is
 *   active at T when it started before T and had not ended by T.
 * - Orders and subscriptions are read through the covering indexes of migration 0034; checkouts from
 *   their hourly rollup (migration 0049) when every period is made of whole UTC hours and no customer is
 *   filtered, else through their covering index.
 *
 * The answers are those of the definitions in docs/metrics.md; `test/support/metrics-reference.ts`
 * states them literally and `metrics.equivalence.int.test.ts` compares both on random worlds.
 */
async function aggregateFromRows(db: Executor, scope: MetricsScope, range: MetricsRange): Promise<MetricsRow[]> {
  const { rs, re, periodKey, periods } = periodsStatement(range);
  const byProduct = scope.billingTypes?.length === 1;
  const productJoin = (alias: string) =>
    byProduct ? sql`JOIN products pr ON pr.id = ${sql.ref(`${alias}.product_id`)}` : sql``;
  const filters = (alias: string) => {
    const parts: RawBuilder<unknown>[] = [
      sql`${sql.ref(`${alias}.organization_id`)} IN (${sql.join(scope.organizationIds)})`,
    ];
    if (scope.productIds?.length) {
      parts.push(sql`${sql.ref(`${alias}.product_id`)} IN (${sql.join(scope.productIds)})`);
    }
    if (byProduct) {
      parts.push(
        scope.billingTypes![0] === 'recurring'
          ? sql`pr.recurring_interval IS NOT NULL`
          : sql`pr.recurring_interval IS NULL`,
      );
    }
    parts.push(customerFilter(`${alias}.customer_id`, scope));
    return sql.join(parts, sql` AND `);
  };
  // Checkouts are counted from their hourly rollup (migration 0049) when every hour lies whole inside one
  // period; a customer filter has no rollup and reads the checkouts.
  const checkoutHours = !scope.customerIds?.length && onWholeHours(range);
  const mrrOf = (amount: string, recurringInterval: string) =>
    sql`CASE WHEN ${sql.ref(recurringInterval)} = 'year' THEN round(${sql.ref(amount)} / 12.0) ELSE ${sql.ref(amount)} END`;
  const statement = sql<MetricsRow>`
    WITH periods AS (${periods}),
    range_orders AS (
      SELECT ${periodKey(sql`o.created_at`)} AS k, o.net_amount, o.refunded_amount, o.subscription_id, o.customer_id,
             -- Null (neither new nor renewed) when the subscription never started, as in the definitions.
             CASE WHEN s.started_at IS NOT NULL
                  THEN coalesce(s.trial_end, s.started_at) >= ${rs} AND coalesce(s.trial_end, s.started_at) < ${re}
                       AND ${periodKey(sql`coalesce(s.trial_end, s.started_at)`)} = ${periodKey(sql`o.created_at`)}
                  END AS same_period
      FROM orders o
      ${productJoin('o')}
      LEFT JOIN subscriptions s ON s.id = o.subscription_id
      WHERE ${filters('o')}
        AND o.status IN ${PAID}
        AND o.created_at >= ${rs} AND o.created_at < ${re}
    ),
    order_stats AS (
      SELECT k,
             count(*) AS orders,
             sum(net_amount) AS revenue,
             sum(net_amount - refunded_amount) AS net_revenue,
             ceil(avg(net_amount)) AS average_order_value,
             count(DISTINCT customer_id) AS ordering_customers,
             count(*) FILTER (WHERE subscription_id IS NULL) AS one_time_products,
             coalesce(sum(net_amount) FILTER (WHERE subscription_id IS NULL), 0) AS one_time_products_revenue,
             coalesce(sum(net_amount) FILTER (WHERE same_period), 0) AS new_subscriptions_revenue,
             count(DISTINCT subscription_id) FILTER (WHERE subscription_id IS NOT NULL AND NOT same_period)
               AS renewed_subscriptions,
             coalesce(sum(net_amount) FILTER (WHERE subscription_id IS NOT NULL AND NOT same_period), 0)
               AS renewed_subscriptions_revenue
      FROM range_orders
      GROUP BY k
    ),
    revenue_before AS (
      SELECT coalesce(sum(o.net_amount), 0) AS amount
      FROM orders o
      ${productJoin('o')}
      WHERE ${filters('o')} AND o.status IN ${PAID} AND o.created_at < ${rs}
    ),
    first_changes AS (
      SELECT DISTINCT ON (ch.subscription_id) ch.subscription_id,
             ${mrrOf('ch.previous_amount', 'ch.previous_interval')} AS mrr
      FROM subscription_amount_changes ch
      WHERE ch.organization_id IN (${sql.join(scope.organizationIds)})
      ORDER BY ch.subscription_id, ch.changed_at, ch.seq
    ),
    scoped_subscriptions AS (
      -- A trial is not a paying subscription (docs/trials.md): one counts from the end of its trial
      -- (its first paid period), never while trialing, and never when it ended unpaid with the trial.
      SELECT s.id, coalesce(s.trial_end, s.started_at) AS started_at, s.ended_at,
             ${mrrOf('s.amount', 's.recurring_interval')} AS mrr,
             coalesce(fc.mrr, ${mrrOf('s.amount', 's.recurring_interval')}) AS initial_mrr
      FROM subscriptions s
      ${productJoin('s')}
      LEFT JOIN first_changes fc ON fc.subscription_id = s.id
      WHERE ${filters('s')}
        AND s.started_at IS NOT NULL
        AND s.status <> 'trialing'
        AND (s.trial_end IS NULL OR s.ended_at IS NULL OR s.ended_at > s.trial_end)
        AND coalesce(s.trial_end, s.started_at) < ${re}
        AND (s.ended_at IS NULL OR s.ended_at >= ${rs})
    ),
    -- +1 (and +MRR) at the start, −1 at the end, never before the start: counted before the range in one
    -- pass, and grouped by period for each kind apart (no list of events to build and sort).
    active_before AS (
      SELECT count(*) FILTER (WHERE started_at < ${rs})
               - count(*) FILTER (WHERE ended_at IS NOT NULL AND greatest(started_at, ended_at) < ${rs}) AS n,
             coalesce(sum(mrr) FILTER (WHERE started_at < ${rs}), 0)
               - coalesce(sum(mrr) FILTER (WHERE ended_at IS NOT NULL AND greatest(started_at, ended_at) < ${rs}), 0)
               AS m
      FROM scoped_subscriptions
    ),
    event_stats AS (
      SELECT k, sum(n) AS n, sum(m) AS m
      FROM (
        SELECT ${periodKey(sql`started_at`)} AS k, count(*) AS n, sum(mrr) AS m
        FROM scoped_subscriptions
        WHERE started_at >= ${rs} AND started_at < ${re}
        GROUP BY 1
        UNION ALL
        SELECT ${periodKey(sql`greatest(started_at, ended_at)`)}, -count(*), -sum(mrr)
        FROM scoped_subscriptions
        WHERE ended_at IS NOT NULL AND greatest(started_at, ended_at) >= ${rs} AND greatest(started_at, ended_at) < ${re}
        GROUP BY 1
      ) e
      GROUP BY k
    ),
    start_stats AS (
      SELECT p.k,
             count(*) FILTER (WHERE s.ended_at IS NULL OR s.ended_at >= p.start_at) AS new_subscriptions,
             coalesce(sum(s.initial_mrr) FILTER (WHERE s.ended_at IS NULL OR s.ended_at >= p.end_at), 0) AS new_mrr
      FROM scoped_subscriptions s
      JOIN periods p ON p.k = ${periodKey(sql`s.started_at`)}
      WHERE s.started_at >= ${rs}
      GROUP BY p.k
    ),
    end_stats AS (
      SELECT p.k,
             count(*) FILTER (WHERE s.started_at < p.end_at) AS churned_subscriptions,
             coalesce(sum(s.mrr) FILTER (WHERE s.started_at < p.start_at), 0) AS churned_mrr
      FROM scoped_subscriptions s
      JOIN periods p ON p.k = ${periodKey(sql`s.ended_at`)}
      WHERE s.ended_at >= ${rs} AND s.ended_at < ${re}
      GROUP BY p.k
    ),
    change_stats AS (
      SELECT ${periodKey(sql`ch.changed_at`)} AS k,
             coalesce(sum(d.delta) FILTER (WHERE d.delta > 0), 0) AS expansion_mrr,
             coalesce(-sum(d.delta) FILTER (WHERE d.delta < 0), 0) AS contraction_mrr
      FROM subscription_amount_changes ch
      JOIN scoped_subscriptions s ON s.id = ch.subscription_id,
      LATERAL (SELECT ${mrrOf('ch.amount', 'ch.recurring_interval')}
                      - ${mrrOf('ch.previous_amount', 'ch.previous_interval')} AS delta) d
      WHERE ch.organization_id IN (${sql.join(scope.organizationIds)})
        AND ch.changed_at >= ${rs} AND ch.changed_at < ${re}
      GROUP BY 1
    ),
    scoped_trials AS (
      -- A trial is over at its end, or when the subscription ended first (canceled, revoked); it
      -- converted when the subscription went on past its end (docs/metrics.md, trials).
      SELECT t.trial_start, t.over_at, t.converted, t.decided
      FROM (
        SELECT s.trial_start,
               greatest(s.trial_start, least(s.trial_end, coalesce(s.ended_at, s.trial_end))) AS over_at,
               s.status <> 'trialing' AND (s.ended_at IS NULL OR s.ended_at > s.trial_end) AS converted,
               s.status <> 'trialing' AS decided
        FROM subscriptions s
        ${productJoin('s')}
        WHERE ${filters('s')}
          AND s.trial_start IS NOT NULL AND s.trial_end IS NOT NULL
          AND s.trial_start < ${re}
      ) t
      WHERE t.over_at >= ${rs}
    ),
    trial_events AS (
      SELECT trial_start AS at, 1 AS n, 1 AS started, 0 AS converted, 0 AS ended FROM scoped_trials
      UNION ALL
      SELECT over_at, -1, 0, converted::int, decided::int FROM scoped_trials
    ),
    trials_before AS (
      SELECT coalesce(sum(n), 0) AS n FROM trial_events WHERE at < ${rs}
    ),
    trial_stats AS (
      SELECT ${periodKey(sql`at`)} AS k, sum(n) AS n, sum(started) AS new_trials,
             sum(converted) AS trial_conversions, sum(ended) AS ended_trials
      FROM trial_events
      WHERE at >= ${rs} AND at < ${re}
      GROUP BY 1
    ),
    checkout_stats AS (${
      checkoutHours
        ? sql`
      SELECT ${periodKey(sql`c.hour`)} AS k,
             sum(c.checkouts) AS checkouts,
             sum(c.succeeded) AS succeeded_checkouts
      FROM metrics_checkout_hours c
      ${productJoin('c')}
      WHERE ${filters('c')} AND c.hour >= ${rs} AND c.hour < ${re}
      GROUP BY 1`
        : sql`
      SELECT ${periodKey(sql`c.created_at`)} AS k,
             count(*) AS checkouts,
             count(*) FILTER (WHERE c.status = 'succeeded') AS succeeded_checkouts
      FROM checkouts c
      ${productJoin('c')}
      WHERE ${filters('c')} AND c.created_at >= ${rs} AND c.created_at < ${re}
      GROUP BY 1`
    }),
    running AS (
      SELECT p.k, p.start_at, p.end_at,
             (SELECT amount FROM revenue_before)
               + sum(coalesce(os.revenue, 0)) OVER (ORDER BY p.start_at) AS cumulative_revenue,
             (SELECT n FROM active_before) + sum(coalesce(es.n, 0)) OVER (ORDER BY p.start_at) AS active_subscriptions,
             (SELECT m FROM active_before) + sum(coalesce(es.m, 0)) OVER (ORDER BY p.start_at)
               AS monthly_recurring_revenue,
             coalesce(es.n, 0) AS change_in_active,
             (SELECT n FROM trials_before) + sum(coalesce(ts.n, 0)) OVER (ORDER BY p.start_at) AS active_trials
      FROM periods p
      LEFT JOIN order_stats os ON os.k = p.k
      LEFT JOIN event_stats es ON es.k = p.k
      LEFT JOIN trial_stats ts ON ts.k = p.k
    )
    SELECT r.start_at, r.end_at,
           coalesce(os.orders, 0) AS orders, coalesce(os.revenue, 0) AS revenue,
           coalesce(os.net_revenue, 0) AS net_revenue, r.cumulative_revenue,
           coalesce(os.average_order_value, 0) AS average_order_value,
           coalesce(os.ordering_customers, 0) AS ordering_customers,
           coalesce(os.one_time_products, 0) AS one_time_products,
           coalesce(os.one_time_products_revenue, 0) AS one_time_products_revenue,
           coalesce(ss.new_subscriptions, 0) AS new_subscriptions,
           coalesce(os.new_subscriptions_revenue, 0) AS new_subscriptions_revenue,
           coalesce(os.renewed_subscriptions, 0) AS renewed_subscriptions,
           coalesce(os.renewed_subscriptions_revenue, 0) AS renewed_subscriptions_revenue,
           r.active_subscriptions, r.active_subscriptions - r.change_in_active AS active_at_start,
           r.monthly_recurring_revenue,
           coalesce(es.churned_subscriptions, 0) AS churned_subscriptions,
           coalesce(ss.new_mrr, 0) AS new_mrr, coalesce(es.churned_mrr, 0) AS churned_mrr,
           coalesce(ch.expansion_mrr, 0) AS expansion_mrr, coalesce(ch.contraction_mrr, 0) AS contraction_mrr,
           coalesce(cs.checkouts, 0) AS checkouts, coalesce(cs.succeeded_checkouts, 0) AS succeeded_checkouts,
           r.active_trials, coalesce(ts.new_trials, 0) AS new_trials,
           coalesce(ts.trial_conversions, 0) AS trial_conversions, coalesce(ts.ended_trials, 0) AS ended_trials
    FROM running r
    LEFT JOIN order_stats os ON os.k = r.k
    LEFT JOIN start_stats ss ON ss.k = r.k
    LEFT JOIN end_stats es ON es.k = r.k
    LEFT JOIN change_stats ch ON ch.k = r.k
    LEFT JOIN checkout_stats cs ON cs.k = r.k
    LEFT JOIN trial_stats ts ON ts.k = r.k
    ORDER BY r.start_at
  `;
  // The planner's estimates over the grouped CTEs are far above the real few hundred rows; left on,
  // JIT compiling them costs seconds (measured by bench:metrics). Off for this read only.
  return runMetricsStatement(db, statement);
}
