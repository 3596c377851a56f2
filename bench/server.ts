import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** The server under test: `node apps/api/bin/tessera.js`, built to apps/api/dist. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const API_DIR = join(ROOT, 'apps', 'api');
const BIN = join(API_DIR, 'bin', 'tessera.js');
const BUILT_CLI = join(API_DIR, 'dist', 'cli.js');

/** Every child process started here, so an interrupted run can still stop them. */
const children = new Set<ChildProcess>();

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/**
 * A process's command name and the CPU time (user + system, ms) it has used so far, from Linux's
 * /proc/<pid>/stat (clock ticks of 10 ms); null when it cannot be read (no /proc, or the process ended).
 */
export function processStat(pid: number | string): { command: string; cpuMs: number } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name may hold spaces and brackets: it runs from the first '(' to the last ')'. After it,
  // state is field 3 of stat, utime 14 and stime 15.
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  return { command: stat.slice(stat.indexOf('(') + 1, close), cpuMs: (Number(fields[11]) + Number(fields[12])) * 10 };
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * The bench measures the built server (`bin/tessera.js` would otherwise fall back to tsx). Builds
 * apps/api when its dist is missing or older than its sources (test files aside).
 */
export async function ensureBuilt(): Promise<void> {
  const fresh = existsSync(BUILT_CLI) && statSync(BUILT_CLI).mtimeMs >= newestMtime(join(API_DIR, 'src'));
  if (fresh) return;
  process.stderr.write('apps/api/dist is missing or stale: running `npm run build -w apps/api`\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const child = track(spawn(npm, ['run', 'build', '-w', 'apps/api'], { cwd: ROOT, stdio: 'inherit' }));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode) => resolve(exitCode));
  });
  if (code !== 0) throw new Error(`npm run build -w apps/api failed (exit ${code})`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

export interface ServerEnvOptions {
  /** NODE_ENV of the server. */
  mode: string;
  port: number;
  dataDir: string;
  /** The run's database on a PostgreSQL server; undefined: the embedded database in `dataDir`. */
  databaseUrl?: string;
  /** Generated when not given (a bench that signs links itself passes its own). */
  secret?: string;
  /** Load, not abuse: the API-wide and the built-in rate limits stay finite but out of the way. */
  unlimited?: boolean;
}

/**
 * The environment of a bench server: on 127.0.0.1 at `port`, its own DATA_DIR and SECRET, warnings only,
 * the baseline routes (`/__bench/constant`, `/__bench/select1`, `/__bench/memory`); the caller's
 * DATABASE_URL (the admin server a run database is made on) is never passed on.
 */
export function serverEnv(options: ServerEnvOptions, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: options.mode,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    HOST: '127.0.0.1',
    PORT: String(options.port),
    BASE_URL: `http://127.0.0.1:${options.port}`,
    DATA_DIR: options.dataDir,
    SECRET: options.secret ?? randomBytes(32).toString('base64url'),
    TESSERA_BENCH_ROUTES: '1',
    ...(options.unlimited ? { RATE_LIMIT_API_PER_MINUTE: '100000000', RATE_LIMIT_SCALE: '100000' } : {}),
    ...extra,
  };
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  else delete env.DATABASE_URL;
  return env;
}

export interface ServerDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A uniquely named database on the PostgreSQL server of `adminUrl`, for one run. */
export async function createServerDatabase(adminUrl: string): Promise<ServerDatabase> {
  const name = `tessera_bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

export interface RunningServer {
  baseUrl: string;
  /** The server process's id (its memory is read from /proc by bench:files). */
  pid: number | undefined;
  running(): boolean;
  /** How it exited, e.g. `exit code 1` or `signal SIGKILL`. */
  exitStatus(): string;
  /** The last lines the server wrote (stdout and stderr), for error reports. */
  output(): string;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const OUTPUT_LIMIT = 64 * 1024;

export function startServer(env: NodeJS.ProcessEnv, port: number): RunningServer {
  // BENCH_SERVER_NODE_ARGS: flags for the server's node only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
  // (NODE_OPTIONS refuses --cpu-prof).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = track(
    spawn(process.execPath, [...nodeArgs, BIN, 'serve'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid,
    running: () => child.exitCode === null && child.signalCode === null,
    exitStatus: () =>
      child.signalCode
        ? `signal ${child.signalCode}`
        : child.exitCode === null
          ? 'running'
          : `exit code ${child.exitCode}`,
    output: () => output,
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `/readyz` until it answers 200; fails early if the server exits. */
export async function waitReady(server: RunningServer, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (!server.running()) throw new Error(`the server exited before it was ready\n${server.output()}`);
    try {
      const response = await fetch(`${server.baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server was not ready within ${timeoutMs / 1000} s (last: ${last})\n${server.output()}`);
}

/** Runs `tessera <args>` against the same database as the server and returns its stdout. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: ROOT, env, timeout: 60_000, maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`tessera ${args.join(' ')} failed: ${error.message}\n${stderr}`));
        else resolve(stdout);
      },
    );
    track(child);
  });
}

/** Stops whatever child is still running (SIGTERM, then SIGKILL). */
export async function stopChildren(graceMs = 15_000): Promise<void> {
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), graceMs).unref();
        }),
    ),
  );
}
