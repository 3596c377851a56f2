/**
 * Usage benchmark: `npm run bench:usage` (with `DATABASE_URL=…` for PostgreSQL, the case that matters).
 *
 * On PostgreSQL:
 *  1. starts the built server on a fresh database, creates an organization, two meters (through the
 *     API) and BENCH_USAGE_CUSTOMERS customers with external ids;
 *  2. loads BENCH_USAGE_EVENTS generated events (default 1,000,000; 10,000,000 for the full figure)
 *     with COPY through psql, then builds the meters' rollups over them (the `meters.rollups` job's
 *     work, timed in process);
 *  3. ingestion through HTTP: BENCH_USAGE_HTTP_EVENTS events in batches of 1,000 from
 *     BENCH_CONNECTIONS clients; then the same rows (another organization, same table and indexes)
 *     with a raw COPY: the ratio is the number to compare;
 *  4. reads, one at a time: a meter's daily quantities over 31 days (whole organization, and one
 *     customer) and a customer's balance (`GET /v1/customer-meters/?customer_id=…`), p50/p99;
 *  5. ingest → balance visible: while clients ingest continuously, one event for a customer at a
 *     time, then the balance polled until it shows it, p50/p99.
 * On the embedded database (no DATABASE_URL) it runs the HTTP ingestion (3, without COPY) and the reads
 * over what it ingested. Results go to stdout (a table) and bench/results/usage.json.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../apps/api/src/config.js';
import { buildMeterRollups } from '../apps/api/src/modules/meters/meters.rollups.js';
import { startRuntime } from '../apps/api/src/runtime.js';
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
} from './server.js';

const EVENTS = Number(process.env.BENCH_USAGE_EVENTS ?? 1_000_000);
const HTTP_EVENTS = Number(process.env.BENCH_USAGE_HTTP_EVENTS ?? 200_000);
const CUSTOMERS = Number(process.env.BENCH_USAGE_CUSTOMERS ?? 1_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const READS = Number(process.env.BENCH_USAGE_READS ?? 200);
const PROBES = Number(process.env.BENCH_USAGE_PROBES ?? 50);
const BATCH = 1_000;
const DAY = 86_400_000;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const ms = (value: number) => Math.round(value * 10) / 10;

/** A deterministic event generator: names, plans, token counts, customers, timestamps over 100 days. */
function generator(seed: number, now: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
  return () => {
    const customer = Math.floor(next() * CUSTOMERS);
    const llm = next() < 0.7;
    return {
      name: llm ? 'llm.completion' : 'api.call',
      external_customer_id: `customer-${customer}`,
      timestamp: new Date(now - Math.floor(next() * 100 * DAY) - 1_000),
      metadata: llm
        ? { plan: next() < 0.6 ? 'pro' : 'free', tokens: Math.floor(next() * 2_000), model: 'small' }
        : { route: '/v1/search' },
    };
  };
}

type GeneratedEvent = ReturnType<ReturnType<typeof generator>>;

/** The `meters.rollups` job's work for every meter not built, in process on the bench's database. */
async function buildAllRollups(databaseUrl: string, dataDir: string): Promise<void> {
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir }, { logLevel: 'warn' });
  const runtime = await startRuntime(config, { role: 'worker', work: false, logTo: 'stderr' });
  try {
    const meters = await runtime.database.db
      .selectFrom('meters')
      .select(['id', 'organization_id'])
      .where('rollups_built_at', 'is', null)
      .execute();
    for (const meter of meters) {
      await runtime.database.db
        .transaction()
        .execute((tx) => buildMeterRollups(runtime.context(tx), meter.organization_id, meter.id));
    }
  } finally {
    await runtime.stop();
  }
}

const csvField = (value: string | null) => (value === null ? '' : `"${value.replace(/"/g, '""')}"`);

/** `COPY events … FROM STDIN` through psql, fed `count` rows by `row`; resolves with the seconds taken. */
async function copyEvents(
  databaseUrl: string,
  count: number,
  row: (i: number) => { organizationId: string; event: GeneratedEvent; externalId: string | null },
): Promise<number> {
  const started = performance.now();
  const child = spawn(
    'psql',
    [
      databaseUrl,
      '-v',
      'ON_ERROR_STOP=1',
      '-q',
      '-c',
      '\\copy events (id, timestamp, ingested_at, organization_id, customer_id, external_customer_id, external_id, name, source, metadata) FROM STDIN WITH (FORMAT csv)',
    ],
    { stdio: ['pipe', 'inherit', 'inherit'] },
  );
  const ingestedAt = new Date().toISOString();
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  let chunk = '';
  for (let i = 0; i < count; i++) {
    const { organizationId, event, externalId } = row(i);
    chunk +=
      [
        randomUUID(),
        event.timestamp.toISOString(),
        ingestedAt,
        organizationId,
        '',
        csvField(event.external_customer_id),
        csvField(externalId),
        csvField(event.name),
        'user',
        csvField(JSON.stringify(event.metadata)),
      ].join(',') + '\n';
    if (chunk.length > 1 << 20) {
      if (!child.stdin!.write(chunk)) await new Promise((resolve) => child.stdin!.once('drain', resolve));
      chunk = '';
    }
  }
  child.stdin!.end(chunk);
  const code = await exited;
  if (code !== 0) throw new Error(`psql \\copy failed (exit ${code})`);
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  // BENCH_NO_BUILD=1: measure apps/api/dist as it is (e.g. while unrelated sources do not compile).
  if (process.env.BENCH_NO_BUILD !== '1') await ensureBuilt();
  const adminUrl = process.env.DATABASE_URL || undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-usage-'));
  const database = adminUrl ? await createServerDatabase(adminUrl) : undefined;
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    SECRET: randomBytes(32).toString('base64url'),
    RATE_LIMIT_API_PER_MINUTE: '100000000',
    RATE_LIMIT_SCALE: '100000',
  };
  if (database) env.DATABASE_URL = database.url;
  else delete env.DATABASE_URL;
  const server: RunningServer = startServer(env, port);
  const results: Record<string, unknown> = {
    database: database ? 'PostgreSQL' : 'embedded (PGlite)',
    node: process.version,
    connections: CONNECTIONS,
  };
  const client = database ? new pg.Client({ connectionString: database.url }) : undefined;
  try {
    await waitReady(server);
    await client?.connect();
    const org = async (slug: string) =>
      JSON.parse(
        (
          await runCli(
            ['org', 'create', '--name', slug, '--slug', `${slug}-${randomBytes(3).toString('hex')}`, '--json'],
            env,
          )
        )
          .trim()
          .split('\n')
          .pop()!,
      ) as { organization: { id: string }; access_token: string };
    const acme = await org('usage');
    const request = async (method: string, path: string, body?: string, token = acme.access_token) => {
      const response = await fetch(`${server.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body,
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- loosely read answers
      return JSON.parse(text) as any;
    };

    const tokens = await request(
      'POST',
      '/v1/meters/',
      JSON.stringify({
        name: 'Pro tokens',
        filter: {
          conjunction: 'and',
          clauses: [
            { property: 'name', operator: 'eq', value: 'llm.completion' },
            { property: 'plan', operator: 'eq', value: 'pro' },
          ],
        },
        aggregation: { func: 'sum', property: 'tokens' },
      }),
    );
    await request(
      'POST',
      '/v1/meters/',
      JSON.stringify({
        name: 'API calls',
        filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api.call' }] },
        aggregation: { func: 'count' },
      }),
    );
    // Customers with external ids (the events name them by it).
    const customerCount = database ? CUSTOMERS : Math.min(CUSTOMERS, 50);
    const customerIds: string[] = [];
    for (let i = 0; i < customerCount; i++) {
      const created = await request(
        'POST',
        '/v1/customers/',
        JSON.stringify({ email: `customer-${i}@example.com`, external_id: `customer-${i}` }),
      );
      customerIds.push(created.id);
    }
    process.stderr.write(`organization, 2 meters and ${customerCount} customers created\n`);
    const now = Date.now();

    if (database && client) {
      const waitBuilt = async () => {
        for (;;) {
          const { rows } = await client.query(`SELECT count(*)::int AS n FROM meters WHERE rollups_built_at IS NULL`);
          if (rows[0].n === 0) return;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      };
      await waitBuilt();
      process.stderr.write(`COPY of ${EVENTS.toLocaleString('en-US')} generated events...\n`);
      const next = generator(1, now);
      const bulkSeconds = await copyEvents(database.url, EVENTS, () => ({
        organizationId: acme.organization.id,
        event: next(),
        externalId: null,
      }));
      results.bulk_events = EVENTS;
      results.bulk_copy_events_per_second = Math.round(EVENTS / bulkSeconds);
      // The COPY bypassed the ingest: rebuild the meters' rollups from the events, as the job does.
      process.stderr.write('building the rollups over them...\n');
      const started = performance.now();
      await client.query(`UPDATE meters SET rollups_built_at = NULL`);
      await client.query(`ANALYZE events`);
      // The periodic sweep would pick them up; the bench runs the job's work now, in process.
      await buildAllRollups(database.url, dataDir);
      results.rollup_build_seconds = Math.round((performance.now() - started) / 100) / 10;
      await client.query(`ANALYZE meter_rollups; ANALYZE meter_rollup_totals`);
    }

    // --- ingestion through HTTP ------------------------------------------------------------------
    const httpEvents = database ? HTTP_EVENTS : Math.min(HTTP_EVENTS, 50_000);
    const nextHttp = generator(2, now);
    const httpRows = Array.from({ length: httpEvents }, nextHttp);
    const bodies: string[] = [];
    for (let i = 0; i < httpEvents; i += BATCH) {
      bodies.push(
        JSON.stringify({
          events: httpRows.slice(i, i + BATCH).map((event, j) => ({
            ...event,
            timestamp: event.timestamp.toISOString(),
            external_id: `http-${i + j}`,
          })),
        }),
      );
    }
    process.stderr.write(
      `HTTP ingestion of ${httpEvents.toLocaleString('en-US')} events (${bodies.length} batches)...\n`,
    );
    // A short warm-up batch.
    await request('POST', '/v1/events/ingest', JSON.stringify({ events: [{ ...httpRows[0], external_id: 'warm' }] }));
    let nextBody = 0;
    const batchTimes: number[] = [];
    const ingestStarted = performance.now();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (nextBody < bodies.length) {
          const body = bodies[nextBody++]!;
          const t = performance.now();
          await request('POST', '/v1/events/ingest', body);
          batchTimes.push(performance.now() - t);
        }
      }),
    );
    const httpSeconds = (performance.now() - ingestStarted) / 1000;
    results.http_events = httpEvents;
    results.http_events_per_second = Math.round(httpEvents / httpSeconds);
    results.http_batch_p50_ms = ms(percentile(batchTimes, 50));
    results.http_batch_p99_ms = ms(percentile(batchTimes, 99));

    if (database) {
      const other = await org('copy');
      const copySeconds = await copyEvents(database.url, httpEvents, (i) => ({
        organizationId: other.organization.id,
        event: httpRows[i]!,
        externalId: `http-${i}`,
      }));
      results.copy_events_per_second = Math.round(httpEvents / copySeconds);
      results.http_vs_copy = Math.round((httpSeconds > 0 ? copySeconds / httpSeconds : 0) * 100) / 100;
    }
    const { rows: countRows } = client
      ? await client.query(`SELECT count(*)::int AS n FROM events`)
      : { rows: [{ n: httpEvents + 1 }] };
    results.events_in_table = countRows[0].n;

    // --- reads -------------------------------------------------------------------------------------
    const timed = async (fn: (i: number) => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < READS; i++) {
        const t = performance.now();
        await fn(i);
        times.push(performance.now() - t);
      }
      return { p50_ms: ms(percentile(times, 50)), p99_ms: ms(percentile(times, 99)) };
    };
    const end = new Date(now);
    const start = new Date(now - 31 * DAY);
    const range = `start_timestamp=${start.toISOString()}&end_timestamp=${end.toISOString()}&interval=day`;
    process.stderr.write('reads...\n');
    results.quantities = await timed(() => request('GET', `/v1/meters/${tokens.id}/quantities?${range}`));
    results.quantities_customer = await timed((i) =>
      request('GET', `/v1/meters/${tokens.id}/quantities?${range}&customer_id=${customerIds[i % customerIds.length]}`),
    );
    results.balance = await timed((i) =>
      request('GET', `/v1/customer-meters/?customer_id=${customerIds[i % customerIds.length]}&meter_id=${tokens.id}`),
    );

    // --- ingest → balance visible under sustained ingestion ---------------------------------------
    process.stderr.write('ingest → balance under sustained ingestion...\n');
    let stop = false;
    let background = 0;
    const nextLoad = generator(3, now);
    const loaders = Array.from({ length: Math.max(1, CONNECTIONS - 1) }, async (_, n) => {
      while (!stop) {
        const events = Array.from({ length: BATCH }, () => {
          const event = nextLoad();
          return { ...event, timestamp: event.timestamp.toISOString(), external_id: `load-${n}-${background++}` };
        });
        await request('POST', '/v1/events/ingest', JSON.stringify({ events }));
      }
    });
    const visible: number[] = [];
    const probeStarted = performance.now();
    try {
      for (let i = 0; i < PROBES; i++) {
        const customerId = customerIds[i % customerIds.length]!;
        const balanceOf = async () => {
          const page = await request('GET', `/v1/customer-meters/?customer_id=${customerId}&meter_id=${tokens.id}`);
          return (page.items[0]?.consumed_units as number | undefined) ?? 0;
        };
        const before = await balanceOf();
        const t = performance.now();
        await request(
          'POST',
          '/v1/events/ingest',
          JSON.stringify({
            events: [{ name: 'llm.completion', customer_id: customerId, metadata: { plan: 'pro', tokens: 1 } }],
          }),
        );
        while ((await balanceOf()) < before + 1) {
          if (performance.now() - t > 30_000) throw new Error('the balance did not change within 30 s');
        }
        visible.push(performance.now() - t);
      }
    } finally {
      stop = true;
      await Promise.all(loaders);
    }
    results.ingest_to_balance = { p50_ms: ms(percentile(visible, 50)), p99_ms: ms(percentile(visible, 99)) };
    results.sustained_events_per_second = Math.round((background * 1000) / (performance.now() - probeStarted));

    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'results', 'usage.json'), JSON.stringify(results, null, 2) + '\n');
    process.stdout.write(JSON.stringify(results, null, 2) + '\n');
  } finally {
    await client?.end().catch(() => undefined);
    await server.stop();
    await stopChildren();
    await database?.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
