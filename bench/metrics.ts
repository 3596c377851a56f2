/**
 * Metrics benchmark: `npm run bench:metrics` on PostgreSQL (`DATABASE_URL=postgres://…`).
 *
 *  1. starts the built server on a fresh database and creates an organization (`tessera org create`);
 *  2. loads, with `INSERT … SELECT generate_series` (no HTTP), BENCH_METRICS_ORDERS orders (default
 *     1,000,000), BENCH_METRICS_SUBSCRIPTIONS subscriptions (100,000) and BENCH_METRICS_CHECKOUTS
 *     checkouts (1,000,000) over 2025, with customers, products, refunds, pending orders, ended
 *     subscriptions and amount changes; then `VACUUM ANALYZE`;
 *     then waits for the server's `metrics.hours` job to store the hours the load marked stale;
 *  3. reads `GET /v1/metrics/` one at a time, BENCH_METRICS_READS times per case after a warm-up: a year
 *     by day in UTC and in Europe/Paris, a year by day for one product, a year by month; and the
 *     `/__bench/select1` baseline (one database round trip through the same server) in the same run.
 * Prints a table and writes bench/results/metrics.json. BENCH_METRICS_KEEP=1 leaves the database;
 * BENCH_METRICS_DATABASE_URL=<that database> reads it again without loading (a token is made for its
 * organization).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  createServerDatabase,
  ensureBuilt,
  freePort,
  ROOT,
  runCli,
  startServer,
  stopChildren,
  waitReady,
  type RunningServer,
  serverEnv,
} from './server.js';

const ORDERS = Number(process.env.BENCH_METRICS_ORDERS ?? 1_000_000);
const SUBSCRIPTIONS = Number(process.env.BENCH_METRICS_SUBSCRIPTIONS ?? 100_000);
const CHECKOUTS = Number(process.env.BENCH_METRICS_CHECKOUTS ?? 1_000_000);
const CUSTOMERS = Number(process.env.BENCH_METRICS_CUSTOMERS ?? 100_000);
const READS = Number(process.env.BENCH_METRICS_READS ?? 100);
const WARMUP = 3;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const ms = (value: number) => Math.round(value * 10) / 10;

/** A version 4 shaped uuid from the md5 of a SQL text expression (the API accepts only those). */
const benchId = (text: string) => `overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid`;

/**
 * The world, in SQL. Ids are md5-derived uuids of a kind and a number, so rows can name each other
 * without lookups. Products 0-3 are one-time, 4-6 monthly, 7 yearly.
 */
function loadStatements(org: string): string[] {
  const id = (kind: string, expr: string) => benchId(`'${kind}' || (${expr})`);
  const YEAR = `timestamptz '2025-01-01 00:00:00+00'`;
  return [
    `SELECT setseed(0.42)`,
    `INSERT INTO products (id, created_at, organization_id, name, recurring_interval)
     SELECT ${id('product', 'i')}, ${YEAR} - interval '1 year', '${org}', 'Product ' || i,
            CASE WHEN i < 4 THEN NULL WHEN i < 7 THEN 'month' ELSE 'year' END
     FROM generate_series(0, 7) i`,
    `INSERT INTO product_prices (id, created_at, product_id, position, amount_type, price_currency, price_amount)
     SELECT ${id('price', 'i')}, ${YEAR} - interval '1 year', ${id('product', 'i')}, 0, 'fixed', 'usd', 1000 + i * 500
     FROM generate_series(0, 7) i`,
    `INSERT INTO customers (id, created_at, organization_id, email)
     SELECT ${id('customer', 'i')}, ${YEAR} - interval '1 year', '${org}', 'customer' || i || '@bench.test'
     FROM generate_series(0, ${CUSTOMERS - 1}) i`,
    // Subscriptions started from mid-2024 to the end of 2025; a third ended some days later.
    `INSERT INTO subscriptions (id, created_at, organization_id, customer_id, product_id, amount, currency,
                                recurring_interval, status, current_period_start, anchor_day, started_at, ended_at)
     SELECT ${id('subscription', 's.i')}, s.started_at, '${org}', ${id('customer', `s.i % ${CUSTOMERS}`)},
            ${id('product', 's.p')}, 1000 + s.p * 500, 'usd', CASE WHEN s.p = 7 THEN 'year' ELSE 'month' END,
            CASE WHEN s.ended_at IS NULL THEN 'active' ELSE 'canceled' END, s.started_at, 1, s.started_at, s.ended_at
     FROM (
       SELECT i, p, started_at, CASE WHEN r < 0.33 THEN started_at + d * interval '300 days' END AS ended_at
       FROM (
         SELECT i, 4 + (i % 4) AS p,
                ${YEAR} - interval '180 days' + random() * interval '545 days' AS started_at,
                random() AS r, random() AS d
         FROM generate_series(0, ${SUBSCRIPTIONS - 1}) i
       ) s0
     ) s`,
    `INSERT INTO subscription_amount_changes (id, subscription_id, organization_id, changed_at, previous_amount,
                                              previous_interval, amount, recurring_interval)
     SELECT ${id('change', 'i')}, s.id, s.organization_id, s.started_at + interval '20 days', s.amount - 500,
            s.recurring_interval, s.amount, s.recurring_interval
     FROM generate_series(0, ${Math.floor(SUBSCRIPTIONS / 10) - 1}) i
     JOIN subscriptions s ON s.id = ${id('subscription', 'i * 10')}
     -- A change is made while the subscription runs (one ended before could not change).
     WHERE s.ended_at IS NULL OR s.ended_at > s.started_at + interval '20 days'`,
    // Orders: one per subscription at its start, renewals month after month, the rest one-time
    // purchases over the year; 2% pending, 3% refunded in full or in part.
    `INSERT INTO orders (id, created_at, organization_id, customer_id, product_id, subscription_id, status,
                         billing_reason, currency, subtotal_amount, discount_amount, net_amount, tax_amount,
                         total_amount, refunded_amount, invoice_number)
     SELECT ${id('order', 'o.i')}, o.created_at, '${org}', o.customer_id, o.product_id, o.subscription_id,
            CASE WHEN o.r < 0.02 THEN 'pending' WHEN o.r < 0.035 THEN 'refunded'
                 WHEN o.r < 0.05 THEN 'partially_refunded' ELSE 'paid' END,
            o.reason, 'usd', o.amount, 0, o.amount, 0, o.amount,
            CASE WHEN o.r >= 0.02 AND o.r < 0.035 THEN o.amount WHEN o.r >= 0.035 AND o.r < 0.05 THEN o.amount / 2
                 ELSE 0 END,
            'BENCH-' || o.i
     FROM (
       SELECT g.i, random() AS r,
              CASE WHEN g.i < ${SUBSCRIPTIONS * 6} THEN s.started_at + (g.i / ${SUBSCRIPTIONS}) * interval '1 month'
                   ELSE ${YEAR} + random() * interval '365 days' END AS created_at,
              CASE WHEN g.i < ${SUBSCRIPTIONS * 6} THEN s.customer_id
                   ELSE ${id('customer', `g.i % ${CUSTOMERS}`)} END AS customer_id,
              CASE WHEN g.i < ${SUBSCRIPTIONS * 6} THEN s.product_id ELSE ${id('product', 'g.i % 4')} END AS product_id,
              s.id AS subscription_id,
              CASE WHEN g.i < ${SUBSCRIPTIONS} THEN 'subscription_create'
                   WHEN g.i < ${SUBSCRIPTIONS * 6} THEN 'subscription_cycle' ELSE 'purchase' END AS reason,
              CASE WHEN g.i < ${SUBSCRIPTIONS * 6} THEN s.amount ELSE 1000 + (g.i % 4) * 500 END AS amount
       FROM generate_series(0, ${ORDERS - 1}) g(i)
       LEFT JOIN subscriptions s
         ON g.i < ${SUBSCRIPTIONS * 6} AND s.id = ${id('subscription', `g.i % ${SUBSCRIPTIONS}`)}
     ) o`,
    `INSERT INTO checkouts (id, created_at, organization_id, client_secret, status, expires_at, product_id,
                            product_price_id, amount, currency, allow_discount_codes, require_billing_address,
                            is_business_customer, customer_id)
     SELECT ${id('checkout', 'c.i')}, c.created_at, '${org}', 'cs_bench_' || c.i,
            CASE WHEN c.r < 0.3 THEN 'succeeded' WHEN c.r < 0.35 THEN 'failed' WHEN c.r < 0.9 THEN 'expired'
                 ELSE 'open' END,
            c.created_at + interval '1 hour', ${id('product', 'c.p')}, ${id('price', 'c.p')}, 1000 + c.p * 500,
            'usd', true, false, false, ${id('customer', `c.i % ${CUSTOMERS}`)}
     FROM (
       SELECT i, i % 8 AS p, random() AS r, ${YEAR} + random() * interval '365 days' AS created_at
       FROM generate_series(0, ${CHECKOUTS - 1}) i
     ) c`,
  ];
}

/** The kept database's organization and a new token for it (BENCH_METRICS_DATABASE_URL). */
async function tokenForKeptOrganization(client: pg.Client, env: NodeJS.ProcessEnv) {
  const organization = (await client.query<{ slug: string }>('SELECT slug FROM organizations LIMIT 1')).rows[0]!;
  const output = await runCli(['token', 'create', '--org', organization.slug, '--json'], env);
  return JSON.parse(output.trim().split('\n').pop()!) as { access_token: string };
}

/** Creates the organization, loads the world, vacuums, and waits for the hours to be stored. */
async function loadWorld(client: pg.Client, env: NodeJS.ProcessEnv, results: Record<string, unknown>) {
  const created = JSON.parse(
    (
      await runCli(
        ['org', 'create', '--name', 'Metrics', '--slug', `metrics-${randomBytes(3).toString('hex')}`, '--json'],
        env,
      )
    )
      .trim()
      .split('\n')
      .pop()!,
  ) as { organization: { id: string }; access_token: string };
  const org = created.organization.id;

  let started = performance.now();
  for (const statement of loadStatements(org)) await client.query(statement);
  results.load_s = ms((performance.now() - started) / 1000);
  started = performance.now();
  for (const table of [
    'products',
    'customers',
    'subscriptions',
    'subscription_amount_changes',
    'orders',
    'checkouts',
  ]) {
    await client.query(`VACUUM ANALYZE ${table}`);
  }
  results.vacuum_s = ms((performance.now() - started) / 1000);
  process.stderr.write(`loaded in ${String(results.load_s)} s, vacuumed in ${String(results.vacuum_s)} s\n`);
  // The load's writes marked their hours stale; the server's metrics.hours job (every 15 s) stores them.
  // Reads are exact meanwhile (they compute stale hours themselves), only slower: wait for the job.
  started = performance.now();
  for (;;) {
    const stale = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM metrics_stale_hours');
    if (stale.rows[0]!.n === 0) break;
    if (performance.now() - started > 30 * 60_000) throw new Error('metrics.hours did not fold the load in 30 min');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  results.fold_s = ms((performance.now() - started) / 1000);
  // As autovacuum would: the job's deletes left the marks table's pages and index entries behind.
  for (const table of [
    'metrics_stale_hours',
    'metrics_order_hours',
    'metrics_subscription_hours',
    'metrics_checkout_totals',
  ]) {
    await client.query(`VACUUM ANALYZE ${table}`);
  }
  process.stderr.write(`hours stored by the job in ${String(results.fold_s)} s\n`);

  return created;
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('bench:metrics measures PostgreSQL: set DATABASE_URL=postgres://…');
  if (process.env.BENCH_NO_BUILD !== '1') await ensureBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-metrics-'));
  const reused = process.env.BENCH_METRICS_DATABASE_URL;
  const database = reused ? { url: reused, drop: async () => undefined } : await createServerDatabase(adminUrl);
  const port = await freePort();
  const env = serverEnv({ mode: 'production', port, dataDir, databaseUrl: database.url, unlimited: true });
  const server: RunningServer = startServer(env, port);
  const client = new pg.Client({ connectionString: database.url });
  const results: Record<string, unknown> = {
    database: 'PostgreSQL',
    node: process.version,
    orders: ORDERS,
    subscriptions: SUBSCRIPTIONS,
    checkouts: CHECKOUTS,
    reads: READS,
  };
  try {
    await waitReady(server, 180_000);
    await client.connect();
    const created = reused ? await tokenForKeptOrganization(client, env) : await loadWorld(client, env, results);
    const get = async (path: string, auth = true) => {
      const response = await fetch(`${server.baseUrl}${path}`, {
        headers: auth ? { authorization: `Bearer ${created.access_token}` } : {},
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${text.slice(0, 500)}`);
      return text;
    };
    const product = (await client.query<{ id: string }>(`SELECT ${benchId(`'product4'`)} AS id`)).rows[0]!.id;
    const year = 'start_date=2025-01-01&end_date=2025-12-31';
    const cases: [string, string][] = [
      ['select1 (baseline)', '/__bench/select1'],
      ['year by day, UTC', `/v1/metrics/?${year}&interval=day`],
      ['year by day, Europe/Paris', `/v1/metrics/?${year}&interval=day&timezone=Europe/Paris`],
      ['year by day, one product', `/v1/metrics/?${year}&interval=day&product_id=${product}`],
      ['year by month, UTC', `/v1/metrics/?${year}&interval=month`],
    ];
    const table: Record<string, unknown>[] = [];
    let baseline = NaN;
    for (const [name, path] of cases) {
      for (let i = 0; i < WARMUP; i++) await get(path, !path.startsWith('/__bench'));
      const times: number[] = [];
      for (let i = 0; i < READS; i++) {
        const t0 = performance.now();
        await get(path, !path.startsWith('/__bench'));
        times.push(performance.now() - t0);
      }
      const p50 = percentile(times, 50);
      if (Number.isNaN(baseline)) baseline = p50;
      table.push({
        case: name,
        'p50 ms': ms(p50),
        'p99 ms': ms(percentile(times, 99)),
        'max ms': ms(Math.max(...times)),
        'p50 vs select1': `${ms(p50 / baseline)}x`,
      });
    }
    const sample = JSON.parse(await get(`/v1/metrics/?${year}&interval=year`)) as { totals: Record<string, number> };
    results.year_totals = sample.totals;
    results.cases = table;
    console.table(table);
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench/results/metrics.json'), JSON.stringify(results, null, 2) + '\n');
    process.stdout.write(JSON.stringify(results, null, 2) + '\n');
  } finally {
    await client.end().catch(() => undefined);
    await server.stop();
    await stopChildren();
    if (process.env.BENCH_METRICS_KEEP === '1') process.stderr.write(`database kept: ${database.url}\n`);
    else await database.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
