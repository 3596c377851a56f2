import { createServer } from 'node:net';
import { Polar } from '@polar-sh/sdk';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserFixture } from './factories/users.js';
import { startTestServer, type TestServer } from './harness.js';
import { REDIRECT_URI, registerClient, type RegisteredClient } from './support/oauth2.js';

/**
 * The whole flow as a relying party sees it, driven by openid-client (a certified OpenID Connect
 * relying party): discovery, authorization code with PKCE and nonce, token, ID token verified against
 * the JWKS, userinfo, refresh, introspection, revocation; the access token then calls seller routes
 * through @polar-sh/sdk. The server listens on BASE_URL, as the issuer must match it.
 */
let server: TestServer;
let user: UserFixture;
let client: RegisteredClient;
let organizationId: string;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A browser's cookies across the front channel. */
class Browser {
  private readonly cookies = new Map<string, string>();

  async get(url: string, extraCookie?: string): Promise<Response> {
    return this.send(url, { method: 'GET' }, extraCookie);
  }

  async send(url: string, init: RequestInit, extraCookie?: string): Promise<Response> {
    const cookie = [
      ...[...this.cookies].map(([name, value]) => `${name}=${value}`),
      ...(extraCookie ? [extraCookie] : []),
    ];
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: cookie.join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, index), pair!.slice(index + 1));
    }
    return response;
  }
}

/** The consent page's part: signed in, allow (for the organization when given). */
async function consentInBrowser(authorizationUrl: URL, sub?: string): Promise<URL> {
  const browser = new Browser();
  const start = await browser.get(authorizationUrl.href);
  expect(start.status).toBe(303);
  const interaction = new URL(start.headers.get('location')!, server.url);
  const uid = interaction.searchParams.get('uid')!;
  const info = await browser.get(`${server.url}/v1/oauth2/authorize?uid=${uid}`, user.cookie);
  expect(info.status).toBe(200);
  const form = new URLSearchParams({ uid, action: 'allow', ...(sub ? { sub } : {}) });
  const consent = await browser.send(
    `${server.url}/v1/oauth2/consent`,
    {
      method: 'POST',
      body: form,
      headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
    },
    user.cookie,
  );
  expect(consent.status).toBe(302);
  const resume = await browser.get(new URL(consent.headers.get('location')!, server.url).href);
  expect(resume.status).toBe(303);
  return new URL(resume.headers.get('location')!);
}

beforeAll(async () => {
  const port = await freePort();
  server = await startTestServer({ listen: true, config: { port, baseUrl: `http://127.0.0.1:${port}` } });
  // Signed up from the server's own origin (BASE_URL carries the port here).
  const email = `rp-${port}@example.com`;
  const signup = await server.inject({
    method: 'POST',
    url: '/v1/auth/signup',
    headers: { origin: server.url },
    payload: { email, password: 'correct horse battery staple' },
  });
  const session = signup.cookies.find((cookie) => cookie.name === 'tessera_session')!;
  const cookie = `tessera_session=${session.value}`;
  user = { id: signup.json().id, email, password: '', cookie, headers: { cookie, origin: server.url } };
  client = await registerClient(server, user, { scope: 'openid email profile products:read organizations:read' });
  const created = await server.inject({
    method: 'POST',
    url: '/v1/organizations/',
    headers: { ...user.headers, origin: server.url },
    payload: { name: 'Acme', slug: `acme-${port}` },
  });
  organizationId = created.json().id;
});
afterAll(() => server?.stop());

describe('openid-client against the authorization server', () => {
  it('runs discovery, code + PKCE, ID token, userinfo, refresh, introspection and revocation', async () => {
    const config = await oidc.discovery(new URL(server.url), client.client_id, client.client_secret, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    expect(config.serverMetadata().issuer).toBe(server.url);

    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const authorizationUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid email products:read',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    expect(authorizationUrl.href.startsWith(`${server.url}/oauth2/authorize?`)).toBe(true);
    const callback = await consentInBrowser(authorizationUrl);

    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    expect(tokens.access_token).toMatch(/^polar_at_u_/);
    expect(tokens.refresh_token).toMatch(/^polar_rt_u_/);
    expect(tokens.expires_in).toBe(864000);
    expect(tokens.claims()).toMatchObject({ sub: user.id, email: user.email, nonce });

    // The ID token's signature, against the published keys.
    const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
    const { payload, protectedHeader } = await jwtVerify(tokens.id_token!, jwks, {
      issuer: server.url,
      audience: client.client_id,
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload.sub).toBe(user.id);

    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, user.id);
    expect(userinfo).toEqual({ sub: user.id, email: user.email, email_verified: true });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.access_token).toMatch(/^polar_at_u_/);

    const introspection = await oidc.tokenIntrospection(config, refreshed.access_token);
    expect(introspection).toMatchObject({ active: true, sub: user.id, sub_type: 'user', client_id: client.client_id });

    // The token acts for the user through the reference's SDK.
    const polar = new Polar({ accessToken: refreshed.access_token, serverURL: server.url });
    const products = await polar.products.list({ organizationId });
    expect(products.result.items).toEqual([]);

    await oidc.tokenRevocation(config, refreshed.access_token);
    expect((await oidc.tokenIntrospection(config, refreshed.access_token)).active).toBe(false);
    await expect(polar.products.list({ organizationId })).rejects.toThrow(/401/);
  });

  it('issues organization tokens that call seller routes as the organization', async () => {
    const config = await oidc.discovery(new URL(server.url), client.client_id, client.client_secret, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    const verifier = oidc.randomPKCECodeVerifier();
    const authorizationUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid products:read organizations:read',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'org',
      sub_type: 'organization',
    });
    const callback = await consentInBrowser(authorizationUrl, organizationId);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: 'org',
    });
    expect(tokens.access_token).toMatch(/^polar_at_o_/);
    const polar = new Polar({ accessToken: tokens.access_token, serverURL: server.url });
    const organization = await polar.organizations.get({ id: organizationId });
    expect(organization.id).toBe(organizationId);
    const products = await polar.products.list({});
    expect(products.result.items).toEqual([]);
  });
});
