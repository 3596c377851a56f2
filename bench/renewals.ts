/**
 * Renewal benchmark: `npm run bench:renewals` (PostgreSQL: `DATABASE_URL=postgres://… npm run bench:renewals`).
 *
 * Seeds BENCH_RENEWALS (10,000) monthly subscriptions, each of its own customer with a saved card of the
 * simulated processor (one bought through a real checkout, the rest copied from it in SQL), moves the
 * clock past their period end and times one billing run as the worker makes it: every renewal claims its
 * period and creates its cycle order in a transaction of its own, then every charge is made off-session
 * and recorded. Reports subscriptions per second, and the ratio to a baseline measured in the same run
 * on the same database: one single-row UPDATE per transaction, as many transactions as subscriptions
 * (the floor any engine that commits each renewal on its own pays).
 */
import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { sql } from 'kysely';
import type { ManualClock } from '../apps/api/src/platform/clock.js';
import { runSubscriptionBilling } from '../apps/api/src/modules/subscriptions/subscriptions.renewal.js';
import { organizationFactory } from '../apps/api/test/factories/organizations.js';
import { copySubscriptions, subscriptionFactory } from '../apps/api/test/factories/subscriptions.js';
import { startTestServer } from '../apps/api/test/harness.js';
import { processStat } from './server.js';

const COUNT = Number(process.env.BENCH_RENEWALS ?? 10_000);
// BENCH_RENEWALS_HISTORY=0: the copies without the first one's orders and charges (the tables a run
// writes to start nearly empty, as this bench seeded them before 6 December 2026).
const HISTORY = process.env.BENCH_RENEWALS_HISTORY !== '0';
// BENCH_RENEWALS_PROFILE=FILE: a V8 CPU profile of the billing run alone (not the seeding), written to FILE.
const PROFILE = process.env.BENCH_RENEWALS_PROFILE;
if (!Number.isInteger(COUNT) || COUNT < 1) throw new Error('BENCH_RENEWALS must be a positive integer');

/**
 * CPU time (ms, user and system) of each of this machine's PostgreSQL processes, by pid, from /proc: a
 * local server's share of the run, steadier than its wall time on a busy machine. Undefined without a
 * readable /proc (the embedded database runs in this process and is counted there).
 */
function postgresCpuMs(): Map<string, number> | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const byPid = new Map<string, number>();
  for (const pid of entries) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = processStat(pid); // null: ended meanwhile
    if (stat?.command === 'postgres') byPid.set(pid, stat.cpuMs);
  }
  return byPid;
}

/** The CPU the processes of `after` used since `before` (a process that ended meanwhile is not seen). */
function cpuSince(before: Map<string, number>, after: Map<string, number>): number {
  let used = 0;
  for (const [pid, ms] of after) used += ms - (before.get(pid) ?? 0);
  return used;
}

async function main(): Promise<void> {
  // The harness creates (and drops) a fresh database on the server of TEST_DATABASE_URL when set.
  if (process.env.DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.DATABASE_URL;
  const server = await startTestServer({ work: false });
  try {
    const db = server.runtime.database.db;
    const { organization } = await organizationFactory(server, { name: 'Bench' });
    const first = await subscriptionFactory(server, organization.id, { price: 1500 });

    const seeding = performance.now();
    // One customer, one saved card and one subscription (with its price snapshot) per copy, and a copy of
    // the first one's orders, payments and processor charges.
    await copySubscriptions(server, first.id, COUNT - 1, { history: HISTORY });
    await sql`ANALYZE`.execute(db);
    const seededMs = performance.now() - seeding;

    (server.clock as ManualClock).advance(32 * 86_400_000);
    const ctx = server.context();
    const profiler = PROFILE ? new Session() : undefined;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    const databaseCpuBefore = process.env.DATABASE_URL ? postgresCpuMs() : undefined;
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const summary = await runSubscriptionBilling(ctx, ctx.transactions);
    const renewalSeconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const databaseCpuAfter = databaseCpuBefore === undefined ? undefined : postgresCpuMs();
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      await writeFile(PROFILE!, JSON.stringify(profile));
      profiler.disconnect();
    }

    const orders = await db
      .selectFrom('orders')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('total_amount').as('total')])
      .where('billing_reason', '=', 'subscription_cycle')
      .where('status', '=', 'paid')
      .executeTakeFirstOrThrow();
    if (summary.renewals !== COUNT || Number(orders.count) !== COUNT || Number(orders.total) !== COUNT * 1500) {
      throw new Error(
        `expected ${COUNT} paid cycle orders of 1500, got ${summary.renewals} renewals, ` +
          `${orders.count} paid orders totalling ${orders.total}`,
      );
    }

    // Baseline: the same number of transactions, each updating one subscription row.
    const ids = (await db.selectFrom('subscriptions').select('id').execute()).map((row) => row.id);
    const baselineStarted = performance.now();
    for (const id of ids) {
      await db
        .transaction()
        .execute((tx) =>
          tx.updateTable('subscriptions').set({ modified_at: server.clock.now() }).where('id', '=', id).execute(),
        );
    }
    const baselineSeconds = (performance.now() - baselineStarted) / 1000;

    const perSecond = COUNT / renewalSeconds;
    const baselinePerSecond = ids.length / baselineSeconds;
    const database = process.env.DATABASE_URL ? 'postgresql' : 'embedded';
    const rows = [
      ['database', database],
      ['subscriptions renewed and charged', String(COUNT)],
      ['seeding (s)', (seededMs / 1000).toFixed(1)],
      ['billing run (s)', renewalSeconds.toFixed(1)],
      ['subscriptions/s', perSecond.toFixed(1)],
      // This process's CPU (the billing run's JavaScript; the database's own is not counted).
      ['server CPU per renewal (ms)', ((cpu.user + cpu.system) / 1000 / COUNT).toFixed(3)],
      // The local PostgreSQL server's processes (all of them: the run's backends, the WAL writer, ...).
      ...(databaseCpuBefore && databaseCpuAfter?.size
        ? [['database CPU per renewal (ms)', (cpuSince(databaseCpuBefore, databaseCpuAfter) / COUNT).toFixed(3)]]
        : []),
      ['baseline: one-row update transactions/s', baselinePerSecond.toFixed(1)],
      ['subscriptions/s ÷ baseline', (perSecond / baselinePerSecond).toFixed(3)],
    ];
    const width = Math.max(...rows.map(([label]) => label!.length));
    for (const [label, value] of rows) process.stdout.write(`${label!.padEnd(width)}  ${value}\n`);
  } finally {
    await server.stop();
  }
}

await main();
