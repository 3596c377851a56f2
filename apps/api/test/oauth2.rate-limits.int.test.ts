import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAUTH2_RATE_LIMITS } from '../src/modules/oauth2/oauth2.rate-limits.js';
import { startTestServer, type TestServer } from './harness.js';
import { userFactory, type UserFixture } from './factories/users.js';
import { registerClient, type RegisteredClient } from './support/oauth2.js';

/**
 * The token, introspection and revocation endpoints are limited per address and per client, counted in
 * the shared rate-limit store (built-in limits: scale 1).
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

describe('OAuth2 endpoint rate limits', () => {
  it('limits one address across the three endpoints, whatever the client', async () => {
    const ip = newIp();
    for (let i = 0; i < PER_IP; i += 1) {
      // A different (unknown) client each time: only the address's counter can refuse.
      const response = await call(paths[i % 3]!, ip, {
        token: 'x',
        client_id: `polar_ci_unknown${i}`,
        client_secret: 's',
      });
      expect(response.statusCode).not.toBe(429);
    }
    expectRefused(
      await call('token', ip, { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'polar_ci_next' }),
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
    let ip = newIp();
    for (let i = 0; i < PER_CLIENT; i += 1) {
      if (i % (PER_IP - 1) === 0) ip = newIp();
      const response =
        i % 2 === 0
          ? await call('introspect', ip, {
              token: 'x',
              client_id: target.client_id,
              client_secret: target.client_secret,
            })
          : await call('revoke', ip, { token: 'x' }, { authorization: basic });
      expect(response.statusCode).toBe(200);
    }
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

  it('counts in the shared store, so every node sees the same count', async () => {
    const ip = newIp();
    await call('introspect', ip, { token: 'x', client_id: client.client_id, client_secret: client.client_secret });
    const { rows } = await server.runtime.database.pool.query(
      `SELECT key, count FROM rate_limits WHERE key LIKE 'oauth2:ip:%' AND key LIKE $1`,
      [`%:${ip}`],
    );
    expect(rows).toEqual([{ key: `oauth2:ip:60:${ip}`, count: 1 }]);
  });
});
