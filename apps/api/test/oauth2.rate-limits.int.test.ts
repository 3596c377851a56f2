import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientIdentity, OAUTH2_RATE_LIMITS } from '../src/modules/oauth2/oauth2.rate-limits.js';
import { startTestServer, type TestServer } from './harness.js';
import { userFactory, type UserFixture } from './factories/users.js';
import { registerClient, type RegisteredClient } from './support/oauth2.js';

/**
 * The token, introspection and revocation endpoints are limited per address and per client, counted in
 * the shared rate-limit store (built-in limits: scale 1). Most of a window's count is written to the
 * store as other nodes would, so a test needs a few requests, not hundreds.
 */
let server: TestServer;
let user: UserFixture;
let client: RegisteredClient;

const limitOf = (name: string) => OAUTH2_RATE_LIMITS.find((rule) => rule.name === name)!.limits[0]!.limit;
const PER_IP = limitOf('oauth2:ip');
const PER_CLIENT = limitOf('oauth2:client');

beforeAll(async () => {
  server = await startTestServer({ config: { rateLimits: { apiPerMinute: 1_000_000, scale: 1 } } });
  user = await userFactory(server);
  client = await registerClient(server, user);
});
afterAll(() => server?.stop());

let ipCounter = 0;
/** Each test calls from addresses of its own, so per-address counters do not carry over. */
const newIp = () => `10.77.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

function call(
  path: 'token' | 'introspect' | 'revoke',
  ip: string,
  values: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return server.inject({
    method: 'POST',
    url: `/v1/oauth2/${path}`,
    remoteAddress: ip,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(values).toString(),
  });
}

function expectRefused(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual({ error: 'too_many_requests', error_description: expect.any(String) });
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(response.headers['ratelimit-remaining']).toBe('0');
}

const paths = ['token', 'introspect', 'revoke'] as const;

/**
 * Counts other nodes made in this window: the shared store's counter of `key`, set to `count` (the
 * server counts in the same row, so a count from elsewhere refuses here).
 */
async function countedElsewhere(key: string, count: number): Promise<void> {
  const now = server.clock.now().getTime();
  const windowStart = new Date(Math.floor(now / 60_000) * 60_000);
  await server.runtime.database.pool.query(
    `INSERT INTO rate_limits (key, window_start, count, expires_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (key, window_start) DO UPDATE SET count = EXCLUDED.count`,
    [key, windowStart, count, new Date(windowStart.getTime() + 60_000)],
  );
}

describe('OAuth2 endpoint rate limits', () => {
  it('limits one address across the three endpoints, whatever the client', async () => {
    const ip = newIp();
    // Most of the address's minute spent on other nodes; the last requests here, each naming another client.
    await countedElsewhere(`oauth2:ip:60:${ip}`, PER_IP - 3);
    for (let i = 0; i < 3; i += 1) {
      const response = await call(paths[i]!, ip, { token: 'x', client_id: `polar_ci_unknown${i}`, client_secret: 's' });
      expect(response.statusCode).not.toBe(429);
    }
    expectRefused(
      await call('token', ip, { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'polar_ci_next' }),
    );
    expectRefused(
      await call('introspect', ip, { token: 'x', client_id: client.client_id, client_secret: client.client_secret }),
    );
    // Another address is not affected.
    const other = await call('introspect', newIp(), {
      token: 'x',
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    expect(other.statusCode).toBe(200);
  });

  it('limits one client across addresses, named in the body or the Basic header', async () => {
    const target = await registerClient(server, user);
    const basic = `Basic ${Buffer.from(`${target.client_id}:${target.client_secret}`).toString('base64')}`;
    await countedElsewhere(`oauth2:client:60:${clientIdentity(target.client_id)}`, PER_CLIENT - 2);
    expect(
      (
        await call('introspect', newIp(), {
          token: 'x',
          client_id: target.client_id,
          client_secret: target.client_secret,
        })
      ).statusCode,
    ).toBe(200);
    expect((await call('revoke', newIp(), { token: 'x' }, { authorization: basic })).statusCode).toBe(200);
    expectRefused(
      await call('introspect', newIp(), {
        token: 'x',
        client_id: target.client_id,
        client_secret: target.client_secret,
      }),
    );
    expectRefused(
      await call('token', newIp(), { grant_type: 'refresh_token', refresh_token: 'x' }, { authorization: basic }),
    );
    // Other clients are not affected.
    const other = await call('introspect', newIp(), {
      token: 'x',
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    expect(other.statusCode).toBe(200);
  });

  it('counts every request in the shared store, refused or not', async () => {
    const ip = newIp();
    for (let i = 0; i < 5; i += 1) {
      await call('introspect', ip, { token: 'x', client_id: client.client_id, client_secret: 'wrong' });
    }
    const { rows } = await server.runtime.database.pool.query(
      `SELECT key, count FROM rate_limits WHERE key = $1 OR key = $2`,
      [`oauth2:ip:60:${ip}`, `oauth2:client:60:${clientIdentity(client.client_id)}`],
    );
    expect(rows).toContainEqual({ key: `oauth2:ip:60:${ip}`, count: 5 });
    expect(rows.find((row: { key: string }) => row.key.startsWith('oauth2:client:'))?.count).toBeGreaterThanOrEqual(5);
  });
});
