import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { migrateTo } from '../src/migrate-to.js';
import { openEmbedded, type EmbeddedDatabase } from '../src/platform/db/embedded.js';
import { REPO_ROOT } from '../src/paths.js';
import { TargetNotEmpty } from '../src/platform/db/copy-database.js';
import { createServerDatabase } from './database-template.js';
import { purchaseFactory } from './factories/benefit-grants.js';
import { customerFactory } from './factories/customers.js';
import { organizationFactory } from './factories/organizations.js';
import { bearer, json, startTestServer, TEST_SECRET, type TestServer } from './harness.js';

/**
 * `tessera migrate-to`: an embedded installation populated through the API, copied into an empty
 * server database (a fresh PostgreSQL database with TEST_DATABASE_URL, else a second embedded database
 * reached by URL), then read back through the API of a server started on the copy.
 */

const TEST_TIMEOUT = 180_000;
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

function tempDir(prefix: string): string {
  // Short path: the embedded database's unix socket lives under it.
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** An empty database reachable by a postgres:// URL. */
async function emptyTarget(): Promise<string> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const database = await createServerDatabase(adminUrl, { prefix: 'tessera_migrate_to' });
    cleanups.push(() => database.drop());
    return database.url;
  }
  const socketDir = join(tempDir('tmt-'), 'run');
  const embedded: EmbeddedDatabase = await openEmbedded({ socketDir });
  cleanups.push(() => embedded.stop());
  return `postgres://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}`;
}

/** Runs `tessera migrate-to` as the operator would. */
function runMigrateTo(
  dataDir: string,
  databaseUrl: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'apps/api/src/cli.ts', 'migrate-to', '--database-url', databaseUrl, '--batch-size', '7'],
    {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: dataDir,
        SECRET: TEST_SECRET,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** What the API answers for these paths, keyed by path. */
async function readAll(server: TestServer, token: string, paths: string[]): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  for (const path of paths) {
    const response = await server.inject({ method: 'GET', url: path, headers: bearer(token) });
    expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
    answers[path] = json(response);
  }
  return answers;
}

describe('tessera migrate-to', () => {
  it(
    'copies a populated embedded installation into an empty database that serves the same answers',
    async () => {
      const dataDir = tempDir('tmf-');
      // No workers on either side: a delivery attempt or a periodic task between the reads would change
      // what is compared (the purchases below settle without them).
      const source = await startTestServer({ dataDir, work: false });
      let sourceStopped = false;
      cleanups.push(async () => {
        if (!sourceStopped) await source.stop();
      });

      const org = await organizationFactory(source);
      const other = await organizationFactory(source);
      await customerFactory(source, org.organization.id);
      await purchaseFactory(source, org, [], { recurring: true });
      await purchaseFactory(source, org, []);
      await purchaseFactory(source, other, [], { recurring: true });
      const endpoint = await source.inject({
        method: 'POST',
        url: '/v1/webhooks/endpoints',
        headers: bearer(org.token),
        payload: {
          url: 'https://receiver.example.com/hook',
          format: 'raw',
          secret: 'a-webhook-signing-secret',
          events: ['order.paid', 'customer.created'],
        },
      });
      expect(endpoint.statusCode, endpoint.body).toBe(201);
      // A customer after the endpoint exists: a webhook event and its queued delivery.
      const customer = await customerFactory(source, org.organization.id);
      const ingested = await source.inject({
        method: 'POST',
        url: '/v1/events/ingest',
        headers: bearer(org.token),
        payload: {
          events: Array.from({ length: 20 }, (_, i) => ({
            name: 'api_call',
            customer_id: customer.id,
            metadata: { n: i, ratio: 0.1 + i },
          })),
        },
      });
      expect(ingested.statusCode, ingested.body).toBe(200);

      const paths = [
        `/v1/organizations/${org.organization.id}`,
        '/v1/products/?limit=100',
        '/v1/customers/?limit=100',
        '/v1/orders/?limit=100',
        '/v1/subscriptions/?limit=100',
        '/v1/webhooks/endpoints?limit=100',
        '/v1/webhooks/deliveries?limit=100',
        '/v1/events/?limit=100',
        '/v1/payments/?limit=100',
      ];
      const before = await readAll(source, org.token, paths);
      const beforeOther = await readAll(source, other.token, ['/v1/orders/?limit=100', '/v1/subscriptions/?limit=100']);
      const jwks = (await source.inject({ method: 'GET', url: '/.well-known/jwks.json' })).body;
      await source.stop();
      sourceStopped = true;

      const targetUrl = await emptyTarget();
      const migrated = await runMigrateTo(dataDir, targetUrl);
      expect(migrated.code, migrated.stderr).toBe(0);
      expect(migrated.stdout).toMatch(/^copied \d+ rows in \d+ tables/);
      expect(migrated.stderr).toContain('public.orders: ');

      const target = await startTestServer({ databaseUrl: targetUrl, work: false });
      cleanups.push(() => target.stop());
      // The same tokens (kept as keyed hashes) authenticate, and every answer is the same.
      expect(await readAll(target, org.token, paths)).toEqual(before);
      expect(await readAll(target, other.token, ['/v1/orders/?limit=100', '/v1/subscriptions/?limit=100'])).toEqual(
        beforeOther,
      );
      expect((await target.inject({ method: 'GET', url: '/.well-known/jwks.json' })).body).toBe(jwks);

      // The copy keeps working: a new customer, and its webhook event after the copied ones.
      const added = await target.inject({
        method: 'POST',
        url: '/v1/customers/',
        headers: bearer(org.token),
        payload: { email: 'after-move@example.com' },
      });
      expect(added.statusCode, added.body).toBe(201);
      const seqs = await target.runtime.database.db.selectFrom('webhook_endpoint_events').select('seq').execute();
      // Identity values continue after the copied ones (an endpoint's delivery order depends on it).
      expect(seqs.length).toBeGreaterThanOrEqual(2);
      expect(new Set(seqs.map((row) => row.seq)).size).toBe(seqs.length);

      // A second run refuses the database it filled, and changes nothing.
      const again = await runMigrateTo(dataDir, targetUrl);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/^error: the target database is not empty/);
      expect(await readAll(target, org.token, ['/v1/orders/?limit=100'])).toEqual({
        '/v1/orders/?limit=100': before['/v1/orders/?limit=100'],
      });
    },
    TEST_TIMEOUT,
  );

  it(
    'refuses a target that is not empty before touching it',
    async () => {
      const dataDir = tempDir('tmf-');
      const targetUrl = await emptyTarget();
      const other = await startTestServer({ databaseUrl: targetUrl });
      cleanups.push(() => other.stop());
      const org = await organizationFactory(other);
      const config = loadConfig({ NODE_ENV: 'test' }, { dataDir, secret: TEST_SECRET, logLevel: 'silent' });
      await expect(migrateTo(config, targetUrl)).rejects.toBeInstanceOf(TargetNotEmpty);
      const still = await other.inject({
        method: 'GET',
        url: `/v1/organizations/${org.organization.id}`,
        headers: bearer(org.token),
      });
      expect(still.statusCode).toBe(200);
    },
    TEST_TIMEOUT,
  );
});
