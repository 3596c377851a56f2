import { Polar } from '@polar-sh/sdk';
import { HTTPClient } from '@polar-sh/sdk/lib/http.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userFactory, type UserFixture } from '../factories/users.js';
import { startTestServer, type TestServer } from '../harness.js';
import { authorize, REDIRECT_URI, type RegisteredClient } from '../support/oauth2.js';

/**
 * Every `oauth2.*` call of the official `@polar-sh/sdk@0.33.2`; every response passes the SDK's own
 * validation or the call throws, failing the test. Client management runs as a dashboard user (its
 * session token as the SDK's bearer), the token calls as the client.
 */
let server: TestServer;
let user: UserFixture;
let asUser: Polar;

function sessionToken(fixture: UserFixture): string {
  return fixture.cookie.slice('tessera_session='.length);
}

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  user = await userFactory(server);
  asUser = new Polar({ accessToken: sessionToken(user), serverURL: server.url });
});
afterAll(() => server?.stop());

describe('oauth2 through @polar-sh/sdk', () => {
  let client: RegisteredClient;

  it('oauth2.clients.create', async () => {
    const created = await asUser.oauth2.clients.create({
      clientName: 'Acme Reports',
      redirectUris: [REDIRECT_URI],
      scope: 'openid email products:read',
      logoUri: 'https://app.example.com/logo.png',
    });
    // The call's declared response is open (any); its fields are the registration's.
    expect(created).toMatchObject({
      client_name: 'Acme Reports',
      client_id: expect.stringMatching(/^polar_ci_/),
      client_secret: expect.stringMatching(/^polar_cs_/),
      registration_access_token: expect.stringMatching(/^polar_crt_/),
      token_endpoint_auth_method: 'client_secret_post',
    });
    client = created as RegisteredClient;
  });

  it('oauth2.clients.list', async () => {
    const page = await asUser.oauth2.clients.list({});
    expect(page.result.items.map((item) => item.clientId)).toContain(client.client_id);
    const item = page.result.items.find((candidate) => candidate.clientId === client.client_id)!;
    expect(item).toMatchObject({
      clientName: 'Acme Reports',
      // Kept only as its keyed hash: answered once, at registration.
      clientSecret: '',
      clientSecretExpiresAt: 0,
    });
    expect(item.createdAt).toBeInstanceOf(Date);
  });

  it('oauth2.clients.get', async () => {
    const got = await asUser.oauth2.clients.get({ clientId: client.client_id });
    expect(got).toMatchObject({ client_id: client.client_id, client_name: 'Acme Reports' });
  });

  it('oauth2.clients.update', async () => {
    const updated = await asUser.oauth2.clients.update({
      clientId: client.client_id,
      oAuth2ClientConfigurationUpdate: {
        clientId: client.client_id,
        clientName: 'Acme Reports 2',
        redirectUris: [REDIRECT_URI],
        scope: 'openid email products:read',
      },
    });
    expect(updated).toMatchObject({ client_name: 'Acme Reports 2' });
  });

  it('oauth2.authorize', async () => {
    const httpClient = new HTTPClient();
    httpClient.addHook('beforeRequest', (request) => {
      const url = new URL(request.url);
      url.search = new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        scope: 'openid products:read',
      }).toString();
      return new Request(url, request);
    });
    const polar = new Polar({ accessToken: sessionToken(user), serverURL: server.url, httpClient });
    const info = await polar.oauth2.authorize();
    expect(info).toMatchObject({
      subType: 'user',
      sub: { id: user.id, email: user.email, avatarUrl: null },
      scopes: ['openid', 'products:read'],
      client: { clientId: client.client_id, clientName: 'Acme Reports 2', logoUri: 'https://app.example.com/logo.png' },
    });
  });

  let accessToken = '';
  let refreshToken = '';

  it('oauth2.token (authorization_code)', async () => {
    const { redirect } = await authorize(server, user, client, { scope: 'openid email products:read' });
    const polar = new Polar({ serverURL: server.url });
    const tokens = await polar.oauth2.token({
      grantType: 'authorization_code',
      clientId: client.client_id,
      clientSecret: client.client_secret,
      code: redirect.searchParams.get('code')!,
      redirectUri: REDIRECT_URI,
    });
    expect(tokens).toMatchObject({ tokenType: 'Bearer', expiresIn: 864000, scope: 'openid email products:read' });
    expect(tokens.accessToken).toMatch(/^polar_at_u_/);
    accessToken = tokens.accessToken;
    refreshToken = tokens.refreshToken!;
  });

  it('oauth2.token (refresh_token)', async () => {
    const polar = new Polar({ serverURL: server.url });
    const tokens = await polar.oauth2.token({
      grantType: 'refresh_token',
      clientId: client.client_id,
      clientSecret: client.client_secret,
      refreshToken,
    });
    expect(tokens.refreshToken).toMatch(/^polar_rt_u_/);
    expect(tokens.refreshToken).not.toBe(refreshToken);
    accessToken = tokens.accessToken;
  });

  it('oauth2.userinfo', async () => {
    const info = await new Polar({ accessToken, serverURL: server.url }).oauth2.userinfo();
    expect(info).toEqual({ sub: user.id, email: user.email, emailVerified: true });
  });

  it('oauth2.introspect', async () => {
    const polar = new Polar({ serverURL: server.url });
    const info = await polar.oauth2.introspect({
      token: accessToken,
      clientId: client.client_id,
      clientSecret: client.client_secret,
    });
    expect(info).toMatchObject({
      active: true,
      clientId: client.client_id,
      tokenType: 'access_token',
      subType: 'user',
      sub: user.id,
      scope: 'openid email products:read',
    });
  });

  it('the token calls seller routes through the SDK', async () => {
    const polar = new Polar({ accessToken, serverURL: server.url });
    const products = await polar.products.list({});
    expect(products.result.items).toEqual([]);
  });

  it('oauth2.revoke', async () => {
    const polar = new Polar({ serverURL: server.url });
    const answer = await polar.oauth2.revoke({
      token: accessToken,
      clientId: client.client_id,
      clientSecret: client.client_secret,
    });
    expect(answer).toEqual({});
    await expect(new Polar({ accessToken, serverURL: server.url }).products.list({})).rejects.toThrow();
  });

  it('oauth2.clients.delete', async () => {
    await asUser.oauth2.clients.delete({ clientId: client.client_id });
    const page = await asUser.oauth2.clients.list({});
    expect(page.result.items.map((item) => item.clientId)).not.toContain(client.client_id);
  });
});
