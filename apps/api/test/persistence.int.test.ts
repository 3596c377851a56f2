import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { hashToken } from '../src/platform/auth/tokens.js';
import { organizationFactory, tokenFactory } from './factories/organizations.js';
import { userFactory } from './factories/users.js';
import {
  bearer,
  json,
  reusableServerDatabase,
  startTestServer,
  TEST_SECRET,
  usingServerDatabase,
  type TestServer,
} from './harness.js';

/** Durability of the embedded database across restarts, and tokens kept only as keyed hashes. */

const TEST_TIMEOUT = 120_000;
const TOKEN_PREFIX = 'polar_oat_';

function tempDir(): string {
  // Short path: the embedded database's unix socket lives in DATA_DIR/run.
  return mkdtempSync(join(tmpdir(), 'tpst-'));
}

/** Every regular file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...filesUnder(path));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

describe('durability', () => {
  it(
    'keeps data across a restart on the same data directory',
    async () => {
      const dataDir = tempDir();
      const database = await reusableServerDatabase();
      const servers: TestServer[] = [];
      try {
        const first = await startTestServer({ dataDir, databaseUrl: database?.url });
        servers.push(first);
        const { organization, token } = await organizationFactory(first);
        const patch = {
          name: 'Renamed Before Restart',
          website: 'https://acme.example.com',
          feature_settings: { usage_based_billing_enabled: true },
          subscription_settings: {
            allow_multiple_subscriptions: true,
            allow_customer_updates: false,
            proration_behavior: 'invoice',
          },
        };
        const patched = await first.inject({
          method: 'PATCH',
          url: `/v1/organizations/${organization.id}`,
          headers: bearer(token),
          payload: patch,
        });
        expect(patched.statusCode).toBe(200);
        expect(json(patched)).toMatchObject(patch);
        await first.stop();

        const second = await startTestServer({ dataDir, databaseUrl: database?.url });
        servers.push(second);
        const response = await second.inject({
          method: 'GET',
          url: `/v1/organizations/${organization.id}`,
          headers: bearer(token),
        });
        expect(response.statusCode).toBe(200);
        expect(json(response)).toMatchObject({
          id: organization.id,
          slug: organization.slug,
          name: 'Renamed Before Restart',
          website: 'https://acme.example.com',
          feature_settings: { issue_funding_enabled: false, usage_based_billing_enabled: true },
          subscription_settings: patch.subscription_settings,
        });
        expect(json(response)).toEqual(json(patched));
      } finally {
        // stop() is idempotent: the first server may already be stopped.
        for (const server of servers) await server.stop();
        await database?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    TEST_TIMEOUT,
  );
});

describe('token secrecy', () => {
  it.skipIf(usingServerDatabase())(
    'stores no token in clear anywhere under DATA_DIR',
    async () => {
      const dataDir = tempDir();
      let server: TestServer | undefined;
      try {
        server = await startTestServer({ dataDir });
        const { organization, token } = await organizationFactory(server);
        const readOnly = await tokenFactory(server, organization.id, ['organizations:read']);
        const user = await userFactory(server);
        const session = user.cookie.slice('tessera_session='.length);
        const tokens = [token, readOnly];

        // Use every credential, so that whatever a request writes (last_used_at, sessions) is on disk.
        for (const used of tokens) {
          const response = await server.inject({
            method: 'GET',
            url: `/v1/organizations/${organization.id}`,
            headers: bearer(used),
          });
          expect(response.statusCode).toBe(200);
        }
        const patched = await server.inject({
          method: 'PATCH',
          url: `/v1/organizations/${organization.id}`,
          headers: bearer(token),
          payload: { name: 'Secret Keeping Org' },
        });
        expect(patched.statusCode).toBe(200);
        const me = await server.inject({ method: 'GET', url: '/v1/auth/me', headers: { cookie: user.cookie } });
        expect(me.statusCode).toBe(200);

        const rows = await server.runtime.database.db
          .selectFrom('organization_access_tokens')
          .select(['token_hash'])
          .where('organization_id', '=', organization.id)
          .execute();
        expect(rows).toHaveLength(tokens.length);
        const hashes = rows.map((row) => row.token_hash);
        for (const hash of hashes) {
          expect(hash).toMatch(/^[0-9a-f]{64}$/);
          expect(tokens).not.toContain(hash);
        }
        expect(hashes.sort()).toEqual(tokens.map((t) => hashToken(t, TEST_SECRET)).sort());

        await server.stop();
        server = undefined;

        const files = filesUnder(dataDir);
        const contents = files.map((file) => ({ file, bytes: readFileSync(file) }));
        // The scan can see stored text at all: each hash, stored as text, is found on disk.
        for (const hash of hashes)
          expect(
            contents.some(({ bytes }) => bytes.includes(hash)),
            hash,
          ).toBe(true);

        const secrets = [
          ...tokens.flatMap((t) => {
            expect(t.startsWith(TOKEN_PREFIX)).toBe(true);
            return [t, t.slice(TOKEN_PREFIX.length)];
          }),
          session,
          session.replace(/^polar_us_/, ''),
          user.password,
        ];
        for (const { file, bytes } of contents) {
          for (const secret of secrets) {
            expect(bytes.includes(secret), `${secret} found in clear in ${file}`).toBe(false);
          }
        }
      } finally {
        await server?.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    TEST_TIMEOUT,
  );
});

describe('generated secret', () => {
  it('creates DATA_DIR/secret readable by its owner only and reuses it', () => {
    const root = tempDir();
    try {
      const dir = join(root, 'data');
      const first = loadConfig({ DATA_DIR: dir });
      const file = join(dir, 'secret');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(first.secret.length).toBeGreaterThanOrEqual(32);
      expect(readFileSync(file, 'utf8').trim()).toBe(first.secret);

      const second = loadConfig({ DATA_DIR: dir });
      expect(second.secret).toBe(first.secret);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
