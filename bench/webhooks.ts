/**
 * Webhook delivery benchmark: `npm run bench:webhooks` (`-- --dev`, or BENCH_DEV=1: development mode).
 *
 * Starts the built `tessera serve` in production mode, as a deployment runs it, on a temporary DATA_DIR
 * (or a fresh database on DATABASE_URL), points BENCH_WEBHOOK_ENDPOINTS (1) raw endpoints at a local
 * HTTPS receiver (production sends to https only: the receiver's certificate is made for the run with
 * `openssl` and given to the server as NODE_EXTRA_CA_CERTS; loopback is allowed by
 * WEBHOOK_ALLOWED_NETWORKS); with `--dev`, `tessera serve` from source in development mode and a plain
 * HTTP receiver, as before. It then creates BENCH_WEBHOOK_EVENTS
 * (200) customers through the API (each commits a `customer.created` event, delivered to every endpoint)
 * from BENCH_CONNECTIONS concurrent clients, and reports: deliveries per second (events × endpoints /
 * time from the first request to the last delivery), the commit-to-delivery delay (from the API's 201,
 * i.e. after commit, to the receiver's arrival) p50/p99, and whether every endpoint received its events
 * in commit order (events of one client are committed in order, so each client's must arrive in order).
 *
 * Before that load, the idle scenario: BENCH_WEBHOOK_IDLE_EVENTS (50) customers created one at a time,
 * each after the previous one's deliveries arrived and BENCH_WEBHOOK_IDLE_GAP_MS (100) of quiet, so
 * every event finds the worker asleep; it reports the commit-to-delivery delay p50/p99 of those.
 *
 * Then the paced scenario: events created on a fixed schedule for BENCH_WEBHOOK_PACED_SECONDS (5), as
 * many a second as make BENCH_WEBHOOK_PACED_RATE (2000) deliveries a second across the endpoints, from
 * BENCH_CONNECTIONS lanes (event n on lane n mod connections, each lane's events committed in order): the
 * delay a delivery waits while the sender runs at that rate, without a backlog that only grows (the load
 * above sends events faster than any rate of delivery, so its delays are the time to drain what piled
 * up). It reports the rate achieved, commit-to-delivery p50/p99 and the per-endpoint order.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { ensureBuilt, serverEnv, startServer, waitReady, type RunningServer } from './server.js';

const ROOT = resolve(import.meta.dirname, '..');
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 200);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ENDPOINTS = Number(process.env.BENCH_WEBHOOK_ENDPOINTS ?? 1);
const IDLE_EVENTS = Number(process.env.BENCH_WEBHOOK_IDLE_EVENTS ?? 50);
const IDLE_GAP_MS = Number(process.env.BENCH_WEBHOOK_IDLE_GAP_MS ?? 100);
const PACED_RATE = Number(process.env.BENCH_WEBHOOK_PACED_RATE ?? 2000);
const PACED_SECONDS = Number(process.env.BENCH_WEBHOOK_PACED_SECONDS ?? 5);
const DEV = process.argv.includes('--dev') || process.env.BENCH_DEV === '1';

/** A certificate and key for 127.0.0.1, made for this run in `dir`. */
function loopbackCertificate(dir: string): { certFile: string; cert: Buffer; key: Buffer } {
  const certFile = join(dir, 'receiver.crt');
  const keyFile = join(dir, 'receiver.key');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
      ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile],
    ],
    { stdio: 'ignore' },
  );
  return { certFile, cert: readFileSync(certFile), key: readFileSync(keyFile) };
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function run(args: string[], env: NodeJS.ProcessEnv, nodeArgs: string[] = []): ChildProcess {
  return spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'apps/api/src/cli.ts', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

async function output(child: ChildProcess): Promise<string> {
  let text = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const code = await new Promise((done) => child.once('close', done));
  if (code !== 0) throw new Error(`command failed (${String(code)})`);
  return text;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * Waits (up to 300 s) until `expected` first arrivals of a scenario's events are in, then answers the
 * last arrival, every delivery's commit-to-delivery delay (sorted) and whether each endpoint got each
 * lane's events (emails `${prefix}-${lane}-${n}@…`, committed one after the other) in that order.
 */
async function deliveredOf(
  prefix: string,
  arrivals: Map<string, number>,
  sequences: Map<string, string[]>,
  committed: Map<string, number>,
  expected: number,
): Promise<{ last: number; delays: number[]; inOrder: boolean }> {
  const deadline = Date.now() + 300_000;
  while (arrivals.size < expected && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
  if (arrivals.size < expected) throw new Error(`${prefix}: only ${arrivals.size}/${expected} delivered`);
  const delays = [...sequences.keys()]
    .flatMap((path) => [...committed].map(([email, at]) => Math.max(0, arrivals.get(`${path} ${email}`)! - at)))
    .sort((a, b) => a - b);
  const inOrder = [...sequences.values()].every((sequence) =>
    Array.from({ length: CONNECTIONS }, (_, lane) =>
      sequence
        .filter((email) => email.startsWith(`${prefix}-${lane}-`))
        .map((email) => Number(email.split('-')[2]!.split('@')[0])),
    ).every((numbers) => numbers.every((n, i) => i === 0 || n > numbers[i - 1]!)),
  );
  return { last: Math.max(...arrivals.values()), delays, inOrder };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'twb-'));
  const adminUrl = process.env.DATABASE_URL;
  const databaseName = `tessera_bench_wh_${process.pid}_${randomBytes(3).toString('hex')}`;
  let server: ChildProcess | undefined;
  let built: RunningServer | undefined;
  // `${endpoint path} ${email}` → first arrival; per endpoint, the emails in arrival order.
  const arrivals = new Map<string, number>();
  const sequences = new Map<string, string[]>();
  // The idle scenario's arrivals (`${endpoint path} ${email}` → first arrival), apart from the load's.
  const idleArrivals = new Map<string, number>();
  let idleArrived = () => {};
  // The paced scenario's: first arrivals and, per endpoint, the emails in arrival order.
  const pacedArrivals = new Map<string, number>();
  const pacedSequences = new Map<string, string[]>();
  const receive: RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const email = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { email: string } }).data.email;
      const key = `${req.url} ${email}`;
      if (email.startsWith('idle-')) {
        if (!idleArrivals.has(key)) idleArrivals.set(key, performance.now());
        res.writeHead(204).end();
        idleArrived();
        return;
      }
      const [firstArrivals, arrivalOrder] = email.startsWith('paced-')
        ? [pacedArrivals, pacedSequences]
        : [arrivals, sequences];
      if (!firstArrivals.has(key)) {
        firstArrivals.set(key, performance.now());
        const sequence = arrivalOrder.get(req.url!) ?? [];
        sequence.push(email);
        arrivalOrder.set(req.url!, sequence);
      }
      res.writeHead(204).end();
    });
  };
  const certificate = DEV ? undefined : loopbackCertificate(dataDir);
  const receiver = certificate
    ? createHttpsServer({ cert: certificate.cert, key: certificate.key }, receive)
    : createHttpServer(receive);
  try {
    let databaseUrl: string | undefined;
    if (adminUrl) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${databaseName}`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${databaseName}`;
      databaseUrl = url.toString();
    }
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    const receiverPort = (receiver.address() as { port: number }).port;
    const port = await freePort();
    // Load, not abuse: the rate limits stay finite but out of the way (`unlimited`).
    const env = serverEnv(
      { mode: DEV ? 'development' : 'production', port, dataDir, databaseUrl, unlimited: true },
      certificate ? { NODE_EXTRA_CA_CERTS: certificate.certFile, WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' } : {},
    );
    const base = `http://127.0.0.1:${port}`;
    if (DEV) {
      // BENCH_CPU_PROF=<dir>: the server writes a CPU profile there as it stops.
      const profile = process.env.BENCH_CPU_PROF;
      server = run(['serve'], env, profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []);
      for (let ready = false; !ready;) {
        ready = await fetch(`${base}/readyz`)
          .then((r) => r.status === 200)
          .catch(() => false);
        if (!ready) await new Promise((done) => setTimeout(done, 200));
      }
    } else {
      // BENCH_SERVER_NODE_ARGS (bench/server.ts): flags for the server's node, e.g. a CPU profile.
      await ensureBuilt();
      built = startServer(env, port);
      await waitReady(built);
    }
    const org = JSON.parse(
      await output(run(['org', 'create', '--name', 'Bench', '--slug', 'bench-webhooks', '--json'], env)),
    ) as { access_token: string };
    const headers = { authorization: `Bearer ${org.access_token}`, 'content-type': 'application/json' };
    for (let index = 0; index < ENDPOINTS; index++) {
      const created = await fetch(`${base}/v1/webhooks/endpoints`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          url: `${certificate ? 'https' : 'http'}://127.0.0.1:${receiverPort}/hook/${index}`,
          format: 'raw',
          secret: 'whsec_bench',
          events: ['customer.created'],
        }),
      });
      if (created.status !== 201) throw new Error(`endpoint create: ${created.status}`);
    }

    const createCustomer = async (email: string) => {
      const response = await fetch(`${base}/v1/customers/`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email }),
      });
      if (response.status !== 201) throw new Error(`customer create: ${response.status}`);
      return performance.now();
    };

    // Idle: one event at a time, each finding the worker asleep.
    const idleDelays: number[] = [];
    for (let n = 0; n < IDLE_EVENTS; n++) {
      await new Promise((done) => setTimeout(done, IDLE_GAP_MS));
      const email = `idle-${n}@example.com`;
      const arrived = new Promise<void>((done) => {
        idleArrived = () => {
          if ([...Array(ENDPOINTS).keys()].every((index) => idleArrivals.has(`/hook/${index} ${email}`))) done();
        };
      });
      const at = await createCustomer(email);
      idleArrived();
      await Promise.race([arrived, new Promise((done) => setTimeout(done, 30_000))]);
      for (let index = 0; index < ENDPOINTS; index++) {
        const arrival = idleArrivals.get(`/hook/${index} ${email}`);
        if (arrival === undefined) throw new Error(`idle event ${n} not delivered to endpoint ${index} in 30 s`);
        idleDelays.push(Math.max(0, arrival - at));
      }
    }
    idleDelays.sort((a, b) => a - b);

    // Paced: event n is due at n / eventsPerSecond; lane n mod CONNECTIONS creates it when due (or when
    // its previous one is answered, if that is later).
    const eventsPerSecond = PACED_RATE / ENDPOINTS;
    const pacedEvents = Math.round(eventsPerSecond * PACED_SECONDS);
    const pacedCommitted = new Map<string, number>();
    const pacedStarted = performance.now();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, lane) => {
        for (let n = lane; n < pacedEvents; n += CONNECTIONS) {
          const due = pacedStarted + (n / eventsPerSecond) * 1000;
          const wait = due - performance.now();
          if (wait > 0) await new Promise((done) => setTimeout(done, wait));
          const email = `paced-${lane}-${n}@example.com`;
          pacedCommitted.set(email, await createCustomer(email));
        }
      }),
    );
    const pacedCreatedIn = performance.now() - pacedStarted;
    const pacedExpected = pacedEvents * ENDPOINTS;
    const paced = await deliveredOf('paced', pacedArrivals, pacedSequences, pacedCommitted, pacedExpected);

    const committed = new Map<string, number>();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, client) => {
        while (next < EVENTS) {
          const email = `bench-${client}-${next++}@example.com`;
          committed.set(email, await createCustomer(email));
        }
      }),
    );
    const expected = EVENTS * ENDPOINTS;
    const burst = await deliveredOf('bench', arrivals, sequences, committed, expected);
    const result = {
      mode: DEV ? 'development' : 'production',
      database: databaseUrl ? 'postgresql' : 'embedded',
      events: EVENTS,
      endpoints: ENDPOINTS,
      connections: CONNECTIONS,
      'idle commit→delivery p50 ms': IDLE_EVENTS > 0 ? Math.round(percentile(idleDelays, 50)) : null,
      'idle commit→delivery p99 ms': IDLE_EVENTS > 0 ? Math.round(percentile(idleDelays, 99)) : null,
      'paced target deliveries/s': PACED_RATE,
      'paced created deliveries/s': Math.round((pacedExpected / pacedCreatedIn) * 1000),
      'paced deliveries/s': Math.round((pacedExpected / (paced.last - pacedStarted)) * 1000),
      'paced commit→delivery p50 ms': Math.round(percentile(paced.delays, 50)),
      'paced commit→delivery p99 ms': Math.round(percentile(paced.delays, 99)),
      'paced per-endpoint order kept': paced.inOrder,
      'deliveries/s': Math.round((expected / (burst.last - started)) * 1000 * 10) / 10,
      'commit→delivery p50 ms': Math.round(percentile(burst.delays, 50)),
      'commit→delivery p99 ms': Math.round(percentile(burst.delays, 99)),
      'per-endpoint order kept': burst.inOrder,
    };
    // One line a figure: the table is too wide for a terminal as one row.
    for (const [name, value] of Object.entries(result)) console.log(`${name.padEnd(32)} ${String(value)}`);
  } finally {
    server?.kill('SIGTERM');
    if (server && server.exitCode === null) await new Promise((done) => server!.once('exit', done));
    await built?.stop();
    receiver.close();
    if (adminUrl) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await admin.end();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
