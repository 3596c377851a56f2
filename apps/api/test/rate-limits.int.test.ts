import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { z } from 'zod/v4';
import { authRoutes } from '../src/modules/auth/auth.routes.js';
import { routes } from '../src/modules/index.js';
import { PUBLIC } from '../src/platform/auth/subject.js';
import { defineRoute } from '../src/platform/http/route.js';
import { signIn, signUp } from '../src/modules/auth/auth.service.js';
import type { ManualClock } from '../src/platform/clock.js';
import { cleanRateLimitsJob } from '../src/platform/http/rate-limit.js';
import { readCounter } from '../src/platform/http/rate-limit.repository.js';
import { checkoutLinkFactory } from './factories/checkout-links.js';
import { checkoutFactory } from './factories/checkouts.js';
import { licenseKeyFactory } from './factories/license-keys.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { productFactory } from './factories/products.js';
import { OWN_ORIGIN, userFactory } from './factories/users.js';
import {
  bearer,
  json,
  reusableServerDatabase,
  startTestServer,
  usingServerDatabase,
  type TestServer,
} from './harness.js';

// Limits at their built-in values (scale 1), the API-wide one low enough to reach.
const API_PER_MINUTE = 40;
let server: TestServer;
let acme: OrganizationFixture;

// Email-code sign-in to the portal (the reference's paths); a stand-in while the server has none.
const EMAIL_CODE_REQUEST = '/v1/customer-portal/customer-session/request';
const emailCodeStandIn = routes.some((route) => route.path === EMAIL_CODE_REQUEST)
  ? []
  : [
      defineRoute({
        method: 'POST',
        path: EMAIL_CODE_REQUEST,
        operationId: 'test:email_code',
        summary: 'Stand-in for the email-code request',
        tags: ['test'],
        auth: PUBLIC,
        body: z.object({ email: z.string(), organization_id: z.string() }).partial(),
        internal: true,
        status: 202,
        response: z.object({}),
        handler: async () => ({}),
      }),
    ];

beforeAll(async () => {
  server = await startTestServer({
    config: { rateLimits: { apiPerMinute: API_PER_MINUTE, scale: 1 } },
    extraRoutes: emailCodeStandIn,
  });
  acme = await organizationFactory(server, { name: 'Acme' });
});
afterAll(() => server?.stop());

const clock = () => server.clock as ManualClock;
/** Each test calls from its own address, so per-IP counters do not carry over. */
const newIp = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const post = (url: string, payload: object, ip: string, headers: Record<string, string> = {}) =>
  server.inject({ method: 'POST', url, payload, remoteAddress: ip, headers: { origin: OWN_ORIGIN, ...headers } });

function expectRefused(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(429);
  expect(json(response)).toMatchObject({ error: 'TooManyRequests', detail: expect.any(String) });
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(response.headers['ratelimit-remaining']).toBe('0');
  expect(Number(response.headers['ratelimit-limit'])).toBeGreaterThan(0);
  expect(Number(response.headers['ratelimit-reset'])).toBe(retryAfter);
  return retryAfter;
}

describe('sign-in', () => {
  it('stops one address after 10 attempts on an account, the account after 50, and only until the window ends', async () => {
    const user = await userFactory(server);
    const attacker = newIp();
    const login = (password: string, ip: string) => post('/v1/auth/login', { email: user.email, password }, ip);
    // Start at a window boundary so the lockout's length is known.
    clock().set(new Date(Math.ceil(clock().now().getTime() / 900_000) * 900_000));
    for (let attempt = 0; attempt < 10; attempt++)
      expect((await login('wrong password', attacker)).statusCode).toBe(401);
    // That address is refused even the right password (any case of the email), and told for how long…
    const refused = await post(
      '/v1/auth/login',
      { email: user.email.toUpperCase(), password: user.password },
      attacker,
    );
    expect(expectRefused(refused)).toBe(900);
    // …while the owner, elsewhere, still signs in.
    expect((await login(user.password, newIp())).statusCode).toBe(200);
    // Many addresses together reach the account's own limit (refused and successful attempts count too).
    const spread = await Promise.all(Array.from({ length: 38 }, () => login('wrong password', newIp())));
    expect(spread.map((response) => response.statusCode)).toEqual(Array(38).fill(401));
    expectRefused(await login(user.password, newIp()));
    // Another account is not affected.
    const other = await userFactory(server);
    expect((await post('/v1/auth/login', { email: other.email, password: other.password }, attacker)).statusCode).toBe(
      200,
    );
    // The lockout ends with its window: at most 15 minutes.
    clock().advance(900_000);
    expect((await login(user.password, attacker)).statusCode).toBe(200);
  }, 90_000);

  it('limits one address to 20 attempts a minute over any accounts', async () => {
    const ip = newIp();
    clock().set(new Date(Math.ceil(clock().now().getTime() / 60_000) * 60_000));
    for (let attempt = 0; attempt < 20; attempt++) {
      const email = `nobody-${randomBytes(4).toString('hex')}@example.com`;
      expect((await post('/v1/auth/login', { email, password: 'guess' }, ip)).statusCode).toBe(401);
    }
    expectRefused(await post('/v1/auth/login', { email: 'another@example.com', password: 'guess' }, ip));
    expect(
      (await post('/v1/auth/login', { email: 'another@example.com', password: 'guess' }, newIp())).statusCode,
    ).toBe(401);
  });

  it('limits sign-ups per address', async () => {
    const ip = newIp();
    clock().set(new Date(Math.ceil(clock().now().getTime() / 3_600_000) * 3_600_000));
    for (let attempt = 0; attempt < 10; attempt++) {
      const email = `new-${randomBytes(4).toString('hex')}@example.com`;
      expect((await post('/v1/auth/signup', { email, password: 'a long passphrase' }, ip)).statusCode).toBe(201);
    }
    const refused = await post('/v1/auth/signup', { email: 'late@example.com', password: 'a long passphrase' }, ip);
    expectRefused(refused);
    // Refused before anything was written.
    const rows = await server.runtime.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'late@example.com')
      .execute();
    expect(rows).toEqual([]);
  });

  it('hashes and verifies passwords outside the request transaction', async () => {
    for (const path of ['/v1/auth/login', '/v1/auth/signup'])
      expect(authRoutes.find((route) => route.path === path)?.transaction).toBe(false);
    // The services refuse to hash inside one.
    const input = { email: 'inside@example.com', password: 'a long passphrase' };
    for (const operation of [signIn, signUp]) {
      await expect(
        server.runtime.database.db.transaction().execute((tx) => operation({ ...server.context(), db: tx }, input)),
      ).rejects.toThrow('outside any database transaction');
    }
  });
});

describe('email-code sign-in to the portal', () => {
  it('limits code requests per email and per address', async () => {
    clock().set(new Date(Math.ceil(clock().now().getTime() / 3_600_000) * 3_600_000));
    const request = (email: string, ip: string) =>
      post(EMAIL_CODE_REQUEST, { email, organization_id: acme.organization.id }, ip);
    const email = `buyer-${randomBytes(4).toString('hex')}@example.com`;
    for (let n = 0; n < 6; n++) expect((await request(email, newIp())).statusCode).not.toBe(429);
    expectRefused(await request(email.toUpperCase(), newIp()));
    const ip = newIp();
    for (let n = 0; n < 6; n++) expect((await request(`other-${n}@example.com`, ip)).statusCode).not.toBe(429);
    expectRefused(await request('another@example.com', ip));
  });
});

describe('public checkout calls', () => {
  it('limits discount-code attempts per checkout, whatever the address', async () => {
    const product = await productFactory(server, acme.organization.id);
    const checkout = await checkoutFactory(server, acme.organization.id, [product.product.id]);
    const other = await checkoutFactory(server, acme.organization.id, [product.product.id]);
    clock().set(new Date(Math.ceil(clock().now().getTime() / 900_000) * 900_000));
    const attempt = (secret: string, code: string) =>
      server.inject({
        method: 'PATCH',
        url: `/v1/checkouts/client/${secret}`,
        payload: { discount_code: code },
        remoteAddress: newIp(),
      });
    for (let n = 0; n < 10; n++) expect((await attempt(checkout.client_secret, `GUESS${n}`)).statusCode).toBe(422);
    expectRefused(await attempt(checkout.client_secret, 'GUESS10'));
    // Other changes to the same checkout, and codes on another checkout, go on.
    const name = await server.inject({
      method: 'PATCH',
      url: `/v1/checkouts/client/${checkout.client_secret}`,
      payload: { customer_name: 'Ada' },
      remoteAddress: newIp(),
    });
    expect(name.statusCode).toBe(200);
    expect((await attempt(other.client_secret, 'GUESS')).statusCode).toBe(422);
  });

  it('limits discount-code attempts per address over many checkouts', async () => {
    const product = await productFactory(server, acme.organization.id);
    const ip = newIp();
    clock().set(new Date(Math.ceil(clock().now().getTime() / 900_000) * 900_000));
    const checkouts = await Promise.all(
      [0, 1, 2].map(() => checkoutFactory(server, acme.organization.id, [product.product.id])),
    );
    const attempt = (secret: string, code: string) =>
      server.inject({
        method: 'PATCH',
        url: `/v1/checkouts/client/${secret}`,
        payload: { discount_code: code },
        remoteAddress: ip,
      });
    for (let n = 0; n < 20; n++)
      expect((await attempt(checkouts[n % 3]!.client_secret, `CODE${n}`)).statusCode).toBe(422);
    expectRefused(await attempt(checkouts[0]!.client_secret, 'CODE20'));
  });

  it('limits confirmations per checkout', async () => {
    const product = await productFactory(server, acme.organization.id);
    const checkout = await checkoutFactory(server, acme.organization.id, [product.product.id]);
    clock().set(new Date(Math.ceil(clock().now().getTime() / 600_000) * 600_000));
    const confirm = () =>
      server.inject({
        method: 'POST',
        url: `/v1/checkouts/client/${checkout.client_secret}/confirm`,
        payload: {},
        remoteAddress: newIp(),
      });
    for (let n = 0; n < 10; n++) expect((await confirm()).statusCode).toBe(422);
    expectRefused(await confirm());
  });
});

describe('checkout links', () => {
  it('limit the checkouts one address opens through links', async () => {
    const product = await productFactory(server, acme.organization.id);
    const link = await checkoutLinkFactory(server, acme.organization.id, [product.product.id]);
    const ip = newIp();
    clock().set(new Date(Math.ceil(clock().now().getTime() / 3_600_000) * 3_600_000));
    const open = () =>
      server.inject({ method: 'GET', url: `/v1/checkout-links/${link.client_secret}/redirect`, remoteAddress: ip });
    for (let n = 0; n < 30; n++) expect((await open()).statusCode).toBe(307);
    expectRefused(await open());
    const opened = await server.runtime.database.db
      .selectFrom('checkouts')
      .select('id')
      .where('checkout_link_id', '=', link.id)
      .execute();
    expect(opened).toHaveLength(30);
  });
});

describe('public license-key calls', () => {
  it('count failed lookups: three calls a second per address, then 429', async () => {
    const key = await licenseKeyFactory(server, acme.organization.id);
    const ip = newIp();
    clock().set(new Date(Math.ceil(clock().now().getTime() / 60_000) * 60_000));
    const validate = (value: string) =>
      server.inject({
        method: 'POST',
        url: '/v1/customer-portal/license-keys/validate',
        payload: { key: value, organization_id: acme.organization.id },
        remoteAddress: ip,
      });
    for (let n = 0; n < 3; n++) expect((await validate(`GUESS-${n}`)).statusCode).toBe(404);
    expectRefused(await validate(key.key));
    clock().advance(1000);
    expect((await validate(key.key)).statusCode).toBe(200);
  });
});

describe('the API per organization', () => {
  it('answers RateLimit headers and refuses past the limit per minute, per organization', async () => {
    const mine = await organizationFactory(server);
    const theirs = await organizationFactory(server);
    clock().set(new Date(Math.ceil(clock().now().getTime() / 60_000) * 60_000 + 20_000));
    const list = (token: string) =>
      server.inject({ method: 'GET', url: '/v1/products/', headers: bearer(token), remoteAddress: newIp() });
    for (let n = 1; n <= API_PER_MINUTE; n++) {
      const response = await list(mine.token);
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit-limit']).toBe(String(API_PER_MINUTE));
      expect(response.headers['ratelimit-remaining']).toBe(String(API_PER_MINUTE - n));
      expect(response.headers['ratelimit-reset']).toBe('40');
    }
    expect(expectRefused(await list(mine.token))).toBe(40);
    expect((await list(theirs.token)).statusCode).toBe(200);
    clock().advance(40_000);
    expect((await list(mine.token)).statusCode).toBe(200);
  });

  it('writes the counts made on one node to the shared store in batches, within about a second', async () => {
    const { organization, token } = await organizationFactory(server);
    const windowStart = new Date(Math.ceil(clock().now().getTime() / 60_000) * 60_000);
    clock().set(new Date(windowStart.getTime() + 5_000));
    // Far from the limit: counted on this node, no statement per request.
    for (let n = 1; n <= 3; n++) {
      const response = await server.inject({ method: 'GET', url: '/v1/products/', headers: bearer(token) });
      expect(response.headers['ratelimit-remaining']).toBe(String(API_PER_MINUTE - n));
    }
    const key = `api:60:org:${organization.id}`;
    await expect
      .poll(() => readCounter(server.runtime.database.db, key, windowStart), { timeout: 10_000, interval: 100 })
      .toBe(3);
  });

  it('keeps counters in the database and cleans them once their window has ended', async () => {
    const db = server.runtime.database.db;
    expect((await db.selectFrom('rate_limits').select('key').execute()).length).toBeGreaterThan(0);
    clock().advance(2 * 3_600_000);
    await cleanRateLimitsJob.handle(server.context(), {});
    expect(await db.selectFrom('rate_limits').select('key').execute()).toEqual([]);
  });
});

describe.runIf(usingServerDatabase())('several API nodes', () => {
  it('share one limit through the database', async () => {
    const database = (await reusableServerDatabase())!;
    const clockStart = new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 10_000);
    const { ManualClock } = await import('../src/platform/clock.js');
    const options = { databaseUrl: database.url, config: { rateLimits: { apiPerMinute: 4, scale: 1 } } };
    const first = await startTestServer({ ...options, clock: new ManualClock(clockStart) });
    const second = await startTestServer({ ...options, clock: new ManualClock(clockStart), work: false });
    try {
      const { token } = await organizationFactory(first);
      const list = (node: TestServer) => node.inject({ method: 'GET', url: '/v1/products/', headers: bearer(token) });
      for (const node of [first, second, first, second]) expect((await list(node)).statusCode).toBe(200);
      expectRefused(await list(first));
      expectRefused(await list(second));
    } finally {
      await second.stop();
      await first.stop();
      await database.drop();
    }
  });

  it('admit at most a tenth of the API-wide limit beyond it per node, each counting on its own', async () => {
    const database = (await reusableServerDatabase())!;
    const clockStart = new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 10_000);
    const { ManualClock } = await import('../src/platform/clock.js');
    const options = { databaseUrl: database.url, config: { rateLimits: { apiPerMinute: 100, scale: 1 } } };
    const first = await startTestServer({ ...options, clock: new ManualClock(clockStart) });
    const second = await startTestServer({ ...options, clock: new ManualClock(clockStart), work: false });
    try {
      const { token } = await organizationFactory(first);
      const list = (node: TestServer) => node.inject({ method: 'GET', url: '/v1/products/', headers: bearer(token) });
      const statuses: number[] = [];
      for (let n = 0; n < 160; n++) statuses.push((await list(n % 2 === 0 ? first : second)).statusCode);
      const admitted = statuses.filter((status) => status === 200).length;
      expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
      expect(admitted).toBeGreaterThanOrEqual(100);
      expect(admitted).toBeLessThanOrEqual(120);
      // Both nodes refuse once the shared count is past the limit.
      expectRefused(await list(first));
      expectRefused(await list(second));
    } finally {
      await second.stop();
      await first.stop();
      await database.drop();
    }
  });
});
