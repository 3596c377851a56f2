import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import pg from 'pg';
import { REPO_ROOT } from '../../src/paths.js';
import { periodicTasks } from '../../src/modules/index.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { migrate } from '../../src/platform/db/migrate.js';
import { createServerDatabase, type ServerDatabase } from '../database-template.js';
import { buildIfStale, TARGETS } from '../../../../scripts/build-if-stale.mjs';

/**
 * `npm run test:cluster`: 3 API nodes and 2 workers (`tessera serve --role …`, real processes) on one
 * fresh PostgreSQL database, behind a round-robin balancer in this file. Under load (purchases, event
 * ingestion, webhook deliveries to a local receiver, renewals moved by the test clock) one API node and
 * one worker are SIGKILLed and replaced; then the invariants of issue 24 are checked on the database.
 * Loopback only; every child is this file's own and killed at the end; the database is dropped.
 */

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LOAD_MS = Number(process.env.CLUSTER_LOAD_SECONDS ?? 40) * 1000;
const SECRET = 'cluster-secret-0123456789abcdefghijklmnopqrstuvwxyz';
/** The built CLI, built first when its sources changed: compiled nodes start in a second, not through tsx. */
const TESSERA = 'apps/api/bin/tessera.js';

interface Node {
  role: 'api' | 'worker';
  port: number;
  child: ChildProcess;
  /** Receives traffic from the balancer (an API node once it logged its start). */
  ready: boolean;
  killed: boolean;
}

const nodes: Node[] = [];
let database: ServerDatabase;
let balancer: Server;
let receiver: Server;
let balancerUrl = '';
let receiverUrl = '';
let token = '';

/** Every answer the balancer relayed or failed to relay. */
const answers: { status: number; node: number; path: string; nodeKilled: boolean }[] = [];
/** Webhook deliveries in arrival order: the webhook-id header (an endpoint event id) and the endpoint. */
const received: { id: string; endpoint: string }[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function environment(port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: database.url,
    SECRET,
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: balancerUrl || 'http://127.0.0.1',
    // 'tessera started' is an info line (requests are logged too: only the tail is kept).
    LOG_LEVEL: 'info',
    DATA_DIR: `/tmp/tessera-cluster-${process.pid}`,
    DATABASE_POOL_SIZE: '4',
    WEBHOOK_RETRY_SCHEDULE: '1,1,2,2,2,5,5,5,5,5',
    WEBHOOK_RETRY_JITTER_PERCENT: '0',
    RATE_LIMIT_API_PER_MINUTE: '1000000',
  };
}

async function startNode(role: 'api' | 'worker'): Promise<Node> {
  const port = await freePort();
  const child = spawn(process.execPath, [TESSERA, 'serve', '--role', role], {
    cwd: REPO_ROOT,
    env: environment(port),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const node: Node = { role, port, child, ready: false, killed: false };
  nodes.push(node);
  let output = '';
  // CLUSTER_LOG_DIR: every node's whole log, one file per node (to read what a failed run's nodes said).
  const logFile = process.env.CLUSTER_LOG_DIR ? join(process.env.CLUSTER_LOG_DIR, `${role}-${port}.log`) : undefined;
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8_000);
    if (logFile) appendFileSync(logFile, chunk);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${role} node exited:\n${output}`);
    if (output.includes('tessera started')) {
      node.ready = true;
      return node;
    }
    if (Date.now() > deadline) throw new Error(`${role} node not started:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function kill(node: Node): Promise<void> {
  node.killed = true;
  if (node.child.exitCode !== null || node.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    node.child.once('exit', () => resolve());
    node.child.kill('SIGKILL');
  });
}

let next = 0;
function startBalancer(): Promise<void> {
  balancer = createHttpServer((request, response) => {
    const apis = nodes.filter((node) => node.role === 'api' && node.ready && !node.killed);
    const node = apis[next++ % apis.length]!;
    const index = nodes.indexOf(node);
    const upstream = httpRequest(
      { host: '127.0.0.1', port: node.port, method: request.method, path: request.url, headers: request.headers },
      (reply: IncomingMessage) => {
        answers.push({ status: reply.statusCode ?? 0, node: index, path: request.url ?? '', nodeKilled: node.killed });
        response.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(response);
      },
    );
    upstream.on('error', () => {
      answers.push({ status: 502, node: index, path: request.url ?? '', nodeKilled: node.killed });
      if (!response.headersSent) response.writeHead(502).end();
      else response.destroy();
    });
    request.pipe(upstream);
  });
  return new Promise((resolve) =>
    balancer.listen(0, '127.0.0.1', () => {
      const address = balancer.address();
      balancerUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      resolve();
    }),
  );
}

function startReceiver(): Promise<void> {
  receiver = createHttpServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push({ id: String(request.headers['webhook-id']), endpoint: request.url ?? '' });
      response.writeHead(200).end('ok');
    });
  });
  return new Promise((resolve) =>
    receiver.listen(0, '127.0.0.1', () => {
      const address = receiver.address();
      receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      resolve();
    }),
  );
}

async function api(method: string, path: string, body?: unknown, auth = true): Promise<{ status: number; body: any }> {
  try {
    const response = await fetch(`${balancerUrl}${path}`, {
      method,
      headers: {
        ...(auth ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  } catch {
    return { status: 0, body: undefined };
  }
}

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  buildIfStale(TARGETS.filter((target) => target.name === 'api'));
  database = await createServerDatabase(ADMIN_URL, { prefix: 'tessera_cluster' });
  const migrated = await openDatabase({ databaseUrl: database.url });
  try {
    await migrate(migrated.pool);
  } finally {
    await migrated.close();
  }
  await startBalancer();
  await startReceiver();
  // Nodes one after the other: on two cores, five TypeScript processes starting at once time out.
  for (const role of ['api', 'api', 'api', 'worker', 'worker'] as const) await startNode(role);
}, 600_000);

afterAll(async () => {
  await Promise.all(nodes.map(kill));
  balancer?.close();
  receiver?.close();
  await database?.drop();
});

async function cli(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [TESSERA, ...args], {
    cwd: REPO_ROOT,
    env: environment(0),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`tessera ${args.join(' ')} exited with ${code}`);
  return stdout;
}

async function purchase(productId: string): Promise<string | undefined> {
  const checkout = await api('POST', '/v1/checkouts/', { products: [productId] });
  if (checkout.status !== 201) return undefined;
  const card = await api(
    'POST',
    '/simulated-processor/confirmation-tokens',
    { card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' } },
    false,
  );
  if (card.status !== 201) return undefined;
  const confirmed = await api(
    'POST',
    `/v1/checkouts/client/${checkout.body.client_secret}/confirm`,
    {
      customer_email: `buyer-${Math.random().toString(16).slice(2)}@example.com`,
      customer_name: 'Buyer',
      customer_billing_address: { country: 'FR', line1: '1 rue de Rivoli', city: 'Paris', postal_code: '75001' },
      confirmation_token_id: card.body.id,
    },
    false,
  );
  return confirmed.status === 200 ? (checkout.body.id as string) : undefined;
}

describe('a cluster of 3 API nodes and 2 workers', () => {
  it('loses no purchase, renewal, event or webhook, and runs periodic work once, when a node and a worker die under load', async () => {
    const created = JSON.parse(
      await cli(['org', 'create', '--name', 'Cluster', '--slug', `cluster-${process.pid}`, '--json']),
    );
    token = created.access_token;
    for (const path of ['/a', '/b']) {
      const endpoint = await api('POST', '/v1/webhooks/endpoints', {
        url: `${receiverUrl}${path}`,
        format: 'raw',
        secret: 'cluster-webhook-secret',
        events: ['order.paid', 'order.created', 'customer.created', 'subscription.created', 'subscription.updated'],
      });
      expect(endpoint.status).toBe(201);
    }
    const oneTime = await api('POST', '/v1/products/', {
      name: 'One-time',
      recurring_interval: null,
      prices: [{ amount_type: 'fixed', price_amount: 1500 }],
    });
    const monthly = await api('POST', '/v1/products/', {
      name: 'Monthly',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 900 }],
    });
    const monthlyPlus = await api('POST', '/v1/products/', {
      name: 'Monthly Plus',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 1200 }],
    });
    expect([oneTime.status, monthly.status, monthlyPlus.status]).toEqual([201, 201, 201]);

    const acknowledged: string[] = [];
    const deadline = Date.now() + LOAD_MS;
    const killAt = Date.now() + LOAD_MS / 2;
    let killed = false;
    const loop = async (lane: number) => {
      while (Date.now() < deadline) {
        const id = await purchase(lane % 2 === 0 ? oneTime.body.id : monthly.body.id);
        if (id) acknowledged.push(id);
        await api('POST', '/v1/events/ingest', {
          events: [{ name: 'cluster', external_customer_id: `lane-${lane}`, metadata: { lane } }],
        });
      }
    };
    const chaos = async () => {
      while (Date.now() < killAt) await new Promise((resolve) => setTimeout(resolve, 200));
      const api0 = nodes.find((node) => node.role === 'api' && !node.killed)!;
      const worker0 = nodes.find((node) => node.role === 'worker' && !node.killed)!;
      await Promise.all([kill(api0), kill(worker0)]);
      killed = true;
      await startNode('api');
      await startNode('worker');
    };
    // Subscription updates: plan changes back and forth (billed as update orders, so renewals still count
    // one cycle per month moved through).
    let planChanges = 0;
    const updates = async () => {
      while (Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        const list = await api('GET', '/v1/subscriptions/?active=true&limit=20');
        const items: { id: string; product_id: string }[] = list.body?.items ?? [];
        if (items.length === 0) continue;
        const subscription = items[Math.floor(Math.random() * items.length)]!;
        const target = subscription.product_id === monthly.body.id ? monthlyPlus.body.id : monthly.body.id;
        const changed = await api('PATCH', `/v1/subscriptions/${subscription.id}`, {
          product_id: target,
          proration_behavior: 'prorate',
        });
        if (changed.status === 200) planChanges++;
      }
    };
    const clock = async () => {
      while (Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        await api('POST', '/v1/test-clock/advance', { days: 31 });
      }
    };
    await Promise.all([loop(0), loop(1), loop(2), chaos(), updates(), clock()]);
    expect(killed).toBe(true);
    expect(planChanges).toBeGreaterThan(0);
    expect(acknowledged.length).toBeGreaterThan(5);

    // Every acknowledged purchase: exactly one paid order and one succeeded payment.
    const orders = await query<{ checkout_id: string; paid: number; total: number }>(
      `SELECT checkout_id, count(*) FILTER (WHERE status = 'paid') AS paid, count(*) AS total
         FROM orders WHERE checkout_id = ANY($1) GROUP BY checkout_id`,
      [acknowledged],
    );
    expect(orders.length).toBe(acknowledged.length);
    for (const row of orders) expect([Number(row.paid), Number(row.total)], row.checkout_id).toEqual([1, 1]);
    const payments = await query<{ checkout_id: string; n: number }>(
      `SELECT checkout_id, count(*) AS n FROM payments WHERE checkout_id = ANY($1) AND status = 'succeeded' GROUP BY checkout_id`,
      [acknowledged],
    );
    expect(payments.length).toBe(acknowledged.length);
    for (const row of payments) expect(Number(row.n), row.checkout_id).toBe(1);

    // No 5xx but the answers lost with the killed node.
    const unexpected = answers.filter((answer) => answer.status >= 500 && !answer.nodeKilled);
    expect(unexpected).toEqual([]);

    // Every committed webhook event delivered, each endpoint's in commit order.
    await expect
      .poll(
        async () =>
          (
            await query<{ n: number }>(`SELECT count(*) AS n FROM webhook_endpoint_events WHERE status <> 'delivered'`)
          )[0]!.n.toString(),
        { timeout: 120_000, interval: 1_000 },
      )
      .toBe('0');
    const committed = await query<{ id: string; endpoint_id: string; seq: string }>(
      `SELECT id, endpoint_id, seq FROM webhook_endpoint_events ORDER BY seq`,
    );
    const firstArrival = new Map<string, number>();
    received.forEach((delivery, index) => {
      if (!firstArrival.has(delivery.id)) firstArrival.set(delivery.id, index);
    });
    const byEndpoint = new Map<string, number[]>();
    for (const row of committed) {
      expect(firstArrival.has(row.id), `event ${row.id} never received`).toBe(true);
      byEndpoint.set(row.endpoint_id, [...(byEndpoint.get(row.endpoint_id) ?? []), firstArrival.get(row.id)!]);
    }
    for (const arrivals of byEndpoint.values()) expect(arrivals).toEqual([...arrivals].sort((a, b) => a - b));

    // Renewals: each subscription billed once per period it moved through, none twice, none skipped
    // (periods are months: 30.44 days on average, rounded).
    const renewals = await query<{ id: string; cycles: number; months: string }>(
      `SELECT s.id,
              (SELECT count(*) FROM orders o
                WHERE o.subscription_id = s.id AND o.billing_reason = 'subscription_cycle') AS cycles,
              round(extract(epoch FROM s.current_period_start - s.started_at) / (30.44 * 86400)) AS months
         FROM subscriptions s WHERE s.started_at IS NOT NULL`,
    );
    expect(renewals.some((row) => Number(row.cycles) > 0)).toBe(true);
    for (const row of renewals) expect(Number(row.cycles), `subscription ${row.id}`).toBe(Number(row.months));

    // Periodic work: one job per task and period across both workers and the replacement.
    const periodic = periodicTasks.map((task) => task.job.name);
    const twice = await query<{ name: string; singleton_key: string; n: number }>(
      `SELECT name, singleton_key, count(*) AS n FROM pgboss.job WHERE name = ANY($1)
        GROUP BY name, singleton_key HAVING count(*) > 1`,
      [periodic],
    );
    expect(twice).toEqual([]);

    // Rate limits are counted in the database, by every node together: the token endpoint allows 120
    // requests a minute per address. Round robin over 3 nodes, 400 requests: nodes counting alone would let
    // 360 through; together at most 240 (120, or twice that when the requests straddle a minute).
    const statuses: number[] = [];
    let sent = 0;
    const attempt = async () => {
      while (sent < 400) {
        sent++;
        const response = await fetch(`${balancerUrl}/v1/oauth2/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=authorization_code&code=unknown&client_id=cluster-client',
        });
        await response.arrayBuffer();
        statuses.push(response.status);
      }
    };
    await Promise.all(Array.from({ length: 8 }, attempt));
    const limited = statuses.filter((status) => status === 429).length;
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(statuses).toHaveLength(400);
    expect(400 - limited).toBeGreaterThanOrEqual(120);
    expect(400 - limited).toBeLessThanOrEqual(240);
  }, 600_000);
});
