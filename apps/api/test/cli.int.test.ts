import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../src/paths.js';
import { buildIfStale, TARGETS } from '../../../scripts/build-if-stale.mjs';
import { createServerDatabase, SERVER_TEMPLATE_ENV, type ServerDatabase } from './database-template.js';

/**
 * The `tessera` CLI as a real subprocess, as users run it: the built `dist/cli.js`, rebuilt first when
 * any source changed since the last build (so never stale), which starts in about a third of the time
 * the TypeScript source takes through tsx. Each test gets its own DATA_DIR and, with TEST_DATABASE_URL,
 * its own server database: a fresh one where the test is about a first start, otherwise one as a first
 * start leaves it (migrated; embedded: a copy of a DATA_DIR that `tessera migrate` made once for the file,
 * its secret included; server: a copy of the run's migrated template database).
 */

const CLI = ['apps/api/dist/cli.js'];

beforeAll(() => {
  buildIfStale(TARGETS.filter((target) => target.name === 'api'));
}, 300_000);
const TEST_TIMEOUT = 120_000;
const READY_TIMEOUT_MS = 60_000;
const SHUTDOWN_TIMEOUT_MS = 30_000;

interface CliEnv {
  dataDir: string;
  port: number;
  env: NodeJS.ProcessEnv;
}

interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const children = new Set<ChildProcess>();

function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (!alive(child)) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

async function killAll(): Promise<void> {
  await Promise.all(
    [...children].map(async (child) => {
      if (alive(child)) {
        child.kill('SIGKILL');
        await exited(child);
      }
      children.delete(child);
    }),
  );
}

afterEach(killAll);

function launch(args: string[], cli: CliEnv): ChildProcess {
  const child = spawn(process.execPath, [...CLI, ...args], {
    cwd: REPO_ROOT,
    env: cli.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  return child;
}

function collect(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return { stdout: () => stdout, stderr: () => stderr };
}

/** Runs one CLI command to completion (killed after `timeoutMs`). */
async function runCli(args: string[], cli: CliEnv, timeoutMs = 60_000): Promise<CliResult> {
  const child = launch(args, cli);
  const output = collect(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  // Wait for 'close' so that stdout and stderr are fully read.
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  clearTimeout(timer);
  children.delete(child);
  return { code, signal, stdout: output.stdout(), stderr: output.stderr() };
}

/** Expects exit code 0, with the command's stderr in the failure message. */
function expectSuccess(result: CliResult, what: string): void {
  expect(result.code, `${what} failed:\n${result.stderr}`).toBe(0);
}

interface Served {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

/** Starts `tessera serve` and waits until /readyz answers 200. */
async function serve(cli: CliEnv): Promise<Served> {
  const child = launch(['serve'], cli);
  const output = collect(child);
  const url = `http://127.0.0.1:${cli.port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (!alive(child)) throw new Error(`tessera serve exited with ${child.exitCode}:\n${output.stderr()}`);
    try {
      const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`tessera serve not ready after ${READY_TIMEOUT_MS} ms:\n${output.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { child, url, stderr: output.stderr };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

let migratedTemplate: Promise<string> | undefined;

/** A DATA_DIR that `tessera migrate` has brought up to date, made once for this file (embedded only). */
function migratedDataDir(): Promise<string> {
  migratedTemplate ??= (async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tcli-template-'));
    const result = await runCli(['migrate'], {
      dataDir,
      port: 0,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, NODE_ENV: 'test', LOG_LEVEL: 'warn' },
    });
    expectSuccess(result, 'migrate (the template DATA_DIR)');
    return dataDir;
  })();
  return migratedTemplate;
}

afterAll(async () => {
  if (migratedTemplate) rmSync(await migratedTemplate, { recursive: true, force: true });
});

/**
 * A DATA_DIR (and, with TEST_DATABASE_URL, a database) of its own for one test; children, the
 * database and the directory are gone afterwards whatever happens.
 */
async function withCliEnv(
  fn: (cli: CliEnv) => Promise<void>,
  options: { from: 'fresh' | 'migrated' } = { from: 'migrated' },
): Promise<void> {
  // Short path: the embedded database's unix socket lives in DATA_DIR/run.
  const dataDir = mkdtempSync(join(tmpdir(), 'tcli-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  let database: ServerDatabase | undefined;
  try {
    if (adminUrl) {
      const template = options.from === 'migrated' ? process.env[SERVER_TEMPLATE_ENV] : undefined;
      database = await createServerDatabase(adminUrl, { prefix: 'tessera_cli', template });
    } else if (options.from === 'migrated') {
      const template = await migratedDataDir();
      for (const entry of ['pgdata', 'secret'])
        cpSync(join(template, entry), join(dataDir, entry), { recursive: true });
    }
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      ...(database ? { DATABASE_URL: database.url } : {}),
    };
    await fn({ dataDir, port, env });
  } finally {
    await killAll();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface OrgCreateOutput {
  organization: { id: string; slug: string; name: string };
  access_token: string;
}

/** `org create --json`: exactly one JSON line on stdout, nothing else. */
function parseOrgCreate(result: CliResult): OrgCreateOutput {
  expectSuccess(result, 'org create');
  expect(result.stdout.endsWith('\n')).toBe(true);
  expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
  const parsed = JSON.parse(result.stdout) as OrgCreateOutput;
  expect(Object.keys(parsed).sort()).toEqual(['access_token', 'organization']);
  expect(parsed.access_token).toMatch(/^polar_oat_[0-9A-Za-z]{43}$/);
  return parsed;
}

async function stopGracefully(served: Served): Promise<void> {
  const done = exited(served.child);
  served.child.kill('SIGTERM');
  const result = await Promise.race([
    done,
    new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), SHUTDOWN_TIMEOUT_MS)),
  ]);
  expect(result, `tessera serve did not stop on SIGTERM:\n${served.stderr()}`).toEqual({ code: 0, signal: null });
}

function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

describe('tessera org create', () => {
  it(
    'prints one JSON line with the organization and its access token when no server runs',
    () =>
      withCliEnv(
        async (cli) => {
          // On a first start: the database is created and migrated on the way.
          const result = await runCli(['org', 'create', '--name', 'Acme', '--slug', 'acme', '--json'], cli);
          const { organization } = parseOrgCreate(result);
          expect(organization.slug).toBe('acme');
          expect(organization.name).toBe('Acme');
        },
        { from: 'fresh' },
      ),
    TEST_TIMEOUT,
  );

  it(
    'works next to a running server, whose API accepts the printed token, and the server stops on SIGTERM',
    () =>
      withCliEnv(async (cli) => {
        const served = await serve(cli);
        const result = await runCli(['org', 'create', '--name', 'Acme', '--slug', 'acme', '--json'], cli);
        const { organization, access_token } = parseOrgCreate(result);
        expect(organization.slug).toBe('acme');

        const response = await fetch(`${served.url}/v1/organizations/${organization.id}`, {
          headers: bearer(access_token),
        });
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({ id: organization.id, slug: 'acme', name: 'Acme' });

        await stopGracefully(served);
      }),
    TEST_TIMEOUT,
  );

  it(
    'rejects an invalid slug and a duplicate slug with a non-zero exit and nothing on stdout',
    () =>
      withCliEnv(async (cli) => {
        const invalid = await runCli(['org', 'create', '--name', 'Acme', '--slug', 'Not A Slug!'], cli);
        expect(invalid.code).not.toBe(0);
        expect(invalid.code).not.toBeNull();
        expect(invalid.stdout).toBe('');
        expect(invalid.stderr).toMatch(/slug/i);

        parseOrgCreate(await runCli(['org', 'create', '--name', 'Acme', '--slug', 'acme', '--json'], cli));
        const duplicate = await runCli(['org', 'create', '--name', 'Acme', '--slug', 'acme', '--json'], cli);
        expect(duplicate.code).not.toBe(0);
        expect(duplicate.code).not.toBeNull();
        expect(duplicate.stdout).toBe('');
        expect(duplicate.stderr).toMatch(/slug/i);
        expect(duplicate.stderr).toMatch(/already exists/i);
      }),
    TEST_TIMEOUT,
  );
});

describe('tessera token create', () => {
  it(
    'creates a token limited to the scopes given',
    () =>
      withCliEnv(async (cli) => {
        const served = await serve(cli);
        const { organization } = parseOrgCreate(
          await runCli(['org', 'create', '--name', 'Acme', '--slug', 'acme', '--json'], cli),
        );

        const result = await runCli(
          ['token', 'create', '--org', 'acme', '--scopes', 'organizations:read', '--json'],
          cli,
        );
        expectSuccess(result, 'token create');
        expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
        const created = JSON.parse(result.stdout) as { id: string; scopes: string[]; access_token: string };
        expect(created.scopes).toEqual(['organizations:read']);
        expect(created.access_token).toMatch(/^polar_oat_[0-9A-Za-z]{43}$/);

        const url = `${served.url}/v1/organizations/${organization.id}`;
        const read = await fetch(url, { headers: bearer(created.access_token) });
        expect(read.status).toBe(200);
        expect(await read.json()).toMatchObject({ id: organization.id, slug: 'acme' });

        const write = await fetch(url, {
          method: 'PATCH',
          headers: { ...bearer(created.access_token), 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Renamed' }),
        });
        expect(write.status).toBe(403);
        expect(await write.json()).toMatchObject({ error: 'insufficient_scope' });

        const after = await fetch(url, { headers: bearer(created.access_token) });
        expect(await after.json()).toMatchObject({ name: 'Acme' });
      }),
    TEST_TIMEOUT,
  );
});

describe('tessera user create', () => {
  it(
    'creates a member who can sign in through the running server',
    () =>
      withCliEnv(async (cli) => {
        const served = await serve(cli);
        parseOrgCreate(await runCli(['org', 'create', '--name', 'Acme', '--slug', 'acme', '--json'], cli));

        const created = await runCli(
          ['user', 'create', '--email', 'a@example.com', '--password', 'long enough pw', '--org', 'acme'],
          cli,
        );
        expectSuccess(created, 'user create');
        expect(created.stdout).toMatch(/a@example\.com/);

        const login = await fetch(`${served.url}/v1/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: served.url },
          body: JSON.stringify({ email: 'a@example.com', password: 'long enough pw' }),
        });
        expect(login.status).toBe(200);
        expect(await login.json()).toMatchObject({ email: 'a@example.com' });
        const setCookie = login.headers.getSetCookie().find((c) => c.startsWith('tessera_session='));
        expect(setCookie, 'no tessera_session cookie').toBeDefined();
        const attributes = setCookie!
          .split(';')
          .slice(1)
          .map((a) => a.trim().toLowerCase());
        expect(attributes).toContain('httponly');
        expect(attributes).toContain('samesite=lax');
        const session = setCookie!.split(';')[0]!;
        expect(session.length).toBeGreaterThan('tessera_session='.length);

        const list = await fetch(`${served.url}/v1/organizations/`, { headers: { cookie: session } });
        expect(list.status).toBe(200);
        const body = (await list.json()) as { items: { slug: string }[] };
        expect(body.items.map((o) => o.slug)).toEqual(['acme']);
      }),
    TEST_TIMEOUT,
  );
});

describe('tessera migrate', () => {
  it(
    'reports "up to date" on an already migrated database',
    () =>
      withCliEnv(
        async (cli) => {
          const first = await runCli(['migrate'], cli);
          expectSuccess(first, 'migrate');
          expect(first.stdout).toMatch(/^applied: .+\n$/);

          const second = await runCli(['migrate'], cli);
          expectSuccess(second, 'migrate');
          expect(second.stdout).toBe('up to date\n');
        },
        { from: 'fresh' },
      ),
    TEST_TIMEOUT,
  );
});

describe('tessera clock advance', () => {
  it(
    "moves an organization's clock, which its API then reads, and refuses in production",
    () =>
      withCliEnv(async (cli) => {
        const { organization, access_token } = parseOrgCreate(
          await runCli(['org', 'create', '--name', 'Acme', '--slug', 'acme', '--json'], cli),
        );
        const advanced = await runCli(['clock', 'advance', '--org', 'acme', '--days', '3', '--json'], cli);
        expectSuccess(advanced, 'clock advance');
        const result = JSON.parse(advanced.stdout) as { offset_seconds: number; renewals: number; now: string };
        expect(result).toMatchObject({ organization_id: organization.id, offset_seconds: 3 * 86_400, renewals: 0 });

        const unknown = await runCli(['clock', 'advance', '--org', 'nobody', '--days', '1'], cli);
        expect(unknown.code).toBe(1);
        expect(unknown.stderr).toContain('no organization with slug "nobody"');
        const nothing = await runCli(['clock', 'advance', '--org', 'acme'], cli);
        expect(nothing.code).toBe(1);
        expect(nothing.stderr).toContain('give --days or --hours');
        const production = await runCli(['clock', 'advance', '--org', 'acme', '--days', '1'], {
          ...cli,
          env: { ...cli.env, NODE_ENV: 'production' },
        });
        expect(production.code).toBe(1);
        expect(production.stderr).toContain('test clocks do not exist in production');

        const served = await serve(cli);
        const clock = await fetch(`${served.url}/v1/test-clock/`, { headers: bearer(access_token) });
        expect(clock.status).toBe(200);
        const body = (await clock.json()) as { offset_seconds: number; now: string };
        expect(body.offset_seconds).toBe(3 * 86_400);
        expect(new Date(body.now).getTime() - Date.now()).toBeGreaterThan(3 * 86_400_000 - 60_000);
        await stopGracefully(served);
      }),
    TEST_TIMEOUT,
  );
});

describe('tessera events ingest', () => {
  it(
    'bulk-loads JSON lines with progress, skips what it loaded before, refuses bad lines by number',
    () =>
      withCliEnv(async (cli) => {
        const { access_token } = parseOrgCreate(
          await runCli(['org', 'create', '--name', 'Acme', '--slug', 'acme', '--json'], cli),
        );
        const file = join(cli.dataDir, 'events.jsonl');
        const event = (i: number) => ({
          name: 'api.call',
          external_customer_id: `customer-${i % 7}`,
          external_id: `event-${i}`,
          metadata: { units: i },
        });
        writeFileSync(file, Array.from({ length: 1_200 }, (_, i) => JSON.stringify(event(i))).join('\n') + '\n');

        const loaded = await runCli(['events', 'ingest', '--org', 'acme', '--json', file], cli);
        expectSuccess(loaded, 'events ingest');
        expect(JSON.parse(loaded.stdout)).toEqual({ events: 1_200, inserted: 1_200, duplicates: 0 });
        expect(loaded.stderr).toMatch(/1,200\/1,200 events \(100%\) · [\d,]+ events\/s · ETA 0s/);
        // Run again (after an interruption, say): every event is already in.
        const again = await runCli(['events', 'ingest', '--org', 'acme', '--json', file], cli);
        expectSuccess(again, 'events ingest again');
        expect(JSON.parse(again.stdout)).toEqual({ events: 1_200, inserted: 0, duplicates: 1_200 });

        // Lines that cannot be events: every one named, nothing inserted.
        const bad = join(cli.dataDir, 'bad.jsonl');
        writeFileSync(
          bad,
          [
            JSON.stringify(event(9_000)),
            '{"name": "api.call"}',
            '',
            'not json',
            JSON.stringify({ ...event(9_001), external_id: 'event-9000' }),
          ].join('\n'),
        );
        const refused = await runCli(['events', 'ingest', '--org', 'acme', bad], cli);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain('line 2: customer_id: Field required');
        expect(refused.stderr).toContain('line 4: invalid JSON');
        expect(refused.stderr).toContain('line 5: external_id: the same as line 1');
        expect(refused.stderr).toContain('3 problem(s); nothing was inserted');

        // A batch the API would refuse (an unknown customer): the line, and what went in before it.
        const unknown = join(cli.dataDir, 'unknown.jsonl');
        writeFileSync(
          unknown,
          [event(9_000), event(9_001), { name: 'api.call', customer_id: '00000000-0000-4000-8000-000000000000' }]
            .map((e) => JSON.stringify(e))
            .join('\n'),
        );
        const stopped = await runCli(['events', 'ingest', '--org', 'acme', '--batch-size', '2', unknown], cli);
        expect(stopped.code).toBe(1);
        expect(stopped.stderr).toContain('line 3: customer_id: Customer not found.');
        expect(stopped.stderr).toContain('2 events were inserted before it');

        const served = await serve(cli);
        const listed = await fetch(`${served.url}/v1/events/?limit=1`, { headers: bearer(access_token) });
        expect(listed.status).toBe(200);
        expect(((await listed.json()) as { pagination: { total_count: number } }).pagination.total_count).toBe(1_202);
        await stopGracefully(served);
      }),
    2 * TEST_TIMEOUT,
  );
});

describe('tessera serve: safe defaults', () => {
  const LIVE = { STRIPE_SECRET_KEY: 'sk_live_notarealkey', STRIPE_PUBLISHABLE_KEY: 'pk_live_x' };

  it(
    'warns when development mode (no NODE_ENV) listens beyond loopback',
    () =>
      withCliEnv(async (cli) => {
        const { NODE_ENV: _unset, ...development } = cli.env;
        const quiet = await serve({ ...cli, env: development });
        expect(quiet.stderr()).not.toContain('WARNING');
        await stopGracefully(quiet);

        const exposed = await serve({ ...cli, env: { ...development, HOST: '0.0.0.0' } });
        expect(exposed.stderr()).toContain('WARNING: development mode');
        expect(exposed.stderr()).toContain('0.0.0.0');
        await stopGracefully(exposed);
      }),
    TEST_TIMEOUT,
  );

  it(
    'a live Stripe key turns test clocks and the simulated card off whatever NODE_ENV says',
    () =>
      withCliEnv(async (cli) => {
        const { NODE_ENV: _unset, ...development } = cli.env;
        const live = await serve({ ...cli, env: { ...development, ...LIVE, HOST: '0.0.0.0' } });
        expect(live.stderr()).not.toContain('WARNING');
        expect((await fetch(`${live.url}/v1/test-clock/`)).status).toBe(404);
        const card = await fetch(`${live.url}/simulated-processor/confirmation-tokens`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' } }),
        });
        expect(card.status).toBe(404);
        await stopGracefully(live);
        const clock = await runCli(['clock', 'advance', '--org', 'acme', '--days', '1'], {
          ...cli,
          env: { ...development, ...LIVE, NODE_ENV: 'development' },
        });
        expect(clock.code).toBe(1);
        expect(clock.stderr).toContain('test clocks do not exist in production');
      }),
    TEST_TIMEOUT,
  );
});
