import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/paths.js';
import { WebhookReceiver } from './factories/webhooks.js';

/**
 * Durability: `tessera serve` as a real subprocess delivers to a slow receiver; it is SIGKILLed while
 * deliveries are in flight and restarted on the same DATA_DIR (or database). Every event still reaches
 * the receiver, at least once, and every repeat carries the same webhook-id.
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
    // The attempt cut short left a lease (attempt timeout 10 s + 5 s); once it expires the sweep (every
    // 10 s) brings the endpoint back, without waiting for pg-boss to expire the lost job.
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
