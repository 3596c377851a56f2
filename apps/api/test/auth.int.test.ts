import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationFactory } from './factories/organizations.js';
import { OWN_ORIGIN, userFactory } from './factories/users.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

const post = (url: string, payload: unknown, headers: Record<string, string> = { origin: OWN_ORIGIN }) =>
  server.inject({ method: 'POST', url, headers, payload: payload as object });

describe('POST /v1/auth/signup', () => {
  it('creates the user and sets an HttpOnly SameSite session cookie', async () => {
    const response = await post('/v1/auth/signup', { email: 'New.User@Example.com', password: 'a long passphrase' });
    expect(response.statusCode).toBe(201);
    expect(json(response)).toMatchObject({ email: 'New.User@Example.com', modified_at: null });
    const cookie = response.cookies.find((c) => c.name === 'tessera_session')!;
    expect(cookie.value).toMatch(/^polar_us_[0-9A-Za-z]{43}$/);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.secure).toBeFalsy();
  });

  it('rejects a second account for the same email in any case', async () => {
    await post('/v1/auth/signup', { email: 'dup@example.com', password: 'a long passphrase' });
    const response = await post('/v1/auth/signup', { email: 'DUP@example.com', password: 'another passphrase' });
    expect(response.statusCode).toBe(422);
    expect(json(response).detail[0].loc).toEqual(['body', 'email']);
  });

  it('rejects short passwords and invalid emails in one 422', async () => {
    const response = await post('/v1/auth/signup', { email: 'nope', password: 'short' });
    expect(response.statusCode).toBe(422);
    expect(
      json(response)
        .detail.map((d: { loc: string[] }) => d.loc.join('.'))
        .sort(),
    ).toEqual(['body.email', 'body.password']);
  });

  it('refuses a sign-up posted from another origin', async () => {
    const response = await post(
      '/v1/auth/signup',
      { email: 'x@example.com', password: 'a long passphrase' },
      { origin: 'https://evil.example' },
    );
    expect(response.statusCode).toBe(403);
  });
});

describe('POST /v1/auth/login', () => {
  it('signs in with the right password and stores only a hash of the session', async () => {
    const user = await userFactory(server);
    const response = await post('/v1/auth/login', { email: user.email.toUpperCase(), password: user.password });
    expect(response.statusCode).toBe(200);
    const token = response.cookies.find((c) => c.name === 'tessera_session')!.value;
    const stored = await server.runtime.database.db.selectFrom('user_sessions').select('token_hash').execute();
    expect(stored.every((s) => /^[0-9a-f]{64}$/.test(s.token_hash) && s.token_hash !== token)).toBe(true);
    const users = await server.runtime.database.db.selectFrom('users').select('password_hash').execute();
    expect(users.every((u) => u.password_hash.startsWith('scrypt$') && !u.password_hash.includes(user.password))).toBe(
      true,
    );
  });

  it('answers 401 with one message for a wrong password and an unknown email', async () => {
    const user = await userFactory(server);
    const wrong = await post('/v1/auth/login', { email: user.email, password: 'wrong password' });
    const unknown = await post('/v1/auth/login', { email: 'nobody@example.com', password: 'wrong password' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(json(wrong)).toEqual(json(unknown));
    expect(wrong.cookies).toHaveLength(0);
  });
});

describe('GET /v1/auth/me and POST /v1/auth/logout', () => {
  it('reads the signed-in user, then ends the session', async () => {
    const user = await userFactory(server);
    const me = await server.inject({ method: 'GET', url: '/v1/auth/me', headers: { cookie: user.cookie } });
    expect(me.statusCode).toBe(200);
    expect(json(me)).toMatchObject({ id: user.id, email: user.email });

    const logout = await server.inject({ method: 'POST', url: '/v1/auth/logout', headers: user.headers });
    expect(logout.statusCode).toBe(204);
    const cleared = logout.cookies.find((c) => c.name === 'tessera_session')!;
    expect(cleared.value).toBe('');

    const after = await server.inject({ method: 'GET', url: '/v1/auth/me', headers: { cookie: user.cookie } });
    expect(after.statusCode).toBe(401);
  });

  it('answers 401 without a session, and refuses an organization token', async () => {
    expect((await server.inject({ method: 'GET', url: '/v1/auth/me' })).statusCode).toBe(401);
    const { token } = await organizationFactory(server);
    const response = await server.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(token) });
    expect(response.statusCode).toBe(401);
    expect(json(response).error).toBe('invalid_token');
  });

  it('expires sessions after 30 days', async () => {
    const user = await userFactory(server);
    const clock = server.clock as import('../src/platform/clock.js').ManualClock;
    const start = clock.now();
    clock.advance(31 * 86400 * 1000);
    try {
      const response = await server.inject({ method: 'GET', url: '/v1/auth/me', headers: { cookie: user.cookie } });
      expect(response.statusCode).toBe(401);
    } finally {
      clock.set(start);
    }
  });
});

describe('session cookie over https', () => {
  it('is Secure when BASE_URL is https', async () => {
    const secure = await startTestServer({ config: { baseUrl: 'https://billing.example' } });
    try {
      const response = await secure.inject({
        method: 'POST',
        url: '/v1/auth/signup',
        headers: { origin: 'https://billing.example' },
        payload: { email: 'secure@example.com', password: 'a long passphrase' },
      });
      expect(response.statusCode).toBe(201);
      expect(response.cookies.find((c) => c.name === 'tessera_session')!.secure).toBe(true);
    } finally {
      await secure.stop();
    }
  });
});
