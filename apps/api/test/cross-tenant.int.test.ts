import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { changedTables, databaseFingerprint } from './fuzz/fingerprint.js';
import { credentialHeaders, loadDocument, operationsOf, WRITE_METHODS, type Operation } from './fuzz/openapi.js';
import { buildWorld, fillPath, pathPlaceholders, worldValue, type World } from './fuzz/world.js';
import { userFactory, type UserFixture } from './factories/users.js';

/**
 * Tenant isolation over the whole contract: every operation of openapi.json that takes an id in its
 * path, called with organization B's credentials on organization A's resources, is a 404 and changes
 * nothing. Operations come from the document, so a new route is covered (or fails here, asking for a
 * way to produce its id in test/fuzz/world.ts) without anyone remembering to add it.
 */

/** Path values that are not tenant-scoped ids, and why. Nothing else may be skipped. */
const NOT_TENANT_SCOPED: Record<string, string> = {
  '/v1/checkouts/client/{client_secret}':
    "the client secret is the buyer's credential: whoever holds it may act on that checkout, and nothing else",
  '/v1/customer-portal/organizations/{slug}': "an organization's public portal page, read without credentials",
  '/v1/organization-invites/{token}':
    "the invitation link is the invitee's credential: it shows one invitation and joins only the invited address",
  '/v1/customer-portal/downloadables/{token}':
    'the signed download token is the permission, as a download link opened by the browser without credentials',
  '/v1/oauth2/register/{client_id}':
    "a user's OAuth client, not an organization's: RFC 7592 answers 401 to whoever may not manage it (oauth2.int.test.ts)",
};

/** A body that passes validation (so the lookup decides the answer) for writes where `{}` does not. */
const VALID_BODIES: Record<string, unknown> = {
  'POST /v1/products/{id}/benefits': { benefits: [] },
  'PATCH /v1/benefits/{id}': { type: 'license_keys' },
  'POST /v1/files/{id}/uploaded': {
    id: 'upload',
    path: 'path',
    parts: [{ number: 1, checksum_etag: 'etag', checksum_sha256_base64: null }],
  },
  'PATCH /v1/orders/{id}': { billing_name: 'Buyer', billing_address: { country: 'FR' } },
  'PATCH /v1/event-types/{id}': { label: 'Renamed' },
  'PATCH /v1/subscriptions/{id}': { cancel_at_period_end: true },
  'PATCH /v1/customer-portal/subscriptions/{id}': { cancel_at_period_end: true },
  'PATCH /v1/customer-portal/orders/{id}': { billing_name: 'Buyer', billing_address: { country: 'FR' } },
  'PATCH /v1/customer-portal/benefit-grants/{id}': { benefit_type: 'license_keys' },
  'POST /v1/organizations/{id}/invites': { email: 'someone@example.com' },
  'PATCH /v1/organizations/{id}/members/{user_id}': { role: 'owner' },
};

/** A query that passes validation, for reads whose query has required values. */
const VALID_QUERIES: Record<string, string> = {
  'GET /v1/meters/{id}/quantities':
    'start_timestamp=2026-01-01T00:00:00Z&end_timestamp=2026-01-31T00:00:00Z&interval=day',
};

const operations = operationsOf(loadDocument()).filter((op) => pathPlaceholders(op.path).length > 0);
const key = (op: Operation) => `${op.method} ${op.path}`;
const tenantScoped = (op: Operation) => pathPlaceholders(op.path).every(({ source }) => !(source in NOT_TENANT_SCOPED));
const scoped = operations.filter(tenantScoped);

let server: TestServer;
let a: World;
let b: World;
/** Was a member of A, removed before the tests run. */
let removed: UserFixture;

beforeAll(async () => {
  // No workers: nothing changes the database but the requests themselves.
  server = await startTestServer({ work: false });
  a = await buildWorld(server, 'Alpha');
  b = await buildWorld(server, 'Bravo');
  removed = await formerMemberOf(a);
});

/** Invited to A, accepted, then removed by A's owner: what a teammate who left the company holds. */
async function formerMemberOf(world: World): Promise<UserFixture> {
  const user = await userFactory(server);
  const invited = await server.inject({
    method: 'POST',
    url: `/v1/organizations/${world.organizationId}/invites`,
    headers: world.user.headers,
    payload: { email: user.email },
  });
  expect(invited.statusCode).toBe(201);
  const emails = await server.runtime.database.db
    .selectFrom('emails')
    .select(['text_body', 'to_addresses'])
    .where('template', '=', 'organization_invite')
    .where('organization_id', '=', world.organizationId)
    .execute();
  const email = emails.find((row) => row.to_addresses.includes(user.email))!;
  const token = /\/invite\/(polar_inv_[0-9A-Za-z]+)/.exec(email.text_body)![1]!;
  const accepted = await server.inject({
    method: 'POST',
    url: `/v1/organization-invites/${token}/accept`,
    headers: user.headers,
  });
  expect(accepted.statusCode).toBe(200);
  const member = await server.inject({
    method: 'GET',
    url: `/v1/organizations/${world.organizationId}`,
    headers: user.headers,
  });
  expect(member.statusCode).toBe(200);
  const removal = await server.inject({
    method: 'DELETE',
    url: `/v1/organizations/${world.organizationId}/members/${user.id}`,
    headers: world.user.headers,
  });
  expect(removal.statusCode).toBe(204);
  return user;
}
afterAll(async () => {
  await server?.stop();
});

function call(op: Operation, caller: World, owner: World) {
  const body = op.body ? (VALID_BODIES[key(op)] ?? {}) : undefined;
  return server.inject({
    method: op.method,
    url:
      fillPath(op.path, (_name, source) => worldValue(owner, source)) +
      (VALID_QUERIES[key(op)] ? `?${VALID_QUERIES[key(op)]}` : ''),
    headers: credentialHeaders(op, caller),
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
}

describe('cross-tenant access over every operation with a path id', () => {
  it('knows how to produce every path value of the document', () => {
    const missing = operations.flatMap((op) =>
      pathPlaceholders(op.path)
        .filter(({ source }) => !(source in NOT_TENANT_SCOPED))
        .flatMap(({ source }) => {
          try {
            worldValue(a, source);
            return [];
          } catch (error) {
            return [`${key(op)}: ${(error as Error).message}`];
          }
        }),
    );
    expect(missing).toEqual([]);
    expect(scoped.length).toBeGreaterThan(40);
  });

  it("answers 404 to B's credentials on A's resources, and writes change nothing", async () => {
    const wrong: string[] = [];
    // Reads first, then writes, deletes last: a leak in a delete must not hide one elsewhere.
    const order = (op: Operation) => (op.method === 'GET' ? 0 : op.method === 'DELETE' ? 2 : 1);
    for (const op of [...scoped].sort((x, y) => order(x) - order(y))) {
      const before = WRITE_METHODS.has(op.method) ? await databaseFingerprint(server.runtime.database.pool) : null;
      const response = await call(op, b, a);
      if (response.statusCode !== 404) wrong.push(`${key(op)}: ${response.statusCode} ${response.body.slice(0, 200)}`);
      else expect(JSON.parse(response.body)).toMatchObject({ error: 'ResourceNotFound', detail: expect.any(String) });
      if (before) {
        const changed = changedTables(before, await databaseFingerprint(server.runtime.database.pool));
        if (changed.length > 0) wrong.push(`${key(op)} changed ${changed.join(', ')}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("answers 404 to dashboard sessions of B's member and of A's removed member, and writes change nothing", async () => {
    const sessionOperations = scoped.filter((op) =>
      op.security.some((alternative) => alternative.some((scheme) => scheme === 'session_cookie')),
    );
    expect(sessionOperations.length).toBeGreaterThan(40);
    const wrong: string[] = [];
    const order = (op: Operation) => (op.method === 'GET' ? 0 : op.method === 'DELETE' ? 2 : 1);
    for (const op of [...sessionOperations].sort((x, y) => order(x) - order(y))) {
      for (const [who, headers] of [
        ["B's member", b.user.headers],
        ["A's removed member", removed.headers],
      ] as const) {
        const before = WRITE_METHODS.has(op.method) ? await databaseFingerprint(server.runtime.database.pool) : null;
        const body = op.body ? (VALID_BODIES[key(op)] ?? {}) : undefined;
        const response = await server.inject({
          method: op.method,
          url:
            fillPath(op.path, (_name, source) => worldValue(a, source)) +
            (VALID_QUERIES[key(op)] ? `?${VALID_QUERIES[key(op)]}` : ''),
          headers,
          ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
        });
        if (response.statusCode !== 404)
          wrong.push(`${key(op)} (${who}): ${response.statusCode} ${response.body.slice(0, 200)}`);
        if (before) {
          const changed = changedTables(before, await databaseFingerprint(server.runtime.database.pool));
          if (changed.length > 0) wrong.push(`${key(op)} (${who}) changed ${changed.join(', ')}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("reaches the same resources with A's own credentials (the ids are real)", async () => {
    const wrong: string[] = [];
    const order = (op: Operation) => (op.method === 'GET' ? 0 : op.method === 'DELETE' ? 2 : 1);
    for (const op of [...scoped].sort((x, y) => order(x) - order(y))) {
      const response = await call(op, a, a);
      // A 404 of the operation's own (no invoice yet) still shows the resource was found.
      const notFound = response.statusCode === 404 && JSON.parse(response.body).error === 'ResourceNotFound';
      if (notFound || response.statusCode >= 500)
        wrong.push(`${key(op)}: ${response.statusCode} ${response.body.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
  });
});
