import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../platform/db/database.js';

/**
 * An organization's metrics per UTC hour (migration 0050, docs/metrics.md "The hours"), in three parts.
 * Each part's hours are computed from the base tables by one statement below: the `metrics.hours` job
 * (metrics.hours.ts) stores them for the hours a write marked stale, and a read computes the hours still
 * marked stale itself. The two use the same statement, so a stored hour and a computed one cannot differ.
 */
export type HoursPart = 'orders' | 'subscriptions' | 'checkouts';

export const HOURS_TABLES = {
  orders: 'metrics_order_hours',
  subscriptions: 'metrics_subscription_hours',
  checkouts: 'metrics_checkout_totals',
} as const satisfies Record<HoursPart, string>;

export const HOURS_COLUMNS: Record<HoursPart, string[]> = {
  orders: [
    'orders',
    'revenue',
    'net_revenue',
    'one_time_products',
    'one_time_products_revenue',
    'subscription_revenue',
    'customers',
    'renewed',
    'new_revenue',
    'irregular',
  ],
  subscriptions: [
    'starts',
    'starts_mrr',
    'ends',
    'ends_mrr',
    'churned',
    'churned_mrr',
    'new_mrr',
    'expansion_mrr',
    'contraction_mrr',
    'trial_starts',
    'trial_overs',
    'trial_conversions',
    'trials_decided',
    'irregular',
  ],
  checkouts: ['checkouts', 'succeeded'],
};

/** j = 0..24: a day period holding an hour started at most 24 hours before it (a 25-hour day too). */
const J = Array.from({ length: 25 }, (_, j) => j);
const PAID = sql`('paid', 'refunded', 'partially_refunded')`;
const HOUR = sql`interval '1 hour'`;
const hourOf = (at: RawBuilder<unknown>) => sql`date_trunc('hour', ${at}, 'UTC')`;
/** Whole hours from `from` up to `to`, rounded up, within 0..25 (an instant in the same hour or later: 0). */
const hoursUp = (to: RawBuilder<unknown>, from: RawBuilder<unknown>) =>
  sql`least(25, greatest(0, ceil(extract(epoch FROM ${to} - ${from}) / 3600)))::int`;
const array = (element: (j: number) => RawBuilder<unknown>, from = 0) =>
  sql`ARRAY[${sql.join(J.map((j) => element(j + from)))}]::bigint[]`;
const mrrOf = (amount: string, recurringInterval: string) =>
  sql`CASE WHEN ${sql.ref(recurringInterval)} = 'year' THEN round(${sql.ref(amount)} / 12.0) ELSE ${sql.ref(amount)} END`;

/**
 * The orders part of the hours in `hours` (a relation of `organization_id, h`). Each order is graded by
 * how many hours before its own hour a period must start for it to be its customer's first order in the
 * period (d_c: 0 when the customer ordered earlier in the same hour, 25 when not in the 24 hours before),
 * and the same for its subscription (d_s) and its subscription's start (d_st). The orders of the 24 hours
 * before each hour are read for the previous orders; an earlier one counts as none.
 */
function orderHours(hours: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    WITH hs AS (${hours}),
    needed AS (
      SELECT DISTINCT hs.organization_id, hs.h - i * ${HOUR} AS h FROM hs, generate_series(0, 24) i
    ),
    scanned AS (
      SELECT o.organization_id, o.created_at, ${hourOf(sql`o.created_at`)} AS h, o.net_amount, o.refunded_amount,
             o.customer_id, o.subscription_id, s.started_at IS NOT NULL AS started,
             coalesce(s.trial_end, s.started_at) AS st,
             lag(o.created_at) OVER (PARTITION BY o.organization_id, o.customer_id ORDER BY o.created_at, o.id) AS prev_c,
             lag(o.created_at) OVER (PARTITION BY o.organization_id, o.subscription_id ORDER BY o.created_at, o.id)
               AS prev_s
      FROM needed n
      -- Each hour's orders by the index on (organization_id, created_at): joined on the range instead (or
      -- with the subquery pulled up, which OFFSET 0 prevents), the planner compared every order with
      -- every hour (minutes for a year of a million orders).
      CROSS JOIN LATERAL (
        SELECT o.* FROM orders o
        WHERE o.organization_id = n.organization_id AND o.created_at >= n.h AND o.created_at < n.h + ${HOUR}
          AND o.status IN ${PAID}
        OFFSET 0
      ) o
      LEFT JOIN subscriptions s ON s.id = o.subscription_id
    ),
    graded AS (
      SELECT sc.*,
             CASE WHEN sc.customer_id IS NULL THEN 0 WHEN sc.prev_c IS NULL THEN 25
                  ELSE ${hoursUp(sql`sc.h`, sql`sc.prev_c`)} END AS d_c,
             CASE WHEN sc.prev_s IS NULL THEN 25 ELSE ${hoursUp(sql`sc.h`, sql`sc.prev_s`)} END AS d_s,
             ${hoursUp(sql`sc.h`, sql`sc.st`)} AS d_st,
             sc.subscription_id IS NOT NULL AND sc.started AND sc.st < sc.h + ${HOUR} AS regular_subscription
      FROM scanned sc
      JOIN hs ON hs.organization_id = sc.organization_id AND hs.h = sc.h
    )
    SELECT organization_id, h AS hour,
           count(*) AS orders,
           sum(net_amount) AS revenue,
           sum(net_amount - refunded_amount) AS net_revenue,
           count(*) FILTER (WHERE subscription_id IS NULL) AS one_time_products,
           coalesce(sum(net_amount) FILTER (WHERE subscription_id IS NULL), 0) AS one_time_products_revenue,
           coalesce(sum(net_amount) FILTER (WHERE subscription_id IS NOT NULL AND started), 0) AS subscription_revenue,
           ${array((j) => sql`count(*) FILTER (WHERE d_c > ${sql.lit(j)})`)} AS customers,
           ${array((j) => sql`count(*) FILTER (WHERE regular_subscription AND least(d_s, d_st) > ${sql.lit(j)})`)} AS renewed,
           ${array((j) => sql`coalesce(sum(net_amount) FILTER (WHERE regular_subscription AND d_st <= ${sql.lit(j)}), 0)`)}
             AS new_revenue,
           count(*) FILTER (WHERE subscription_id IS NOT NULL AND started AND NOT regular_subscription) AS irregular
    FROM graded
    GROUP BY organization_id, h`;
}

/**
 * The subscriptions part: for each counted subscription, +1 and its MRR at its start and at its end
 * (never before the start), its churn at `ended_at`, its amount changes, and every trial's start and
 * end (docs/metrics.md, Definitions and trials).
 */
function subscriptionHours(hours: RawBuilder<unknown>): RawBuilder<unknown> {
  const zero = array(() => sql`0`);
  return sql`
    WITH hs AS (${hours}),
    orgs AS (SELECT DISTINCT organization_id FROM hs),
    first_changes AS (
      SELECT DISTINCT ON (ch.subscription_id) ch.subscription_id,
             ${mrrOf('ch.previous_amount', 'ch.previous_interval')} AS mrr
      FROM subscription_amount_changes ch
      JOIN orgs ON orgs.organization_id = ch.organization_id
      ORDER BY ch.subscription_id, ch.changed_at, ch.seq
    ),
    counted AS (
      SELECT s.id, s.organization_id, coalesce(s.trial_end, s.started_at) AS st, s.ended_at,
             ${mrrOf('s.amount', 's.recurring_interval')} AS mrr,
             coalesce(fc.mrr, ${mrrOf('s.amount', 's.recurring_interval')}) AS initial_mrr
      FROM subscriptions s
      JOIN orgs ON orgs.organization_id = s.organization_id
      LEFT JOIN first_changes fc ON fc.subscription_id = s.id
      WHERE s.started_at IS NOT NULL
        AND s.status <> 'trialing'
        AND (s.trial_end IS NULL OR s.ended_at IS NULL OR s.ended_at > s.trial_end)
    ),
    events AS (
      SELECT organization_id, ${hourOf(sql`st`)} AS h, 1 AS starts, mrr AS starts_mrr, 0 AS ends, 0 AS ends_mrr,
             0 AS churned, ${zero} AS churned_mrr,
             ${array(
               (k) => sql`CASE WHEN ended_at IS NULL OR ended_at >= ${hourOf(sql`st`)} + ${sql.lit(k)} * ${HOUR}
                                    THEN initial_mrr ELSE 0 END`,
               1,
             )} AS new_mrr,
             0 AS expansion_mrr, 0 AS contraction_mrr, 0 AS trial_starts, 0 AS trial_overs, 0 AS trial_conversions,
             0 AS trials_decided, (ended_at IS NOT NULL AND ended_at < ${hourOf(sql`st`)})::int AS irregular
      FROM counted
      UNION ALL
      SELECT organization_id, ${hourOf(sql`greatest(st, ended_at)`)}, 0, 0, 1, mrr, 0, ${zero}, ${zero}, 0, 0, 0, 0, 0, 0, 0
      FROM counted WHERE ended_at IS NOT NULL
      UNION ALL
      SELECT organization_id, ${hourOf(sql`ended_at`)}, 0, 0, 0, 0, 1,
             ${array((j) => sql`CASE WHEN st < ${hourOf(sql`ended_at`)} - ${sql.lit(j)} * ${HOUR} THEN mrr ELSE 0 END`)},
             ${zero}, 0, 0, 0, 0, 0, 0, (ended_at < ${hourOf(sql`st`)})::int
      FROM counted WHERE ended_at IS NOT NULL
      UNION ALL
      SELECT c.organization_id, ${hourOf(sql`ch.changed_at`)}, 0, 0, 0, 0, 0, ${zero}, ${zero},
             greatest(d.delta, 0), greatest(-d.delta, 0), 0, 0, 0, 0,
             (c.st >= ${hourOf(sql`ch.changed_at`)} + ${HOUR} OR coalesce(c.ended_at < ${hourOf(sql`ch.changed_at`)}, false))::int
      FROM counted c
      JOIN subscription_amount_changes ch ON ch.subscription_id = c.id,
      LATERAL (SELECT ${mrrOf('ch.amount', 'ch.recurring_interval')}
                      - ${mrrOf('ch.previous_amount', 'ch.previous_interval')} AS delta) d
      UNION ALL
      SELECT t.organization_id, ${hourOf(sql`t.trial_start`)}, 0, 0, 0, 0, 0, ${zero}, ${zero}, 0, 0, 1, 0, 0, 0, 0
      FROM subscriptions t JOIN orgs ON orgs.organization_id = t.organization_id
      WHERE t.trial_start IS NOT NULL AND t.trial_end IS NOT NULL
      UNION ALL
      SELECT t.organization_id,
             ${hourOf(sql`greatest(t.trial_start, least(t.trial_end, coalesce(t.ended_at, t.trial_end)))`)},
             0, 0, 0, 0, 0, ${zero}, ${zero}, 0, 0, 0, 1,
             (t.status <> 'trialing' AND (t.ended_at IS NULL OR t.ended_at > t.trial_end))::int,
             (t.status <> 'trialing')::int, 0
      FROM subscriptions t JOIN orgs ON orgs.organization_id = t.organization_id
      WHERE t.trial_start IS NOT NULL AND t.trial_end IS NOT NULL
    ),
    wanted AS (
      SELECT e.* FROM events e JOIN hs ON hs.organization_id = e.organization_id AND hs.h = e.h
    )
    SELECT organization_id, h AS hour, sum(starts) AS starts, sum(starts_mrr) AS starts_mrr, sum(ends) AS ends,
           sum(ends_mrr) AS ends_mrr, sum(churned) AS churned,
           ${array((j) => sql`sum(churned_mrr[${sql.lit(j + 1)}])`)} AS churned_mrr,
           ${array((j) => sql`sum(new_mrr[${sql.lit(j + 1)}])`)} AS new_mrr,
           sum(expansion_mrr) AS expansion_mrr, sum(contraction_mrr) AS contraction_mrr,
           sum(trial_starts) AS trial_starts, sum(trial_overs) AS trial_overs,
           sum(trial_conversions) AS trial_conversions, sum(trials_decided) AS trials_decided,
           sum(irregular) AS irregular
    FROM wanted
    GROUP BY organization_id, h`;
}

function checkoutHours(hours: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    WITH hs AS (${hours})
    SELECT hs.organization_id, hs.h AS hour, c.checkouts, c.succeeded
    FROM hs
    CROSS JOIN LATERAL (
      SELECT count(*) AS checkouts, count(*) FILTER (WHERE c.status = 'succeeded') AS succeeded
      FROM checkouts c
      WHERE c.organization_id = hs.organization_id AND c.created_at >= hs.h AND c.created_at < hs.h + ${HOUR}
    ) c
    WHERE c.checkouts > 0`;
}

/** The statement computing one part's rows for the hours of `hours` (`organization_id, h`). */
export function hoursOf(part: HoursPart, hours: RawBuilder<unknown>): RawBuilder<unknown> {
  switch (part) {
    case 'orders':
      return orderHours(hours);
    case 'subscriptions':
      return subscriptionHours(hours);
    case 'checkouts':
      return checkoutHours(hours);
  }
}

/**
 * The stale hours of a part for these organizations, before `until` (a relation of `organization_id, h`):
 * the marks' ranges merged first (one purchase marks 25 hours; a bulk load a million marks).
 */
export function staleHours(part: HoursPart, organizationIds: string[], until: RawBuilder<unknown>) {
  return sql`
    SELECT r.organization_id, g AS h
    FROM (
      SELECT m.organization_id, unnest(range_agg(tstzrange(m.from_hour, least(m.to_hour, ${until})))) AS hours
      FROM metrics_stale_hours m
      WHERE m.organization_id IN (${sql.join(organizationIds)}) AND m.part = ${part} AND m.from_hour < ${until}
      GROUP BY m.organization_id
    ) r,
    generate_series(lower(r.hours), upper(r.hours) - ${HOUR}, ${HOUR}) g`;
}

/**
 * A part's rows for these organizations before `until`: the stored hours not marked stale, and the stale
 * ones computed now from the base tables. `stale: false` (the caller saw no mark of the part in the same
 * snapshot) reads the stored hours only.
 */
export function currentHours(part: HoursPart, organizationIds: string[], until: RawBuilder<unknown>, stale = true) {
  const table = sql.table(HOURS_TABLES[part]);
  const marked = sql.table(`stale_${part}`);
  const columns = (alias: string) =>
    sql.join(['organization_id', 'hour', ...HOURS_COLUMNS[part]].map((c) => sql.ref(`${alias}.${c}`)));
  if (!stale) {
    return sql`
      SELECT ${columns('t')} FROM ${table} t
      WHERE t.organization_id IN (${sql.join(organizationIds)}) AND t.hour < ${until}`;
  }
  return sql`
    WITH ${marked} AS (${staleHours(part, organizationIds, until)})
    SELECT ${columns('t')}
    FROM ${table} t
    LEFT JOIN ${marked} s ON s.organization_id = t.organization_id AND s.h = t.hour
    WHERE t.organization_id IN (${sql.join(organizationIds)}) AND t.hour < ${until} AND s.h IS NULL
    UNION ALL
    SELECT ${columns('fresh')} FROM (${hoursOf(part, sql`SELECT organization_id, h FROM ${marked}`)}) fresh`;
}

/** The parts with stale hours before `until` for these organizations. */
export async function staleParts(
  db: Executor,
  organizationIds: string[],
  until: RawBuilder<unknown>,
): Promise<Set<HoursPart>> {
  const result = await sql<{ part: HoursPart }>`
    SELECT DISTINCT part FROM metrics_stale_hours
    WHERE organization_id IN (${sql.join(organizationIds)}) AND from_hour < ${until}`.execute(db);
  return new Set(result.rows.map((row) => row.part));
}

/**
 * Computes and stores the stale hours of one organization and clears their marks, one statement per
 * part, in the caller's transaction. A statement sees one snapshot: the marks it deletes are those of
 * the writes it computes from, and a write committed after it left its mark for the next run. A
 * transaction-scoped advisory lock per organization keeps two runs from storing hours computed from
 * different moments in the wrong order (a statement after the lock sees everything committed before).
 * Returns the marks cleared.
 */
export async function foldStaleHours(tx: Executor, organizationId: string): Promise<number> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('metrics_hours'), hashtext(${organizationId}::text))`.execute(tx);
  // The estimates over the stale hours are far above the real rows: JIT compiling would cost seconds.
  await sql`SET LOCAL jit = off`.execute(tx);
  await sql`SET LOCAL work_mem = '64MB'`.execute(tx);
  let folded = 0;
  for (const part of ['orders', 'subscriptions', 'checkouts'] as const) {
    const table = sql.table(HOURS_TABLES[part]);
    const names = ['organization_id', 'hour', ...HOURS_COLUMNS[part]];
    const columns = sql.join(names.map((c) => sql.ref(c)));
    const updates = sql.join(HOURS_COLUMNS[part].map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`));
    const result = await sql<{ marks: number }>`
      WITH taken AS (
        DELETE FROM metrics_stale_hours WHERE organization_id = ${organizationId} AND part = ${part}
        RETURNING from_hour, to_hour
      ),
      fold_hours AS (
        SELECT ${organizationId}::uuid AS organization_id, g AS h
        FROM (SELECT unnest(range_agg(tstzrange(from_hour, to_hour))) AS hours FROM taken) r,
             generate_series(lower(r.hours), upper(r.hours) - ${HOUR}, ${HOUR}) g
      ),
      fresh AS (${hoursOf(part, sql`SELECT organization_id, h FROM fold_hours`)}),
      stored AS (
        INSERT INTO ${table} (${columns})
        SELECT ${columns} FROM fresh
        ON CONFLICT (organization_id, hour) DO UPDATE SET ${updates}
        RETURNING hour
      ),
      emptied AS (
        DELETE FROM ${table} t
        USING fold_hours f
        WHERE t.organization_id = f.organization_id AND t.hour = f.h AND t.hour NOT IN (SELECT hour FROM stored)
      )
      SELECT count(*)::int AS marks FROM taken`.execute(tx);
    folded += result.rows[0]?.marks ?? 0;
  }
  return folded;
}

/** Organizations with stale hours, a few at a time. */
export async function organizationsWithStaleHours(db: Executor, limit: number): Promise<string[]> {
  const result = await sql<{ organization_id: string }>`
    SELECT DISTINCT organization_id FROM metrics_stale_hours LIMIT ${limit}`.execute(db);
  return result.rows.map((row) => row.organization_id);
}
