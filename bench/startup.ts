/**
 * `npm run bench:startup`: how fast `npm start` is ready and how much memory the server holds while idle.
 * Starts `node scripts/start.mjs` (what `npm start` runs, in the same process as the server) on a fresh
 * DATA_DIR (and, with DATABASE_URL, a fresh database on that PostgreSQL server), then restarts it
 * BENCH_STARTUP_RUNS times on the same data with the build current, and reads from /proc the time and the
 * CPU time (which a busy machine hardly changes) to ready, and the server's resident memory 5 s after
 * ready with no request, then after 100 API requests. See bench/README.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIfStale } from '../scripts/build-if-stale.mjs';
import {
  createServerDatabase,
  freePort,
  processStat,
  ROOT,
  runCli,
  stopChildren,
  waitReady,
  type RunningServer,
  serverEnv,
} from './server.js';

const RESULTS_DIR = join(ROOT, 'bench', 'results');
const START_SCRIPT = join(ROOT, 'scripts', 'start.mjs');
const IDLE_MS = 5_000;
const REQUESTS = 100;
/**
 * How long the server then sits idle before its settled memory is read. V8's memory reducer starts about
 * 8 s after the last full collection of a process that stopped allocating, and gives back the young
 * generation the start (or the requests) grew: 30 s leaves it time to run.
 */
const SETTLE_MS = positiveInteger('BENCH_SETTLE_MS', 30_000);

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** Resident memory of a process from /proc, in bytes: the total, its anonymous and its file-backed part. */
interface Rss {
  rss: number;
  anon: number;
  file: number;
}

function rssOf(pid: number): Rss {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kib('VmRSS'), anon: kib('RssAnon'), file: kib('RssFile') + kib('RssShmem') };
}

/**
 * CPU time (user + system) the process has used, in milliseconds: unlike the time to ready, it hardly
 * depends on what else the machine is running. Linux counts it in clock ticks of 10 ms.
 */
function cpuMsOf(pid: number): number {
  const stat = processStat(pid);
  if (!stat) throw new Error(`cannot read /proc/${pid}/stat`);
  return stat.cpuMs;
}

/** The server's own view (heap, external, array buffers), from the bench-only `/__bench/memory` route. */
type MemoryUsage = Record<'rss' | 'heapTotal' | 'heapUsed' | 'external' | 'arrayBuffers', number>;

interface Run {
  readyMs: number;
  /** CPU time the server used from spawn to ready. */
  readyCpuMs: number;
  idle: Rss;
  idleUsage: MemoryUsage | null;
  afterRequests: Rss;
  /** After SETTLE_MS more without a request. */
  settled: Rss;
}

const cleanups: (() => Promise<void> | void)[] = [];
let interrupted = false;

async function cleanup(): Promise<void> {
  for (const step of cleanups.reverse()) {
    try {
      await step();
    } catch (error) {
      process.stderr.write(`cleanup: ${(error as Error).message}\n`);
    }
  }
  cleanups.length = 0;
  await stopChildren();
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    process.stderr.write(`\n${signal}: stopping the server and removing the temporary data\n`);
    void cleanup().finally(() => process.exit(130));
  });
}

/** `node scripts/start.mjs`: the build check, then the server, in one process (its pid is the server's). */
function start(env: NodeJS.ProcessEnv, port: number): RunningServer {
  const child: ChildProcess = spawn(process.execPath, [START_SCRIPT], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-64 * 1024);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const server: RunningServer = {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid,
    running,
    exitStatus: () => (child.signalCode ? `signal ${child.signalCode}` : `exit code ${child.exitCode}`),
    output: () => output,
    async stop(graceMs = 15_000) {
      if (!running()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  cleanups.push(() => server.stop());
  return server;
}

async function startAndWait(
  env: NodeJS.ProcessEnv,
  port: number,
): Promise<{ server: RunningServer; readyMs: number; readyCpuMs: number }> {
  const spawned = performance.now();
  const server = start(env, port);
  await waitReady(server, 180_000);
  return { server, readyMs: performance.now() - spawned, readyCpuMs: cpuMsOf(server.pid!) };
}

async function get(server: RunningServer, path: string, token?: string): Promise<unknown> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function main(): Promise<number> {
  const runs = positiveInteger('BENCH_STARTUP_RUNS', 3);
  const adminUrl = process.env.DATABASE_URL || undefined;
  const mode = process.env.NODE_ENV || 'development';
  // Untimed: what `npm start` would build first, so that every timed start finds the build current.
  buildIfStale(undefined, undefined, (line) => process.stderr.write(`${line}\n`));

  const load = loadavg().map((value) => value.toFixed(2));
  const database = adminUrl ? 'postgresql' : 'embedded';
  const header =
    `Tessera start-up bench: \`node scripts/start.mjs\`, ${mode} mode, database ${database}; ` +
    `${runs} restarts; node ${process.version}; load average ${load.join(' ')}`;
  process.stderr.write(`${header}\n`);

  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-startup-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const runDatabase = adminUrl ? await createServerDatabase(adminUrl) : undefined;
  if (runDatabase) cleanups.push(() => runDatabase.drop());
  const env = serverEnv({ mode, port, dataDir, databaseUrl: runDatabase?.url });

  // The first start creates the database and applies every migration.
  const first = await startAndWait(env, port);
  process.stderr.write(`first start (fresh database): ready in ${(first.readyMs / 1000).toFixed(2)} s\n`);
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const firstIdle = rssOf(first.server.pid!);
  const slug = `startup-${randomBytes(4).toString('hex')}`;
  const stdout = await runCli(['org', 'create', '--name', 'Startup', '--slug', slug, '--json'], env);
  const created = JSON.parse(stdout.trim().split('\n').pop() ?? '') as {
    organization: { id: string };
    access_token: string;
  };
  await first.server.stop();

  const paths = [
    `/v1/organizations/${created.organization.id}`,
    '/v1/products/?limit=10',
    '/v1/customers/?limit=10',
    '/v1/subscriptions/?limit=10',
    '/v1/orders/?limit=10',
  ];
  const results: Run[] = [];
  for (let run = 0; run < runs && !interrupted; run++) {
    const { server, readyMs, readyCpuMs } = await startAndWait(env, port);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const idle = rssOf(server.pid!);
    // Read after the RSS above: the request itself allocates.
    const idleUsage = (await get(server, '/__bench/memory').catch(() => null)) as MemoryUsage | null;
    for (let i = 0; i < REQUESTS; i++) await get(server, paths[i % paths.length]!, created.access_token);
    const afterRequests = rssOf(server.pid!);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const settled = rssOf(server.pid!);
    await server.stop();
    results.push({ readyMs, readyCpuMs, idle, idleUsage, afterRequests, settled });
    process.stderr.write(
      `restart ${run + 1}: ready in ${(readyMs / 1000).toFixed(2)} s (CPU ${(readyCpuMs / 1000).toFixed(2)} s), ` +
        `idle RSS ${mb(idle.rss)} MB, ` +
        `after ${REQUESTS} requests ${mb(afterRequests.rss)} MB, settled ${mb(settled.rss)} MB\n`,
    );
  }

  const usage = results.map((r) => r.idleUsage).filter((u): u is MemoryUsage => u !== null);
  const summary = {
    format: 2,
    date: new Date().toISOString(),
    mode,
    database,
    node: process.version,
    loadAverage: loadavg(),
    firstStart: { readyMs: first.readyMs, readyCpuMs: first.readyCpuMs, idle: firstIdle },
    restarts: results,
    median: {
      readyMs: median(results.map((r) => r.readyMs)),
      readyCpuMs: median(results.map((r) => r.readyCpuMs)),
      idleRss: median(results.map((r) => r.idle.rss)),
      afterRequestsRss: median(results.map((r) => r.afterRequests.rss)),
      settledRss: median(results.map((r) => r.settled.rss)),
    },
  };
  const lines = [
    '',
    header,
    '',
    `first start (fresh database):  ready ${(first.readyMs / 1000).toFixed(2)} s` +
      ` (CPU ${(first.readyCpuMs / 1000).toFixed(2)} s), idle RSS ${mb(firstIdle.rss)} MB`,
    `restart, build current (median of ${results.length}):`,
    `  ready                        ${(summary.median.readyMs / 1000).toFixed(2)} s` +
      ` (CPU ${(summary.median.readyCpuMs / 1000).toFixed(2)} s)`,
    `  RSS idle (ready + 5 s)       ${mb(summary.median.idleRss)} MB` +
      ` (anonymous ${mb(median(results.map((r) => r.idle.anon)))} MB, files ${mb(median(results.map((r) => r.idle.file)))} MB)`,
    ...(usage.length > 0
      ? [
          `  V8 heap used / total         ${mb(median(usage.map((u) => u.heapUsed)))} / ${mb(median(usage.map((u) => u.heapTotal)))} MB` +
            `, external ${mb(median(usage.map((u) => u.external)))} MB (array buffers ${mb(median(usage.map((u) => u.arrayBuffers)))} MB)`,
        ]
      : []),
    `  RSS after ${REQUESTS} requests         ${mb(summary.median.afterRequestsRss)} MB`,
    `  RSS settled (then ${SETTLE_MS / 1000} s idle)   ${mb(summary.median.settledRss)} MB` +
      ` (anonymous ${mb(median(results.map((r) => r.settled.anon)))} MB)`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, `startup-${database}.json`), JSON.stringify(summary, null, 2) + '\n');
  process.stdout.write(`results written to bench/results/startup-${database}.json\n`);
  return 0;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  if (!interrupted) process.stderr.write(`bench failed: ${(error as Error).stack ?? String(error)}\n`);
} finally {
  await cleanup();
}
process.exit(exitCode);
