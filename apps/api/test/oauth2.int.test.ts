import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanOAuth2StoreJob } from '../src/modules/oauth2/oauth2.jobs.js';
import { createOAuth2Server, loadSigningKeys, rotateSigningKey } from '../src/modules/oauth2/oauth2.provider.js';
import { createHash, createPublicKey, verify } from 'node:crypto';
import { hashToken } from '../src/platform/auth/tokens.js';
import { hashLegacyClientSecrets } from '../src/modules/oauth2/oauth2.repository.js';
import {
  AuthorizeResponse,
  IntrospectTokenResponse,
  ListResourceOAuth2Client,
  OAuth2Client,
  RevokeTokenResponse,
  TokenResponse,
  UserInfo,
} from '../src/modules/oauth2/oauth2.schemas.js';
import { bearer, startTestServer, TEST_SECRET, type TestServer } from './harness.js';
import { OWN_ORIGIN, userFactory, type UserFixture } from './factories/users.js';
import { organizationFactory, uniqueSlug } from './factories/organizations.js';
import {
  authorize,
  CookieJar,
  issueTokens,
  pkcePair,
  REDIRECT_URI,
  registerClient,
  startAuthorization,
  tokenRequest,
  type RegisteredClient,
} from './support/oauth2.js';

let server: TestServer;
let user: UserFixture;
let client: RegisteredClient;
let organizationId: string;

async function createOrganizationOf(member: UserFixture): Promise<string> {
  const response = await server.inject({
    method: 'POST',
    url: '/v1/organizations/',
    headers: member.headers,
    payload: { name: 'Acme', slug: uniqueSlug('acme') },
  });
  expect(response.statusCode).toBe(201);
  return response.json().id;
}

function form(values: Record<string, string>) {
  return { 'content-type': 'application/x-www-form-urlencoded', payload: new URLSearchParams(values).toString() };
}

async function introspect(token: string, by: RegisteredClient = client) {
  const { payload, ...headers } = form({ token, client_id: by.client_id, client_secret: by.client_secret });
  return server.inject({ method: 'POST', url: '/v1/oauth2/introspect', headers, payload });
}

async function storeRows(model: string): Promise<number> {
  const result = await server.runtime.database.pool.query(
    'SELECT count(*)::int AS n FROM oauth2_store WHERE model = $1',
    [model],
  );
  return result.rows[0].n;
}

beforeAll(async () => {
  server = await startTestServer();
  user = await userFactory(server);
  client = await registerClient(server, user, {
    scope: 'openid email profile products:read products:write organizations:read',
  });
  organizationId = await createOrganizationOf(user);
});
afterAll(async () => {
  await server?.stop();
});

describe('discovery', () => {
  it('publishes the provider metadata at the root', async () => {
    const response = await server.inject({ method: 'GET', url: '/.well-known/openid-configuration' });
    expect(response.statusCode).toBe(200);
    const metadata = response.json();
    expect(metadata).toMatchObject({
      issuer: 'http://127.0.0.1',
      authorization_endpoint: 'http://127.0.0.1/oauth2/authorize',
      token_endpoint: 'http://127.0.0.1/v1/oauth2/token',
      introspection_endpoint: 'http://127.0.0.1/v1/oauth2/introspect',
      revocation_endpoint: 'http://127.0.0.1/v1/oauth2/revoke',
      userinfo_endpoint: 'http://127.0.0.1/v1/oauth2/userinfo',
      jwks_uri: 'http://127.0.0.1/.well-known/jwks.json',
      registration_endpoint: 'http://127.0.0.1/v1/oauth2/register',
      response_types_supported: ['code'],
      grant_types_supported: expect.arrayContaining(['authorization_code', 'refresh_token']),
      // S256 first: the method clients should pick.
      code_challenge_methods_supported: ['S256', 'plain'],
      id_token_signing_alg_values_supported: ['RS256'],
      token_endpoint_auth_methods_supported: expect.arrayContaining([
        'client_secret_basic',
        'client_secret_post',
        'none',
      ]),
    });
    expect(metadata.scopes_supported).toEqual(
      expect.arrayContaining(['openid', 'email', 'products:read', 'metrics:read']),
    );
    expect(metadata.scopes_supported).not.toContain('web_default');
    expect(metadata.scopes_supported).not.toContain('admin');
  });

  it('publishes the public RS256 signing key, never its private parts', async () => {
    const response = await server.inject({ method: 'GET', url: '/.well-known/jwks.json' });
    expect(response.statusCode).toBe(200);
    const { keys } = response.json();
    expect(keys.length).toBeGreaterThanOrEqual(1);
    expect(keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(keys[0].kid).toEqual(expect.any(String));
    for (const key of keys) for (const part of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key).not.toHaveProperty(part);
  });
});

describe('GET /v1/oauth2/authorize', () => {
  const query = (extra: Record<string, string> = {}) =>
    new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'openid products:read',
      ...extra,
    }).toString();

  it('describes the request for a signed-in user', async () => {
    const response = await server.inject({
      method: 'GET',
      url: `/v1/oauth2/authorize?${query()}`,
      headers: { cookie: user.cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      client: expect.objectContaining({ client_id: client.client_id, client_name: 'Acme Reports', logo_uri: null }),
      sub_type: 'user',
      sub: { id: user.id, email: user.email, avatar_url: null },
      scopes: ['openid', 'products:read'],
    });
  });

  it('answers sub null to an anonymous caller', async () => {
    const response = await server.inject({ method: 'GET', url: `/v1/oauth2/authorize?${query()}` });
    expect(response.statusCode).toBe(200);
    expect(response.json().sub).toBeNull();
  });

  it('lists the user’s organizations for an organization subject', async () => {
    const response = await server.inject({
      method: 'GET',
      url: `/v1/oauth2/authorize?${query({ sub_type: 'organization' })}`,
      headers: { cookie: user.cookie },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.sub_type).toBe('organization');
    expect(body.sub).toBeNull();
    expect(body.organizations).toEqual([expect.objectContaining({ id: organizationId, avatar_url: null })]);
  });

  it.each([
    [{ sub_type: 'robot' }, 'invalid_request'],
    [{ sub: organizationId }, 'invalid_request'],
    [{ scope: '' }, 'invalid_scope'],
    [{ scope: 'openid nope' }, 'invalid_scope'],
    [{ scope: 'openid metrics:read' }, 'invalid_scope'],
    [{ redirect_uri: 'https://evil.example/cb' }, 'invalid_request'],
    [{ client_id: 'polar_ci_unknown' }, 'invalid_client'],
  ])('refuses %o with %s', async (extra, error) => {
    const response = await server.inject({
      method: 'GET',
      url: `/v1/oauth2/authorize?${query(extra)}`,
      headers: { cookie: user.cookie },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error, error_description: expect.any(String) });
  });
});

describe('authorization code flow', () => {
  it('issues the reference’s tokens for a user subject', async () => {
    const tokens = await issueTokens(server, user, client, { scope: 'openid email products:read' });
    expect(tokens.access_token).toMatch(/^polar_at_u_[0-9A-Za-z]{43}$/);
    expect(tokens.refresh_token).toMatch(/^polar_rt_u_[0-9A-Za-z]{43}$/);
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 864000, scope: 'openid email products:read' });
    expect(tokens.id_token).toEqual(expect.any(String));
    const claims = JSON.parse(Buffer.from(tokens.id_token!.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({
      sub: user.id,
      email: user.email,
      email_verified: true,
      aud: client.client_id,
      iss: 'http://127.0.0.1',
    });
    expect(claims.exp - claims.iat).toBe(3600);
  });

  it('stores tokens only as keyed hashes', async () => {
    const tokens = await issueTokens(server, user, client);
    const { rows } = await server.runtime.database.pool.query(
      'SELECT id_hash, payload::text AS payload FROM oauth2_store',
    );
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(tokens.access_token);
    expect(dump).not.toContain(tokens.refresh_token);
    expect(dump).not.toContain(tokens.access_token.slice(11));
  });

  it('issues organization tokens that act as the organization', async () => {
    const tokens = await issueTokens(server, user, client, {
      scope: 'openid products:read',
      subType: 'organization',
      organizationId,
    });
    expect(tokens.access_token).toMatch(/^polar_at_o_/);
    expect(tokens.refresh_token).toMatch(/^polar_rt_o_/);
    const userinfo = await server.inject({
      method: 'GET',
      url: '/v1/oauth2/userinfo',
      headers: bearer(tokens.access_token),
    });
    expect(userinfo.statusCode).toBe(200);
    expect(userinfo.json()).toMatchObject({ sub: organizationId, name: expect.stringMatching(/^acme-/) });
    const products = await server.inject({ method: 'GET', url: '/v1/products/', headers: bearer(tokens.access_token) });
    expect(products.statusCode).toBe(200);
  });

  it('refuses an organization the user does not belong to (invalid_sub), issuing nothing', async () => {
    const other = await organizationFactory(server);
    const { response, jar } = await startAuthorization(server, client, {
      subType: 'organization',
      pkce: { challenge: pkcePair().challenge },
    });
    const uid = new URL(response.headers.location as string, 'http://x').searchParams.get('uid')!;
    const before = await storeRows('AuthorizationCode');
    const consent = await server.inject({
      method: 'POST',
      url: '/v1/oauth2/consent',
      headers: {
        cookie: jar.header(user.cookie),
        origin: OWN_ORIGIN,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams({ uid, action: 'allow', sub: other.organization.id }).toString(),
    });
    expect(consent.statusCode).toBe(400);
    expect(consent.json()).toMatchObject({ error: 'invalid_sub' });
    expect(await storeRows('AuthorizationCode')).toBe(before);
  });

  it('sends access_denied back when the user denies', async () => {
    const { redirect } = await authorize(server, user, client, {
      action: 'deny',
      pkce: { challenge: pkcePair().challenge },
    });
    expect(redirect.origin + redirect.pathname).toBe(REDIRECT_URI);
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(redirect.searchParams.get('code')).toBeNull();
  });

  it('refuses a consent without a dashboard session', async () => {
    const { response, jar } = await startAuthorization(server, client, { pkce: { challenge: pkcePair().challenge } });
    const uid = new URL(response.headers.location as string, 'http://x').searchParams.get('uid')!;
    const consent = await server.inject({
      method: 'POST',
      url: '/v1/oauth2/consent',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ uid, action: 'allow' }).toString(),
    });
    expect(consent.statusCode).toBe(401);
  });

  it('accepts client_secret_basic', async () => {
    const basic = await registerClient(server, user, { token_endpoint_auth_method: 'client_secret_basic' });
    const pkce = pkcePair();
    const { redirect } = await authorize(server, user, basic, { pkce: { challenge: pkce.challenge } });
    const response = await tokenRequest(
      server,
      {
        grant_type: 'authorization_code',
        code: redirect.searchParams.get('code')!,
        redirect_uri: REDIRECT_URI,
        code_verifier: pkce.verifier,
      },
      { authorization: `Basic ${Buffer.from(`${basic.client_id}:${basic.client_secret}`).toString('base64')}` },
    );
    expect(response.statusCode).toBe(200);
  });

  it('lets a public client exchange with PKCE and no secret, and never refresh', async () => {
    const publicClient = await registerClient(server, user, { token_endpoint_auth_method: 'none' });
    expect(publicClient.grant_types).toEqual(['authorization_code']);
    const pkce = pkcePair();
    const { redirect } = await authorize(server, user, publicClient, { pkce: { challenge: pkce.challenge } });
    const response = await tokenRequest(server, {
      grant_type: 'authorization_code',
      code: redirect.searchParams.get('code')!,
      redirect_uri: REDIRECT_URI,
      code_verifier: pkce.verifier,
      client_id: publicClient.client_id,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().refresh_token).toBeUndefined();
  });

  it.each<[string, Record<string, string>]>([
    ['a confidential client', {}],
    ['a public client', { token_endpoint_auth_method: 'none' }],
  ])('accepts PKCE plain from %s: the verifier is the challenge', async (_kind, registration) => {
    const registered = await registerClient(server, user, registration);
    const verifier = pkcePair().verifier;
    const { redirect } = await authorize(server, user, registered, { pkce: { challenge: verifier, method: 'plain' } });
    const response = await tokenRequest(server, {
      grant_type: 'authorization_code',
      code: redirect.searchParams.get('code')!,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: registered.client_id,
      ...(registration.token_endpoint_auth_method ? {} : { client_secret: registered.client_secret }),
    });
    expect(response.statusCode).toBe(200);
    const products = await server.inject({
      method: 'GET',
      url: '/v1/products/',
      headers: bearer(response.json().access_token),
    });
    expect(products.statusCode).toBe(200);
  });
});

describe('bad input: the RFC error, never a 500, nothing issued', () => {
  async function codeFor(target = client, pkce = pkcePair()) {
    const { redirect } = await authorize(server, user, target, { pkce: { challenge: pkce.challenge } });
    return { code: redirect.searchParams.get('code')!, verifier: pkce.verifier };
  }

  function exchange(code: string, verifier: string, overrides: Record<string, string> = {}) {
    return tokenRequest(server, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: client.client_id,
      client_secret: client.client_secret,
      ...overrides,
    });
  }

  it('NUL characters in any parameter: invalid_request, never a 500', async () => {
    const nul = encodeURIComponent('a\u0000b');
    for (const url of [
      `/oauth2/authorize?client_id=${nul}&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`,
      `/v1/oauth2/authorize?client_id=${nul}&response_type=code&scope=openid`,
    ]) {
      const response = await server.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_request' });
    }
    const token = await tokenRequest(server, {
      grant_type: 'authorization_code',
      code: 'a\u0000b',
      client_id: client.client_id,
    });
    expect(token.statusCode).toBe(400);
    expect(token.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('wrong redirect URI at authorization: an error page, no redirect to it', async () => {
    const { response } = await startAuthorization(server, client, { redirectUri: 'https://evil.example/cb' });
    expect(response.statusCode).toBe(400);
    expect(response.headers.location).toBeUndefined();
    expect(response.json()).toMatchObject({ error: 'invalid_redirect_uri' });
  });

  it('wrong redirect URI at the token endpoint: invalid_grant', async () => {
    const { code, verifier } = await codeFor();
    const before = await storeRows('AccessToken');
    const response = await exchange(code, verifier, { redirect_uri: 'https://app.example.com/other' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_grant' });
    expect(await storeRows('AccessToken')).toBe(before);
  });

  it.each([
    ['missing scope', '', 'invalid_scope'],
    ['unknown scope', 'openid products:read nope', 'invalid_scope'],
    ['a scope outside the client’s', 'openid metrics:read', 'invalid_scope'],
  ])('%s: redirected with %s', async (_name, scope, error) => {
    const { response } = await startAuthorization(server, client, { scope, pkce: { challenge: pkcePair().challenge } });
    expect(response.statusCode).toBe(303);
    const location = new URL(response.headers.location as string);
    expect(location.origin + location.pathname).toBe(REDIRECT_URI);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('state')).toBe('state-1');
  });

  it('a code used twice: invalid_grant, and the tokens of the first use are revoked', async () => {
    const { code, verifier } = await codeFor();
    const first = await exchange(code, verifier);
    expect(first.statusCode).toBe(200);
    const second = await exchange(code, verifier);
    expect(second.statusCode).toBe(400);
    expect(second.json()).toMatchObject({ error: 'invalid_grant' });
    const products = await server.inject({
      method: 'GET',
      url: '/v1/products/',
      headers: bearer(first.json().access_token),
    });
    expect(products.statusCode).toBe(401);
  });

  it('a code after 5 minutes: invalid_grant', async () => {
    const { code, verifier } = await codeFor();
    // Five minutes pass for the code (the library's clock is the wall clock).
    await server.runtime.database.pool.query(
      `UPDATE oauth2_store SET payload = jsonb_set(payload, '{exp}', to_jsonb((payload->>'iat')::int - 1)),
         expires_at = now() - interval '1 second' WHERE model = 'AuthorizationCode' AND consumed_at IS NULL`,
    );
    const response = await exchange(code, verifier);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('a PKCE verifier that does not match: invalid_grant', async () => {
    const { code } = await codeFor();
    const response = await exchange(code, pkcePair().verifier);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('PKCE plain: a verifier other than the challenge is invalid_grant, nothing issued', async () => {
    const challenge = pkcePair().verifier;
    const { redirect } = await authorize(server, user, client, { pkce: { challenge, method: 'plain' } });
    const code = redirect.searchParams.get('code')!;
    const before = await storeRows('AccessToken');
    const response = await exchange(code, pkcePair().verifier);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_grant' });
    expect(await storeRows('AccessToken')).toBe(before);
    // The S256 of the challenge is no verifier either: plain compares the values themselves.
    const { redirect: again } = await authorize(server, user, client, { pkce: { challenge, method: 'plain' } });
    const hashed = createHash('sha256').update(challenge).digest('base64url');
    expect((await exchange(again.searchParams.get('code')!, hashed)).json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('PKCE plain: a challenge of the wrong shape is invalid_request', async () => {
    const { response } = await startAuthorization(server, client, {
      pkce: { challenge: 'a'.repeat(42), method: 'plain' },
    });
    const location = new URL(response.headers.location as string);
    expect(location.searchParams.get('error')).toBe('invalid_request');
  });

  it('an unknown PKCE method is invalid_request', async () => {
    const { response } = await startAuthorization(server, client, {
      pkce: { challenge: 'a'.repeat(43), method: 'S512' },
    });
    const location = new URL(response.headers.location as string);
    expect(location.searchParams.get('error')).toBe('invalid_request');
  });

  it('a public client without PKCE: invalid_request', async () => {
    const publicClient = await registerClient(server, user, { token_endpoint_auth_method: 'none' });
    const { response } = await startAuthorization(server, publicClient, {});
    const location = new URL(response.headers.location as string);
    expect(location.searchParams.get('error')).toBe('invalid_request');
  });

  it('a refresh token of another client: invalid_grant', async () => {
    const tokens = await issueTokens(server, user, client);
    const other = await registerClient(server, user);
    const response = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: other.client_id,
      client_secret: other.client_secret,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('a revoked refresh token: invalid_grant', async () => {
    const tokens = await issueTokens(server, user, client);
    const { payload, ...headers } = form({
      token: tokens.refresh_token!,
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    expect((await server.inject({ method: 'POST', url: '/v1/oauth2/revoke', headers, payload })).statusCode).toBe(200);
    const response = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('a wrong secret: invalid_client (401)', async () => {
    const { code, verifier } = await codeFor();
    const response = await exchange(code, verifier, { client_secret: 'polar_cs_wrong' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('no client authentication: invalid_client (401)', async () => {
    const { code, verifier } = await codeFor();
    const response = await tokenRequest(server, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: client.client_id,
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('a secret sent two ways at once: invalid_request', async () => {
    const { code, verifier } = await codeFor();
    const response = await tokenRequest(
      server,
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
        client_id: client.client_id,
        client_secret: client.client_secret,
      },
      { authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}` },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('a secret sent by a public client: invalid_client (401)', async () => {
    const publicClient = await registerClient(server, user, { token_endpoint_auth_method: 'none' });
    const pkce = pkcePair();
    const { redirect } = await authorize(server, user, publicClient, { pkce: { challenge: pkce.challenge } });
    const response = await tokenRequest(server, {
      grant_type: 'authorization_code',
      code: redirect.searchParams.get('code')!,
      redirect_uri: REDIRECT_URI,
      code_verifier: pkce.verifier,
      client_id: publicClient.client_id,
      client_secret: client.client_secret,
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('prompt=none without a session: login_required', async () => {
    const { response } = await startAuthorization(server, client, {
      prompt: 'none',
      pkce: { challenge: pkcePair().challenge },
    });
    const location = new URL(response.headers.location as string);
    expect(location.searchParams.get('error')).toBe('login_required');
  });

  it('prompt=none without consent: consent_required', async () => {
    // The browser has a session with the server (a first authorization), but not for these scopes.
    const { jar } = await authorize(server, user, client, {
      scope: 'openid',
      pkce: { challenge: pkcePair().challenge },
    });
    const { response } = await startAuthorization(server, client, {
      jar,
      scope: 'openid products:write',
      prompt: 'none',
      pkce: { challenge: pkcePair().challenge },
    });
    const location = new URL(response.headers.location as string);
    expect(location.searchParams.get('error')).toBe('consent_required');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('prompt=none with consent given: the code comes straight back', async () => {
    const jar = new CookieJar();
    await authorize(server, user, client, {
      jar,
      scope: 'openid products:read',
      pkce: { challenge: pkcePair().challenge },
    });
    const { response } = await startAuthorization(server, client, {
      jar,
      scope: 'openid products:read',
      prompt: 'none',
      pkce: { challenge: pkcePair().challenge },
    });
    const location = new URL(response.headers.location as string);
    expect(location.searchParams.get('code')).toMatch(/^polar_ac_/);
  });

  it('an unsupported grant type: unsupported_grant_type', async () => {
    const response = await tokenRequest(server, {
      grant_type: 'password',
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'unsupported_grant_type' });
  });

  it('a malformed token body: invalid_request', async () => {
    const response = await server.inject({
      method: 'POST',
      url: '/v1/oauth2/token',
      headers: { 'content-type': 'application/json' },
      payload: '{"grant_type":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_request' });
  });
});

describe('refresh', () => {
  it('rotates the refresh token', async () => {
    const tokens = await issueTokens(server, user, client);
    const response = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    expect(response.statusCode).toBe(200);
    const refreshed = response.json();
    expect(refreshed.refresh_token).toMatch(/^polar_rt_u_/);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.access_token).toMatch(/^polar_at_u_/);
    const products = await server.inject({
      method: 'GET',
      url: '/v1/products/',
      headers: bearer(refreshed.access_token),
    });
    expect(products.statusCode).toBe(200);
  });

  it('revokes the previous access token at once, and only that one', async () => {
    const tokens = await issueTokens(server, user, client);
    // Another authorization of the same app by the same user: its own pair, untouched by this refresh.
    const other = await issueTokens(server, user, client);
    const before = await server.inject({ method: 'GET', url: '/v1/products/', headers: bearer(tokens.access_token) });
    expect(before.statusCode).toBe(200);
    const response = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    expect(response.statusCode).toBe(200);
    const refreshed = response.json();
    const old = await server.inject({ method: 'GET', url: '/v1/products/', headers: bearer(tokens.access_token) });
    expect(old.statusCode).toBe(401);
    expect((await introspect(tokens.access_token)).json()).toEqual({ active: false });
    expect((await introspect(refreshed.access_token)).json()).toMatchObject({ active: true });
    const otherStill = await server.inject({
      method: 'GET',
      url: '/v1/products/',
      headers: bearer(other.access_token),
    });
    expect(otherStill.statusCode).toBe(200);

    // The next refresh revokes the access token the first refresh issued.
    const again = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: refreshed.refresh_token,
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    expect(again.statusCode).toBe(200);
    const second = await server.inject({
      method: 'GET',
      url: '/v1/products/',
      headers: bearer(refreshed.access_token),
    });
    expect(second.statusCode).toBe(401);
    const newest = await server.inject({
      method: 'GET',
      url: '/v1/products/',
      headers: bearer(again.json().access_token),
    });
    expect(newest.statusCode).toBe(200);
  });

  it('a replayed refresh token revokes the whole family', async () => {
    const tokens = await issueTokens(server, user, client);
    const refresh = (token: string) =>
      tokenRequest(server, {
        grant_type: 'refresh_token',
        refresh_token: token,
        client_id: client.client_id,
        client_secret: client.client_secret,
      });
    const second = (await refresh(tokens.refresh_token!)).json();
    const replay = await refresh(tokens.refresh_token!);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error: 'invalid_grant' });
    // Everything of the family is gone: the newest refresh token and every access token.
    expect((await refresh(second.refresh_token)).json()).toMatchObject({ error: 'invalid_grant' });
    for (const token of [tokens.access_token, second.access_token]) {
      const response = await server.inject({ method: 'GET', url: '/v1/products/', headers: bearer(token) });
      expect(response.statusCode).toBe(401);
    }
  });
});

describe('introspection and revocation', () => {
  it('describes an active token to its client', async () => {
    const tokens = await issueTokens(server, user, client);
    const response = await introspect(tokens.access_token);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      active: true,
      client_id: client.client_id,
      token_type: 'access_token',
      scope: 'openid email products:read',
      sub_type: 'user',
      sub: user.id,
      aud: client.client_id,
      iss: 'http://127.0.0.1',
    });
    expect(body.exp - body.iat).toBe(864000);
    const refresh = (await introspect(tokens.refresh_token!)).json();
    expect(refresh).toMatchObject({ active: true, token_type: 'refresh_token' });
  });

  it('answers inactive to another client and for unknown tokens', async () => {
    const tokens = await issueTokens(server, user, client);
    const other = await registerClient(server, user);
    expect((await introspect(tokens.access_token, other)).json()).toEqual({ active: false });
    expect((await introspect('polar_at_u_nothing')).json()).toEqual({ active: false });
  });

  it('needs client authentication', async () => {
    const { payload, ...headers } = form({ token: 'x', client_id: client.client_id, client_secret: 'wrong' });
    const response = await server.inject({ method: 'POST', url: '/v1/oauth2/introspect', headers, payload });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('revokes an access token at once', async () => {
    const tokens = await issueTokens(server, user, client);
    expect(
      (await server.inject({ method: 'GET', url: '/v1/products/', headers: bearer(tokens.access_token) })).statusCode,
    ).toBe(200);
    const { payload, ...headers } = form({
      token: tokens.access_token,
      token_type_hint: 'access_token',
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    const response = await server.inject({ method: 'POST', url: '/v1/oauth2/revoke', headers, payload });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({});
    expect(
      (await server.inject({ method: 'GET', url: '/v1/products/', headers: bearer(tokens.access_token) })).statusCode,
    ).toBe(401);
    expect((await introspect(tokens.access_token)).json()).toEqual({ active: false });
  });
});

describe('OAuth2 access tokens as API credentials', () => {
  it('expiry takes effect at once', async () => {
    const tokens = await issueTokens(server, user, client);
    await server.runtime.database.pool.query(
      `UPDATE oauth2_store SET payload = jsonb_set(payload, '{exp}', to_jsonb((payload->>'iat')::int - 1)),
         expires_at = now() - interval '1 second' WHERE model = 'AccessToken'`,
    );
    const response = await server.inject({ method: 'GET', url: '/v1/products/', headers: bearer(tokens.access_token) });
    expect(response.statusCode).toBe(401);
    expect(
      (await server.inject({ method: 'GET', url: '/v1/oauth2/userinfo', headers: bearer(tokens.access_token) }))
        .statusCode,
    ).toBe(401);
  });

  it('holds exactly its granted scopes: 403 without the scope', async () => {
    const tokens = await issueTokens(server, user, client, { scope: 'openid products:read' });
    const read = await server.inject({
      method: 'GET',
      url: `/v1/products/?organization_id=${organizationId}`,
      headers: bearer(tokens.access_token),
    });
    expect(read.statusCode).toBe(200);
    const write = await server.inject({
      method: 'POST',
      url: '/v1/products/',
      headers: bearer(tokens.access_token),
      payload: {
        name: 'X',
        organization_id: organizationId,
        recurring_interval: null,
        prices: [{ amount_type: 'fixed', price_amount: 1000 }],
      },
    });
    expect(write.statusCode).toBe(403);
  });

  it('an organization token sees only its organization (404 for another’s)', async () => {
    const tokens = await issueTokens(server, user, client, {
      scope: 'openid products:read products:write',
      subType: 'organization',
      organizationId,
    });
    const other = await organizationFactory(server);
    const created = await server.inject({
      method: 'POST',
      url: '/v1/products/',
      headers: bearer(other.token),
      payload: { name: 'Theirs', recurring_interval: null, prices: [{ amount_type: 'fixed', price_amount: 1000 }] },
    });
    expect(created.statusCode).toBe(201);
    const response = await server.inject({
      method: 'GET',
      url: `/v1/products/${created.json().id}`,
      headers: bearer(tokens.access_token),
    });
    expect(response.statusCode).toBe(404);
    const mine = await server.inject({
      method: 'POST',
      url: '/v1/products/',
      headers: bearer(tokens.access_token),
      payload: { name: 'Mine', recurring_interval: null, prices: [{ amount_type: 'fixed', price_amount: 1000 }] },
    });
    expect(mine.statusCode).toBe(201);
    expect(mine.json().organization_id).toBe(organizationId);
  });

  it('a refresh token or an unknown token is no API credential', async () => {
    const tokens = await issueTokens(server, user, client);
    for (const token of [
      tokens.refresh_token!,
      'polar_at_u_0000000000000000000000000000000000000000000',
      'polar_at_o_x',
    ]) {
      const response = await server.inject({ method: 'GET', url: '/v1/products/', headers: bearer(token) });
      expect(response.statusCode).toBe(401);
    }
  });
});

describe('userinfo', () => {
  it('answers the user’s claims by scope', async () => {
    const tokens = await issueTokens(server, user, client, { scope: 'openid email' });
    for (const method of ['GET', 'POST'] as const) {
      const response = await server.inject({
        method,
        url: '/v1/oauth2/userinfo',
        headers: bearer(tokens.access_token),
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ sub: user.id, email: user.email, email_verified: true });
    }
    const bare = await issueTokens(server, user, client, { scope: 'openid products:read' });
    expect(
      (await server.inject({ method: 'GET', url: '/v1/oauth2/userinfo', headers: bearer(bare.access_token) })).json(),
    ).toEqual({ sub: user.id });
  });

  it('refuses other kinds of token', async () => {
    const org = await organizationFactory(server);
    for (const headers of [bearer(org.token), {}]) {
      const response = await server.inject({ method: 'GET', url: '/v1/oauth2/userinfo', headers });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: 'invalid_token' });
    }
  });
});

describe('client registration', () => {
  it('registers with the reference’s defaults', async () => {
    const registered = await registerClient(server, user);
    expect(registered).toMatchObject({
      client_id: expect.stringMatching(/^polar_ci_/),
      client_secret: expect.stringMatching(/^polar_cs_/),
      registration_access_token: expect.stringMatching(/^polar_crt_/),
      client_secret_expires_at: 0,
      token_endpoint_auth_method: 'client_secret_post',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_name: 'Acme Reports',
      redirect_uris: [REDIRECT_URI],
      registration_client_uri: `http://127.0.0.1/v1/oauth2/register/${registered.client_id}`,
    });
    expect(registered.scope).toContain('products:write');
    expect(registered.scope).not.toContain('web_default');
    const { rows } = await server.runtime.database.pool.query(
      'SELECT registration_access_token_hash FROM oauth2_clients WHERE client_id = $1',
      [registered.client_id],
    );
    expect(rows[0].registration_access_token_hash).not.toContain(registered.registration_access_token);
  });

  it.each([
    [{ redirect_uris: ['http://app.example.com/cb'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://app.example.com/cb#x'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: [] }, 'invalid_redirect_uri'],
    [{ redirect_uris: undefined }, 'invalid_redirect_uri'],
    [{ client_name: undefined }, 'invalid_client_metadata'],
    [{ scope: 'openid web_default' }, 'invalid_client_metadata'],
    [{ logo_uri: 'javascript:alert(1)' }, 'invalid_client_metadata'],
    [{ token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
  ])('refuses %o with %s, registering nothing', async (override, error) => {
    const before = (await server.runtime.database.pool.query('SELECT count(*)::int AS n FROM oauth2_clients')).rows[0]
      .n;
    const response = await server.inject({
      method: 'POST',
      url: '/v1/oauth2/register',
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ client_name: 'X', redirect_uris: [REDIRECT_URI], ...override }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error, error_description: expect.any(String) });
    expect((await server.runtime.database.pool.query('SELECT count(*)::int AS n FROM oauth2_clients')).rows[0].n).toBe(
      before,
    );
  });

  it('accepts http for localhost', async () => {
    const local = await registerClient(server, user, { redirect_uris: ['http://localhost:3000/cb'] });
    expect(local.redirect_uris).toEqual(['http://localhost:3000/cb']);
  });

  it('needs a dashboard user (no token of another kind, no cross-site form)', async () => {
    const org = await organizationFactory(server);
    const body = { client_name: 'X', redirect_uris: [REDIRECT_URI] };
    for (const headers of [{}, bearer(org.token)]) {
      const response = await server.inject({ method: 'POST', url: '/v1/oauth2/register', headers, payload: body });
      expect(response.statusCode).toBe(401);
    }
    const crossSite = await server.inject({
      method: 'POST',
      url: '/v1/oauth2/register',
      headers: { cookie: user.cookie, origin: 'https://evil.example' },
      payload: body,
    });
    expect(crossSite.statusCode).toBe(403);
  });

  it('reads, updates and deletes with the registration access token or the owner’s session', async () => {
    const registered = await registerClient(server, user);
    const url = `/v1/oauth2/register/${registered.client_id}`;
    const byToken = bearer(registered.registration_access_token);
    expect((await server.inject({ method: 'GET', url, headers: byToken })).json()).toMatchObject({
      client_id: registered.client_id,
    });
    expect((await server.inject({ method: 'GET', url, headers: { cookie: user.cookie } })).statusCode).toBe(200);

    const updated = await server.inject({
      method: 'PUT',
      url,
      headers: byToken,
      payload: { client_id: registered.client_id, client_name: 'Renamed', redirect_uris: ['https://new.example/cb'] },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      client_name: 'Renamed',
      redirect_uris: ['https://new.example/cb'],
      // Shown only when issued.
      client_secret: '',
    });

    const badUpdate = await server.inject({
      method: 'PUT',
      url,
      headers: byToken,
      payload: { client_id: registered.client_id, client_name: 'X', redirect_uris: ['http://evil.example/cb'] },
    });
    expect(badUpdate.statusCode).toBe(400);
    expect(badUpdate.json()).toMatchObject({ error: 'invalid_redirect_uri' });

    const stranger = await userFactory(server);
    expect((await server.inject({ method: 'GET', url, headers: { cookie: stranger.cookie } })).statusCode).toBe(401);
    expect((await server.inject({ method: 'GET', url, headers: bearer('polar_crt_wrong') })).statusCode).toBe(401);

    const deleted = await server.inject({ method: 'DELETE', url, headers: byToken });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({});
    expect((await server.inject({ method: 'GET', url, headers: byToken })).statusCode).toBe(401);
  });

  it('a deleted client can no longer obtain or use tokens', async () => {
    const registered = await registerClient(server, user);
    const tokens = await issueTokens(server, user, registered);
    await server.inject({
      method: 'DELETE',
      url: `/v1/oauth2/register/${registered.client_id}`,
      headers: bearer(registered.registration_access_token),
    });
    const response = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: registered.client_id,
      client_secret: registered.client_secret,
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('rotates the secret: the old one stops working', async () => {
    const registered = await registerClient(server, user);
    const rotated = await server.inject({
      method: 'POST',
      url: `/v1/oauth2/register/${registered.client_id}/secret`,
      headers: user.headers,
    });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().client_secret).not.toBe(registered.client_secret);
    const { payload, ...headers } = form({
      token: 'x',
      client_id: registered.client_id,
      client_secret: registered.client_secret,
    });
    expect((await server.inject({ method: 'POST', url: '/v1/oauth2/introspect', headers, payload })).statusCode).toBe(
      401,
    );
  });

  it('keeps the client secret only as its keyed hash, answering it only when issued', async () => {
    const registered = await registerClient(server, user);
    expect(registered.client_secret).toMatch(/^polar_cs_[0-9A-Za-z]{43}$/);
    const row = async () =>
      (
        await server.runtime.database.pool.query('SELECT * FROM oauth2_clients WHERE client_id = $1', [
          registered.client_id,
        ])
      ).rows[0];
    const stored = await row();
    expect(JSON.stringify(stored)).not.toContain(registered.client_secret);
    expect(stored.client_secret_hash).toBe(hashToken(registered.client_secret, TEST_SECRET));
    const url = `/v1/oauth2/register/${registered.client_id}`;
    expect((await server.inject({ method: 'GET', url, headers: { cookie: user.cookie } })).json().client_secret).toBe(
      '',
    );
    const listed = (await server.inject({ method: 'GET', url: '/v1/oauth2/?limit=100', headers: user.headers }))
      .json()
      .items.find((item: { client_id: string }) => item.client_id === registered.client_id);
    expect(listed.client_secret).toBe('');

    const rotated = await server.inject({ method: 'POST', url: `${url}/secret`, headers: user.headers });
    const secret = rotated.json().client_secret as string;
    expect(secret).toMatch(/^polar_cs_/);
    expect(rotated.headers['cache-control']).toBe('no-store');
    expect(JSON.stringify(await row())).not.toContain(secret);
    // The new secret authenticates both ways (post and basic), against its hash.
    const post = form({ token: 'x', client_id: registered.client_id, client_secret: secret });
    expect(
      (await server.inject({ method: 'POST', url: '/v1/oauth2/introspect', headers: post, payload: post.payload }))
        .statusCode,
    ).toBe(200);
    const basic = form({ token: 'x' });
    const response = await server.inject({
      method: 'POST',
      url: '/v1/oauth2/introspect',
      headers: {
        ...basic,
        authorization: `Basic ${Buffer.from(`${registered.client_id}:${secret}`).toString('base64')}`,
      },
      payload: basic.payload,
    });
    expect(response.statusCode).toBe(200);
  });

  it('hashes a secret kept as issued before migration 0037 when the server starts', async () => {
    const registered = await registerClient(server, user);
    const legacy = 'polar_cs_LegacySecretKeptAsIssuedBefore0037abcdefghi';
    // The row as migration 0037 leaves a client of 0035: the secret as issued, no hash yet.
    await server.runtime.database.pool.query(
      'UPDATE oauth2_clients SET legacy_client_secret = $2, client_secret_hash = NULL WHERE client_id = $1',
      [registered.client_id, legacy],
    );
    const attempt = () => {
      const { payload, ...headers } = form({ token: 'x', client_id: registered.client_id, client_secret: legacy });
      return server.inject({ method: 'POST', url: '/v1/oauth2/introspect', headers, payload });
    };
    expect((await attempt()).statusCode).not.toBe(200);
    // What every server does when it starts.
    await createOAuth2Server(server.runtime.database.db, server.config);
    const { rows } = await server.runtime.database.pool.query(
      'SELECT legacy_client_secret, client_secret_hash FROM oauth2_clients WHERE client_id = $1',
      [registered.client_id],
    );
    expect(rows[0]).toEqual({ legacy_client_secret: null, client_secret_hash: hashToken(legacy, TEST_SECRET) });
    expect((await attempt()).statusCode).toBe(200);
    expect(await hashLegacyClientSecrets(server.runtime.database.db, (value) => hashToken(value, TEST_SECRET))).toBe(0);
  });

  it('lists the user’s clients, newest first', async () => {
    const lister = await userFactory(server);
    const first = await registerClient(server, lister, { client_name: 'First' });
    const second = await registerClient(server, lister, { client_name: 'Second' });
    const response = await server.inject({ method: 'GET', url: '/v1/oauth2/', headers: { cookie: lister.cookie } });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.pagination).toEqual({ total_count: 2, max_page: 1 });
    expect(body.items.map((item: { client_id: string }) => item.client_id).sort()).toEqual(
      [first.client_id, second.client_id].sort(),
    );
    expect(body.items[0]).toHaveProperty('client_secret');
    expect((await server.inject({ method: 'GET', url: '/v1/oauth2/' })).statusCode).toBe(401);
  });

  it('refuses a page or limit out of bounds with the 422 every list answers, and still lists', async () => {
    const lister = await userFactory(server);
    await registerClient(server, lister, { client_name: 'Bounded' });
    const list = (query: string) =>
      server.inject({ method: 'GET', url: `/v1/oauth2/?${query}`, headers: { cookie: lister.cookie } });
    const before = (await list('')).json();
    const cases: [string, 'page' | 'limit'][] = [
      ['page=99999999999999999999', 'page'],
      ['page=2147483648', 'page'],
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=1.5', 'page'],
      ['page=two', 'page'],
      ['page=1&page=2', 'page'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=99999999999999999999', 'limit'],
      ['limit=-1', 'limit'],
      ['limit=2.5', 'limit'],
    ];
    for (const [query, field] of cases) {
      const response = await list(query);
      expect(response.statusCode, `${query}: ${response.body}`).toBe(422);
      const body = response.json();
      expect(body.error, query).toBe('RequestValidationError');
      expect(body.detail.length, query).toBeGreaterThan(0);
      for (const issue of body.detail) {
        expect(issue, query).toEqual({ loc: ['query', field], msg: expect.any(String), type: expect.any(String) });
      }
      // The same body as another list of the same user answers the same query.
      const other = await server.inject({
        method: 'GET',
        url: `/v1/organizations/?${query}`,
        headers: { cookie: lister.cookie },
      });
      expect(other.statusCode, query).toBe(422);
      expect(response.json(), query).toEqual(other.json());
    }
    expect((await list('')).json()).toEqual(before);
    const last = await list('page=2147483647&limit=100');
    expect(last.statusCode, last.body).toBe(200);
    expect(last.json()).toEqual({ items: [], pagination: { total_count: 1, max_page: 1 } });
  });
});

describe('connected apps', () => {
  it('lists the user’s grants and revokes one with its tokens', async () => {
    const owner = await userFactory(server);
    const app = await registerClient(server, owner);
    const tokens = await issueTokens(server, owner, app);
    const list = await server.inject({ method: 'GET', url: '/v1/oauth2/grants', headers: { cookie: owner.cookie } });
    expect(list.statusCode).toBe(200);
    const grant = list
      .json()
      .items.find((item: { client: { client_id: string } }) => item.client.client_id === app.client_id);
    expect(grant).toMatchObject({ sub_type: 'user', sub: owner.id, scopes: ['openid', 'email', 'products:read'] });
    const stranger = await userFactory(server);
    expect(
      (await server.inject({ method: 'DELETE', url: `/v1/oauth2/grants/${grant.id}`, headers: stranger.headers }))
        .statusCode,
    ).toBe(404);
    expect(
      (await server.inject({ method: 'DELETE', url: `/v1/oauth2/grants/${grant.id}`, headers: owner.headers }))
        .statusCode,
    ).toBe(204);
    expect(
      (await server.inject({ method: 'GET', url: '/v1/products/', headers: bearer(tokens.access_token) })).statusCode,
    ).toBe(401);
    const refresh = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: app.client_id,
      client_secret: app.client_secret,
    });
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
  });
});

function jwtPart(token: string, index: 0 | 1): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[index]!, 'base64url').toString());
}

/** Verifies an ID token's RS256 signature against the published key of its kid. */
async function verifiesAgainstJwks(idToken: string): Promise<boolean> {
  const { keys } = (await server.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json() as {
    keys: { kid: string }[];
  };
  const [header, payload, signature] = idToken.split('.') as [string, string, string];
  const key = keys.find((candidate) => candidate.kid === jwtPart(idToken, 0).kid);
  if (!key) return false;
  return verify(
    'RSA-SHA256',
    Buffer.from(`${header}.${payload}`),
    createPublicKey({ key: key as never, format: 'jwk' }),
    Buffer.from(signature, 'base64url'),
  );
}

async function publishedKids(): Promise<string[]> {
  const response = await server.inject({ method: 'GET', url: '/.well-known/jwks.json' });
  return (response.json().keys as { kid: string }[]).map((key) => key.kid);
}

/** Polls the JWKS (each request lets the server check its keys) until `done`, for at most 15 seconds. */
async function untilKeys(done: (kids: string[]) => boolean): Promise<string[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const kids = await publishedKids();
    if (done(kids) || Date.now() > deadline) return kids;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('signing keys', () => {
  it('a running server signs with a rotated key; the old one stays published until its tokens expire', async () => {
    const before = await issueTokens(server, user, client, { scope: 'openid products:read' });
    const oldKid = jwtPart(before.id_token!, 0).kid as string;
    expect(await verifiesAgainstJwks(before.id_token!)).toBe(true);

    // As `tessera oauth2 rotate-key` does it: in the database, from outside this server.
    const kid = await rotateSigningKey(server.runtime.database.db, new Date());
    expect(await untilKeys((kids) => kids[0] === kid)).toEqual([kid, oldKid]);
    const after = await issueTokens(server, user, client, { scope: 'openid products:read' });
    expect(jwtPart(after.id_token!, 0).kid).toBe(kid);
    expect(await verifiesAgainstJwks(after.id_token!)).toBe(true);
    // An ID token signed before the rotation still verifies: its key is still published.
    expect(await verifiesAgainstJwks(before.id_token!)).toBe(true);

    // Retired long before any token it signed could still live: no longer published.
    await server.runtime.database.pool.query(
      `UPDATE oauth2_signing_keys SET retired_at = now() - interval '8 days' WHERE kid = $1`,
      [oldKid],
    );
    expect(await untilKeys((kids) => !kids.includes(oldKid))).toEqual([kid]);
    expect(await verifiesAgainstJwks(before.id_token!)).toBe(false);
  });

  it('rotate-key makes a new current key and keeps the previous one published', async () => {
    const before = (await loadSigningKeys(server.runtime.database.db)) as { kid: string }[];
    const kid = await rotateSigningKey(server.runtime.database.db, new Date());
    const after = (await loadSigningKeys(server.runtime.database.db)) as { kid: string }[];
    expect(after[0]!.kid).toBe(kid);
    expect(after.map((key) => key.kid)).toContain(before[0]!.kid);
  });
});

describe('the oauth2.clean job', () => {
  it('drops expired rows of the store and keeps live ones', async () => {
    const tokens = await issueTokens(server, user, client);
    await server.runtime.database.pool.query(
      `INSERT INTO oauth2_store (model, id_hash, payload, expires_at) VALUES ('AccessToken', 'expired-row', '{}', now() - interval '1 minute')`,
    );
    await cleanOAuth2StoreJob.handle(server.context(), {});
    const { rows } = await server.runtime.database.pool.query(
      `SELECT id_hash FROM oauth2_store WHERE id_hash = 'expired-row'`,
    );
    expect(rows).toEqual([]);
    expect(
      (await server.inject({ method: 'GET', url: '/v1/products/', headers: bearer(tokens.access_token) })).statusCode,
    ).toBe(200);
  });
});

describe('the OpenAPI description of the OAuth2 calls', () => {
  it('describes every call, form bodies as forms, errors as OAuth’s body', async () => {
    const document = (await server.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operations = Object.fromEntries(
      Object.entries(document.paths as Record<string, Record<string, { operationId: string }>>)
        .filter(([path]) => path.startsWith('/v1/oauth2/'))
        .flatMap(([path, methods]) =>
          Object.entries(methods).map(([method, operation]) => [operation.operationId, `${method} ${path}`]),
        ),
    );
    expect(operations).toEqual({
      'oauth2:authorize': 'get /v1/oauth2/authorize',
      'oauth2:token': 'post /v1/oauth2/token',
      'oauth2:introspect': 'post /v1/oauth2/introspect',
      'oauth2:revoke': 'post /v1/oauth2/revoke',
      'oauth2:userinfo': 'get /v1/oauth2/userinfo',
      'oauth2:clients:list': 'get /v1/oauth2/',
      'oauth2:clients:create': 'post /v1/oauth2/register',
      'oauth2:clients:get': 'get /v1/oauth2/register/{client_id}',
      'oauth2:clients:update': 'put /v1/oauth2/register/{client_id}',
      'oauth2:clients:delete': 'delete /v1/oauth2/register/{client_id}',
    });
    const token = document.paths['/v1/oauth2/token'].post;
    expect(Object.keys(token.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
    expect(token.responses['429'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/OAuth2Error',
    });
    expect(token.parameters ?? []).toEqual([]);
    for (const name of ['OAuth2Client', 'TokenResponse', 'IntrospectTokenResponse', 'AuthorizeResponseUser']) {
      expect(document.components.schemas).toHaveProperty(name);
    }
  });

  it('answers what it describes', async () => {
    const registered = await registerClient(server, user, { scope: 'openid email products:read' });
    expect(() => OAuth2Client.parse(registered)).not.toThrow();
    const got = await server.inject({
      method: 'GET',
      url: `/v1/oauth2/register/${registered.client_id}`,
      headers: bearer(registered.registration_access_token),
    });
    OAuth2Client.parse(got.json());
    ListResourceOAuth2Client.parse(
      (await server.inject({ method: 'GET', url: '/v1/oauth2/', headers: { cookie: user.cookie } })).json(),
    );
    const info = await server.inject({
      method: 'GET',
      url: `/v1/oauth2/authorize?${new URLSearchParams({ client_id: registered.client_id, scope: 'openid', sub_type: 'organization' })}`,
      headers: { cookie: user.cookie },
    });
    AuthorizeResponse.parse(info.json());
    const tokens = await issueTokens(server, user, registered);
    TokenResponse.parse(tokens);
    const { payload, ...headers } = form({
      token: tokens.access_token,
      client_id: registered.client_id,
      client_secret: registered.client_secret,
    });
    IntrospectTokenResponse.parse(
      (await server.inject({ method: 'POST', url: '/v1/oauth2/introspect', headers, payload })).json(),
    );
    UserInfo.parse(
      (await server.inject({ method: 'GET', url: '/v1/oauth2/userinfo', headers: bearer(tokens.access_token) })).json(),
    );
    RevokeTokenResponse.parse(
      (await server.inject({ method: 'POST', url: '/v1/oauth2/revoke', headers, payload })).json(),
    );
    IntrospectTokenResponse.parse(
      (await server.inject({ method: 'POST', url: '/v1/oauth2/introspect', headers, payload })).json(),
    );
  });
});
