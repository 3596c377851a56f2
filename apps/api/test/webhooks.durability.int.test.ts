import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/paths.js';
import { systemClock } from '../src/platform/clock.js';
import { recordWebhookEvent } from '../src/platform/events.js';
import { organizationFactory } from './factories/organizations.js';
import { WebhookReceiver, webhookEndpointFactory } from './factories/webhooks.js';
import { startTestServer, TEST_SECRET, usingServerDatabase } from './harness.js';

/**
 * Durability: `tessera serve` as a real subprocess delivers to a slow receiver; it is SIGKILLed while
 * deliveries are in flight and restarted on the same DATA_DIR (or database), or (PostgreSQL) another
 * worker takes over from the dead one. Every event still reaches the receiver, at least once, every
 * repeat carries the same webhook-id, and each endpoint's first arrivals keep its order.
 */
const CLI = ['--import', 'tsx', 'apps/api/src/cli.ts'];
const children = new Set<ChildProcess>();

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

async function kill(child: ChildProcess): Promise<void> {
  if (alive(child)) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  children.delete(child);
}

afterEach(async () => {
  await Promise.all([...children].map(kill));
});

function launch(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [...CLI, ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return { child, output: () => output };
}

async function serve(env: NodeJS.ProcessEnv, url: string): Promise<ChildProcess> {
  const { child, output } = launch(['serve'], env);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (!alive(child)) throw new Error(`serve exited:\n${output()}`);
    try {
      if ((await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) })).status === 200) return child;
    } catch {
      // not yet listening
    }
    if (Date.now() > deadline) throw new Error(`serve not ready:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** `tessera serve --role worker` (no HTTP): ready once it logged its start. */
async function worker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const { child, output } = launch(['serve', '--role', 'worker'], env);
  const deadline = Date.now() + 60_000;
  while (!output().includes('tessera started')) {
    if (!alive(child)) throw new Error(`worker exited:\n${output()}`);
    if (Date.now() > deadline) throw new Error(`worker not started:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return child;
}

async function cli(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const { child, output } = launch(args, env);
  const code = await new Promise((resolve) => child.once('close', resolve));
  children.delete(child);
  if (code !== 0) throw new Error(`${args.join(' ')} failed:\n${output()}`);
  return output();
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

it('delivers every event after a SIGKILL mid-delivery, with stable webhook-ids', { timeout: 120_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'twh-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  const databaseName = `tessera_wh_${randomBytes(6).toString('hex')}`;
  const receiver = await new WebhookReceiver().start();
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
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      WEBHOOK_RETRY_SCHEDULE: '0.2,0.5,1,1,1,1,1,1',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
    const base = `http://127.0.0.1:${port}`;
    let server = await serve(env, base);
    const org = JSON.parse(await cli(['org', 'create', '--name', 'Durable', '--slug', 'durable', '--json'], env)) as {
      access_token: string;
    };
    const headers = { authorization: `Bearer ${org.access_token}`, 'content-type': 'application/json' };

    // A slow receiver: each delivery is in flight for a while.
    receiver.respond = () => ({ status: 200, delayMs: 1_500 });
    const endpoint = await fetch(`${base}/v1/webhooks/endpoints`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        url: `${receiver.url}/hook`,
        format: 'raw',
        secret: 'whsec_durable',
        events: ['customer.created'],
      }),
    });
    expect(endpoint.status).toBe(201);
    const emails = ['a', 'b', 'c', 'd'].map((name) => `${name}@example.com`);
    for (const email of emails) {
      const response = await fetch(`${base}/v1/customers/`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email }),
      });
      expect(response.status).toBe(201);
    }

    // Kill while a delivery is in flight (the receiver has the request but has not answered yet).
    await expect.poll(() => receiver.received.length, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(2);
    await kill(server);
    const beforeRestart = receiver.received.length;
    expect(beforeRestart).toBeLessThan(emails.length * 2);

    receiver.respond = () => ({ status: 200 });
    server = await serve(env, base);
    const delivered = () =>
      new Set(receiver.received.map((r) => (JSON.parse(r.body) as { data: { email: string } }).data.email));
    // The attempt cut short left a lease (attempt timeout 10 s + 5 s); once it expires the restarted
    // server's poll (every 2 s) takes the endpoint back.
    await expect.poll(() => delivered().size, { timeout: 45_000, interval: 100 }).toBe(emails.length);
    expect([...delivered()].sort()).toEqual(emails);
    // The attempt cut short by the kill was made again (at least once means some repeats).
    expect(receiver.received.length).toBeGreaterThan(emails.length);

    // One webhook-id per event, identical on every repeat.
    const idsByEmail = new Map<string, Set<string>>();
    for (const request of receiver.received) {
      const email = (JSON.parse(request.body) as { data: { email: string } }).data.email;
      idsByEmail.set(email, (idsByEmail.get(email) ?? new Set()).add(String(request.headers['webhook-id'])));
    }
    for (const ids of idsByEmail.values()) expect(ids.size).toBe(1);
    expect(new Set([...idsByEmail.values()].map((ids) => [...ids][0])).size).toBe(emails.length);
    // FIFO held across the restart: first arrivals are in creation order.
    const firstSeen = [...new Map(receiver.received.map((r) => [JSON.parse(r.body).data.email, true])).keys()];
    expect(firstSeen).toEqual(emails);
    await kill(server);
  } finally {
    await Promise.all([...children].map(kill));
    await receiver.stop();
    if (adminUrl) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await admin.end();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
});

it.skipIf(!usingServerDatabase())(
  'delivers every committed event, in order per endpoint, when a worker dies mid-batch and another takes over',
  { timeout: 90_000 },
  async () => {
    // This process writes the events (no delivery worker of its own); the workers are subprocesses.
    const server = await startTestServer({ clock: systemClock, work: false });
    const receiver = await new WebhookReceiver().start();
    const dataDir = mkdtempSync(join(tmpdir(), 'twh-'));
    try {
      const db = server.runtime.database.db;
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        DATA_DIR: dataDir,
        SECRET: TEST_SECRET,
        DATABASE_URL: server.config.databaseUrl,
        // The lease an attempt leaves is the attempt timeout + 5 s: 8 s here instead of 15 s.
        WEBHOOK_TIMEOUT_MS: '3000',
        WEBHOOK_RETRY_SCHEDULE: '0.2,0.5,1,1,1,1,1,1',
      };
      const { organization } = await organizationFactory(server, { name: 'Takeover' });
      const endpoint = (path: string) =>
        webhookEndpointFactory(server, organization.id, { url: `${receiver.url}${path}`, events: ['order.paid'] });
      const paths = ['/a', '/b', '/c'];
      const endpoints = new Map<string, string>();
      for (const path of paths) endpoints.set((await endpoint(path)).id, path);

      /** Paid renewals committed together, as a billing group commits them. */
      const renewals = (count: number) =>
        db.transaction().execute(async (tx) => {
          for (let n = 0; n < count; n++) {
            await recordWebhookEvent(server.runtime.context(tx), organization.id, 'order.paid', {
              id: randomUUID(),
              billing_reason: 'subscription_cycle',
            });
          }
        });

      // Each endpoint answers its first five requests, then holds the sixth: the worker dies with a
      // batch half sent (five delivered but not recorded, one in flight).
      let release!: () => void;
      const killed = new Promise<void>((resolve) => (release = resolve));
      const onPath = (path: string) => receiver.received.filter((request) => request.path === path);
      receiver.respond = (request) =>
        onPath(request.path).length > 5 ? { status: 200, after: killed } : { status: 200 };

      const first = await worker(env);
      await renewals(20);
      // Killed once every endpoint's sixth request is in flight (seen by the receiver, not guessed by a clock).
      await expect
        .poll(() => paths.every((path) => onPath(path).length >= 6), { timeout: 30_000, interval: 10 })
        .toBe(true);
      await kill(first);
      const beforeKill = receiver.received.length;
      release();

      // What the dead worker left: every event still pending, each endpoint under a lease not yet expired.
      const left = await db.selectFrom('webhook_endpoints').select(['id', 'delivering_until']).execute();
      const leases = new Map(left.map((row) => [row.id, row.delivering_until!.getTime()]));
      for (const id of endpoints.keys()) expect(leases.get(id)).toBeGreaterThan(Date.now());
      const recorded = await db
        .selectFrom('webhook_endpoint_events')
        .select('id')
        .where('status', '<>', 'pending')
        .execute();
      expect(recorded).toEqual([]);

      // Committed with no worker alive (their notifications reach no one), one endpoint never leased.
      endpoints.set((await endpoint('/d')).id, '/d');
      await renewals(10);
      const second = await worker(env);

      const committed = await db
        .selectFrom('webhook_endpoint_events')
        .select(['id', 'endpoint_id'])
        .orderBy('seq')
        .execute();
      expect(committed).toHaveLength(3 * 30 + 10);
      const expected = (path: string) =>
        committed.filter((row) => endpoints.get(row.endpoint_id) === path).map((row) => row.id);
      const firstArrivals = (path: string) => [...new Set(onPath(path).map((r) => String(r.headers['webhook-id'])))];
      const missing = () =>
        [...endpoints.values()].flatMap((path) => {
          const seen = new Set(firstArrivals(path));
          return expected(path).filter((id) => !seen.has(id));
        });
      await expect.poll(() => missing().length, { timeout: 40_000, interval: 50 }).toBe(0);

      for (const [id, path] of endpoints) {
        // Every committed event at least once, first arrivals in commit order.
        expect(firstArrivals(path)).toEqual(expected(path));
        if (path === '/d') continue;
        // The dead worker's lease was waited out: nothing reached its endpoints before it expired (a
        // worker alive but slow keeps its endpoint), and what it sent unrecorded was sent again.
        const after = receiver.received.slice(beforeKill).filter((request) => request.path === path);
        for (const request of after) expect(request.at).toBeGreaterThanOrEqual(leases.get(id)!);
        const redelivered = new Set(after.map((request) => request.headers['webhook-id']));
        for (const request of onPath(path).slice(0, 6))
          expect(redelivered.has(request.headers['webhook-id'])).toBe(true);
      }
      await expect
        .poll(
          async () =>
            (await db.selectFrom('webhook_endpoint_events').select('id').where('status', '<>', 'delivered').execute())
              .length,
          { timeout: 10_000, interval: 50 },
        )
        .toBe(0);
      await kill(second);
    } finally {
      await Promise.all([...children].map(kill));
      await receiver.stop();
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
);
