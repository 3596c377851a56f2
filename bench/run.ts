/**
 * `npm run bench`: starts the built server on a fresh database (embedded, or a new database on the
 * PostgreSQL server of DATABASE_URL), loads each scenario with autocannon and prints requests/s and
 * latency, with requests/s as ratios of the baselines measured in the same run. See bench/README.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { baselines, scenarios, type BenchContext, type Method, type Scenario, type Step } from './scenarios.js';
import {
  createServerDatabase,
  ensureBuilt,
  freePort,
  processStat,
  ROOT,
  runCli,
  startServer,
  stopChildren,
  waitReady,
  type RunningServer,
  serverEnv,
} from './server.js';

const RESULTS_DIR = join(ROOT, 'bench', 'results');

/** `production` (the default: what a deployment runs) or `development` (response validation on). */
type Mode = 'production' | 'development';

/** `--dev` or BENCH_DEV=1: a second pass in development mode, shown as a second column. */
const withDevPass = process.argv.includes('--dev') || process.env.BENCH_DEV === '1';

/**
 * BENCH_ONLY=a,b: only these scenarios (the baselines always run, for the ratios), named as the table
 * shows them or without their note in brackets (`checkouts.purchase` for `checkouts.purchase (4 requests)`).
 */
const only = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
const namesOf = (name: string) => [name, name.replace(/ \(.*\)$/, '')];
const chosenByOnly = (name: string) => namesOf(name).some((known) => only.includes(known));
const unknown = only.filter((wanted) => !scenarios.some((scenario) => namesOf(scenario.name).includes(wanted)));
if (unknown.length > 0) {
  throw new Error(
    `BENCH_ONLY: no scenario ${unknown.join(', ')} (there are ${scenarios.map((s) => s.name).join(', ')})`,
  );
}

function positiveNumber(name: string, fallback: number, integer: boolean): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value)))
    throw new Error(`${name} must be a positive ${integer ? 'integer' : 'number'}, got "${raw}"`);
  return value;
}

interface ScenarioResult {
  name: string;
  method: Method;
  path: string;
  requests: number;
  durationSeconds: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number; mean: number; max: number };
  /**
   * The server process's CPU time (user and system, all its threads) during the measured run, per
   * request: unlike requests/s, not moved by what else the machine is doing. Null where /proc is not.
   */
  serverCpuMsPerRequest: number | null;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  vsSelect1: number | null;
  vsConstant: number | null;
  /** The same scenario in the development-mode pass (`--dev`), else null. */
  development: { requestsPerSecond: number; latencyMs: { p50: number; p99: number }; vsSelect1: number | null } | null;
}

// --- cleanup, also on SIGINT/SIGTERM ---------------------------------------------------------------

const cleanups: (() => Promise<void> | void)[] = [];
let cleaning: Promise<void> | undefined;
let interrupted = false;
let current: autocannon.Instance | undefined;

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    current?.stop();
    for (const step of cleanups.reverse()) {
      try {
        await step();
      } catch (error) {
        process.stderr.write(`cleanup: ${(error as Error).message}\n`);
      }
    }
    await stopChildren();
  })();
  return cleaning;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    process.stderr.write(`\n${signal}: stopping the server and cleaning up\n`);
    void cleanup().finally(() => process.exit(130));
  });
}

function checkInterrupted(): void {
  if (interrupted) throw new Error('interrupted');
}

// --- load ------------------------------------------------------------------------------------------

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

interface Load {
  result: autocannon.Result;
  latencies: Float64Array;
}

/** One autocannon run; latencies are collected from every response (ms, sub-millisecond precision). */
function load(options: autocannon.Options): Promise<Load> {
  checkInterrupted();
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const instance = autocannon(options, (error, result) => {
      current = undefined;
      if (error) return reject(error instanceof Error ? error : new Error(String(error)));
      resolve({ result, latencies: Float64Array.from(latencies).sort() });
    });
    current = instance;
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      latencies.push(responseTime);
    });
  });
}

function singleRequest(scenario: Scenario, ctx: BenchContext): autocannon.Request {
  const headers: Record<string, string> = { ...scenario.headers?.(ctx) };
  let seq = 0;
  const request: autocannon.Request = { method: scenario.method, path: scenario.path(ctx), headers };
  const makeBody = scenario.body;
  if (makeBody) {
    headers['content-type'] = 'application/json';
    request.setupRequest = (req) => ({ ...req, body: JSON.stringify(makeBody(ctx, ++seq)) });
  }
  return request;
}

/** Autocannon runs the steps in order per connection; `context` is that connection's state. */
function stepRequests(steps: Step[], ctx: BenchContext): autocannon.Request[] {
  let seq = 0;
  return steps.map((step) => ({
    method: step.method,
    setupRequest: (req: autocannon.Request, context: Record<string, string>) => {
      const body = step.body?.(ctx, ++seq, context);
      // The path first: it may set the connection's state that the headers read (organizations.update).
      const path = step.path(ctx, context);
      return {
        ...req,
        path,
        headers: {
          ...step.headers?.(ctx, context),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      };
    },
    ...(step.capture
      ? {
          onResponse: (status: number, body: string, context: Record<string, string>) => {
            if (status >= 200 && status < 300) step.capture!(JSON.parse(body), context);
          },
        }
      : {}),
  })) as autocannon.Request[];
}

/** CPU time a process has used so far, in ms, or null. */
function processCpuMs(pid: number | undefined): number | null {
  return pid === undefined ? null : (processStat(pid)?.cpuMs ?? null);
}

async function runScenario(
  scenario: Scenario,
  base: Omit<BenchContext, 'data'>,
  options: { duration: number; warmup: number; connections: number; serverPid: number | undefined },
): Promise<ScenarioResult> {
  const ctx: BenchContext = { ...base, data: {} };
  if (scenario.setup) ctx.data = await scenario.setup(ctx);
  const path = scenario.steps ? `${scenario.steps.length} steps` : scenario.path(ctx);
  const requests = scenario.steps ? stepRequests(scenario.steps, ctx) : [singleRequest(scenario, ctx)];
  const common: autocannon.Options = {
    url: base.baseUrl,
    connections: options.connections,
    requests,
    timeout: 10,
  };
  await load({ ...common, duration: options.warmup });
  const cpuBefore = processCpuMs(options.serverPid);
  const { result, latencies } = await load({ ...common, duration: options.duration });
  const cpuAfter = processCpuMs(options.serverPid);
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stats.count ?? 0;
  const sum = latencies.reduce((a, b) => a + b, 0);
  return {
    name: scenario.name,
    method: scenario.method,
    path,
    requests: latencies.length,
    durationSeconds: result.duration,
    requestsPerSecond: result.duration > 0 ? latencies.length / result.duration : 0,
    latencyMs: {
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      mean: latencies.length ? sum / latencies.length : 0,
      max: latencies.length ? latencies[latencies.length - 1]! : 0,
    },
    serverCpuMsPerRequest:
      cpuBefore === null || cpuAfter === null || latencies.length === 0
        ? null
        : (cpuAfter - cpuBefore) / latencies.length,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    vsSelect1: null,
    vsConstant: null,
    development: null,
  };
}

// --- report ----------------------------------------------------------------------------------------

function table(rows: string[][], rightAligned: boolean[]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => (rightAligned[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const [head, ...body] = rows;
  return [line(head!), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

function ratio(value: number | null): string {
  return value === null ? '-' : `${value.toFixed(2)}x`;
}

function report(header: string, results: ScenarioResult[], withDev: boolean): string {
  const devHead = withDev ? ['dev req/s', 'dev p99 ms', 'dev vs select1'] : [];
  const rows = [
    [
      'scenario',
      'req/s',
      'p50 ms',
      'p99 ms',
      'cpu ms/req',
      'non-2xx',
      'errors',
      'vs select1',
      'vs constant',
      ...devHead,
    ],
    ...results.map((r) => [
      r.name,
      r.requestsPerSecond.toFixed(0),
      r.latencyMs.p50.toFixed(2),
      r.latencyMs.p99.toFixed(2),
      r.serverCpuMsPerRequest === null ? '-' : r.serverCpuMsPerRequest.toFixed(3),
      String(r.non2xx),
      String(r.errors),
      ratio(r.vsSelect1),
      ratio(r.vsConstant),
      ...(withDev
        ? r.development
          ? [
              r.development.requestsPerSecond.toFixed(0),
              r.development.latencyMs.p99.toFixed(2),
              ratio(r.development.vsSelect1),
            ]
          : ['-', '-', '-']
        : []),
    ]),
  ];
  return `${header}\n\n${table(rows, [false, ...rows[0]!.slice(1).map(() => true)])}\n`;
}

/** The end of the server's output (its warnings and errors), a few lines, each cut to a readable length. */
function printServerOutput(server: RunningServer, lines = 50, width = 300): void {
  const tail = server.output().trim().split('\n').slice(-lines);
  if (tail.length === 0 || tail[0] === '') return;
  const shown = tail.map((line) => (line.length > width ? `${line.slice(0, width)}...` : line));
  process.stderr.write(`\nserver output (last ${shown.length} lines):\n${shown.join('\n')}\n`);
}

// --- main ------------------------------------------------------------------------------------------

interface Pass {
  mode: Mode;
  /** From spawning `tessera serve` to its first 200 on `/readyz` (database opened and migrated). */
  startupMs: number;
  results: ScenarioResult[];
  serverDied: string | undefined;
}

/** One server (fresh data directory and database) in one mode, every scenario run against it. */
async function runPass(
  mode: Mode,
  options: { duration: number; warmup: number; connections: number; adminUrl: string | undefined },
): Promise<Pass> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));

  let databaseUrl: string | undefined;
  if (options.adminUrl) {
    const database = await createServerDatabase(options.adminUrl);
    cleanups.push(() => database.drop());
    databaseUrl = database.url;
  }
  checkInterrupted();

  const port = await freePort();
  const env = serverEnv(
    { mode, port, dataDir, databaseUrl, unlimited: true },
    {
      // Production mode refuses the simulated card unless allowed explicitly; the purchase scenario uses it.
      ALLOW_SIMULATED_PAYMENTS: 'true',
      // The webhook scenario's endpoint is on loopback, which production mode refuses unless allowed.
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
    },
  );

  const spawned = performance.now();
  const server: RunningServer = startServer(env, port);
  cleanups.push(() => server.stop());
  try {
    // Generous: a fresh embedded database is created and migrated first, slow on a busy machine.
    await waitReady(server, 180_000);
    const startupMs = performance.now() - spawned;
    checkInterrupted();
    process.stderr.write(`${mode}: ready in ${(startupMs / 1000).toFixed(2)} s\n`);

    const createOrganization = async () => {
      const slug = `bench-${randomBytes(4).toString('hex')}`;
      const stdout = await runCli(['org', 'create', '--name', 'Bench', '--slug', slug, '--json'], env);
      const created = JSON.parse(stdout.trim().split('\n').pop() ?? '') as {
        organization: { id: string };
        access_token: string;
      };
      return { organizationId: created.organization.id, token: created.access_token };
    };
    const created = await createOrganization();
    const base: Omit<BenchContext, 'data'> = {
      baseUrl: server.baseUrl,
      organizationId: created.organizationId,
      token: created.token,
      connections: options.connections,
      createOrganization,
      async request(method, path, body) {
        const response = await fetch(`${server.baseUrl}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${created.token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
        return text ? (JSON.parse(text) as unknown) : undefined;
      },
    };

    const results: ScenarioResult[] = [];
    let serverDied: string | undefined;
    const chosen = only.length === 0 ? scenarios : scenarios.filter((s) => chosenByOnly(s.name));
    for (const scenario of [...baselines, ...chosen]) {
      process.stderr.write(`  ${mode}: ${scenario.name}...\n`);
      results.push(await runScenario(scenario, base, { ...options, serverPid: server.pid }));
      if (!server.running()) {
        serverDied = scenario.name;
        break;
      }
    }
    const select1 = results.find((r) => r.name === 'select1')?.requestsPerSecond;
    const constant = results.find((r) => r.name === 'constant')?.requestsPerSecond;
    for (const r of results) {
      r.vsSelect1 = select1 ? r.requestsPerSecond / select1 : null;
      r.vsConstant = constant ? r.requestsPerSecond / constant : null;
    }
    const failed = results.filter((r) => r.non2xx > 0 || r.errors > 0);
    if (failed.length > 0 || serverDied) {
      if (serverDied) {
        process.stderr.write(
          `\n${mode}: the server exited (${server.exitStatus()}) during ${serverDied}; later scenarios were not run\n`,
        );
      }
      if (failed.length > 0) {
        const detail = failed.map((r) => `${r.name} (status ${JSON.stringify(r.statusCodes)}, ${r.errors} errors)`);
        process.stderr.write(`\n${mode}: failed: ${detail.join(', ')}\n`);
      }
      printServerOutput(server);
    }
    await server.stop();
    return { mode, startupMs, results, serverDied };
  } catch (error) {
    if (!interrupted) printServerOutput(server);
    throw error;
  }
}

async function main(): Promise<number> {
  const duration = positiveNumber('BENCH_DURATION', 5, false);
  const connections = positiveNumber('BENCH_CONNECTIONS', 10, true);
  const warmup = Math.min(1, duration);
  const adminUrl = process.env.DATABASE_URL || undefined;

  await ensureBuilt();
  checkInterrupted();

  let databaseLabel = 'embedded (PGlite)';
  if (adminUrl) {
    const url = new URL(adminUrl);
    databaseLabel = `PostgreSQL (${url.hostname}:${url.port || '5432'})`;
  }
  const load = loadavg().map((value) => value.toFixed(2));
  const header =
    `Tessera bench: production mode${withDevPass ? ' (dev columns: development mode)' : ''}; ` +
    `database ${databaseLabel}; ${duration} s per scenario after a ${warmup} s warm-up; ` +
    `${connections} connections; node ${process.version}; load average ${load.join(' ')}`;
  process.stderr.write(`${header}\n`);

  const options = { duration, warmup, connections, adminUrl };
  const production = await runPass('production', options);
  const development = withDevPass ? await runPass('development', options) : undefined;
  for (const r of production.results) {
    const dev = development?.results.find((d) => d.name === r.name);
    if (dev)
      r.development = { requestsPerSecond: dev.requestsPerSecond, latencyMs: dev.latencyMs, vsSelect1: dev.vsSelect1 };
  }

  const startup =
    `startup (spawn to /readyz, fresh database): ${(production.startupMs / 1000).toFixed(2)} s` +
    (development ? `; development mode ${(development.startupMs / 1000).toFixed(2)} s` : '');
  process.stdout.write(`\n${report(header, production.results, Boolean(development))}\n${startup}\n`);

  const passes = [production, ...(development ? [development] : [])];
  const ok = passes.every((pass) => !pass.serverDied && pass.results.every((r) => r.non2xx === 0 && r.errors === 0));
  const date = new Date();
  const summary = {
    format: 3,
    date: date.toISOString(),
    mode: 'production',
    database: adminUrl ? 'postgresql' : 'embedded',
    durationSeconds: duration,
    warmupSeconds: warmup,
    connections,
    node: process.version,
    loadAverage: loadavg(),
    ok,
    startupMs: production.startupMs,
    developmentStartupMs: development?.startupMs ?? null,
    serverExitedDuring: production.serverDied ?? development?.serverDied ?? null,
    scenarios: production.results,
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  const json = JSON.stringify(summary, null, 2) + '\n';
  const dated = `${date.toISOString().replace(/[:.]/g, '-')}-${summary.database}.json`;
  writeFileSync(join(RESULTS_DIR, 'latest.json'), json);
  writeFileSync(join(RESULTS_DIR, dated), json);
  process.stdout.write(`\nresults written to bench/results/latest.json and bench/results/${dated}\n`);
  return ok ? 0 : 1;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  if (!interrupted) process.stderr.write(`bench failed: ${(error as Error).stack ?? String(error)}\n`);
} finally {
  await cleanup();
}
process.exit(interrupted ? 130 : exitCode);
