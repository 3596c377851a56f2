import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { TestServer } from '../harness.js';
import type { UserFixture } from '../factories/users.js';
import { OWN_ORIGIN } from '../factories/users.js';

/** Test support of the authorization server: clients, a browser's cookies, the code flow by hand. */

export const REDIRECT_URI = 'https://app.example.com/callback';

export interface RegisteredClient {
  client_id: string;
  client_secret: string;
  registration_access_token: string;
  [field: string]: unknown;
}

export async function registerClient(
  server: TestServer,
  user: UserFixture,
  overrides: Record<string, unknown> = {},
): Promise<RegisteredClient> {
  const response = await server.inject({
    method: 'POST',
    url: '/v1/oauth2/register',
    headers: { ...user.headers, 'content-type': 'application/json' },
    payload: JSON.stringify({ client_name: 'Acme Reports', redirect_uris: [REDIRECT_URI], ...overrides }),
  });
  if (response.statusCode !== 200) throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  return response.json() as RegisteredClient;
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The library's cookies as a browser keeps them (paths ignored: every test call is same-site). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: LightMyRequestResponse): void {
    for (const cookie of response.cookies as { name: string; value: string; expires?: Date }[]) {
      if (cookie.value === '' || (cookie.expires && cookie.expires.getTime() < Date.now()))
        this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }

  header(extra?: string): string {
    const parts = [...this.cookies].map(([name, value]) => `${name}=${value}`);
    if (extra) parts.push(extra);
    return parts.join('; ');
  }
}

export interface AuthorizeOptions {
  scope?: string;
  subType?: 'user' | 'organization';
  organizationId?: string;
  prompt?: string;
  pkce?: { challenge: string; method?: string };
  redirectUri?: string;
  state?: string;
  nonce?: string;
  jar?: CookieJar;
  action?: 'allow' | 'deny';
}

function pathOf(location: string): string {
  const url = new URL(location, 'http://127.0.0.1');
  return url.pathname + url.search;
}

/** Starts an authorization request; answers the library's first response. */
export async function startAuthorization(
  server: TestServer,
  client: RegisteredClient,
  options: AuthorizeOptions = {},
): Promise<{ response: LightMyRequestResponse; jar: CookieJar }> {
  const jar = options.jar ?? new CookieJar();
  const query = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: options.redirectUri ?? REDIRECT_URI,
    response_type: 'code',
    state: options.state ?? 'state-1',
  });
  if (options.scope !== undefined) query.set('scope', options.scope);
  else query.set('scope', 'openid email products:read');
  if (options.subType) query.set('sub_type', options.subType);
  if (options.prompt) query.set('prompt', options.prompt);
  if (options.nonce) query.set('nonce', options.nonce);
  if (options.pkce) {
    query.set('code_challenge', options.pkce.challenge);
    query.set('code_challenge_method', options.pkce.method ?? 'S256');
  }
  const response = await server.inject({
    method: 'GET',
    url: `/oauth2/authorize?${query}`,
    headers: { cookie: jar.header() },
  });
  jar.take(response);
  return { response, jar };
}

/**
 * The whole front channel as the consent page drives it: authorize, consent (allow or deny), resume.
 * Answers the final redirect to the client.
 */
export async function authorize(
  server: TestServer,
  user: UserFixture,
  client: RegisteredClient,
  options: AuthorizeOptions = {},
): Promise<{ redirect: URL; jar: CookieJar }> {
  const { response, jar } = await startAuthorization(server, client, options);
  if (response.statusCode !== 303) throw new Error(`authorize: ${response.statusCode} ${response.body}`);
  const interaction = new URL(response.headers.location as string, 'http://127.0.0.1');
  const uid = interaction.searchParams.get('uid');
  if (!uid) {
    // Straight back to the client (an error, or consent already given).
    return { redirect: interaction, jar };
  }
  const form = new URLSearchParams({ uid, action: options.action ?? 'allow' });
  if (options.organizationId) form.set('sub', options.organizationId);
  const consent = await server.inject({
    method: 'POST',
    url: '/v1/oauth2/consent',
    headers: {
      cookie: jar.header(user.cookie),
      origin: OWN_ORIGIN,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: form.toString(),
  });
  if (consent.statusCode !== 302) throw new Error(`consent: ${consent.statusCode} ${consent.body}`);
  const resume = await server.inject({
    method: 'GET',
    url: pathOf(consent.headers.location as string),
    headers: { cookie: jar.header() },
  });
  jar.take(resume);
  if (resume.statusCode !== 303) throw new Error(`resume: ${resume.statusCode} ${resume.body}`);
  return { redirect: new URL(resume.headers.location as string), jar };
}

export async function tokenRequest(
  server: TestServer,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return server.inject({
    method: 'POST',
    url: '/v1/oauth2/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(form).toString(),
  });
}

export interface Tokens {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  expires_in: number;
  scope: string;
  token_type: string;
}

/** Code flow to tokens for a confidential client (secret in the body). */
export async function issueTokens(
  server: TestServer,
  user: UserFixture,
  client: RegisteredClient,
  options: AuthorizeOptions = {},
): Promise<Tokens> {
  const pkce = pkcePair();
  const { redirect } = await authorize(server, user, client, { ...options, pkce: { challenge: pkce.challenge } });
  const code = redirect.searchParams.get('code');
  if (!code) throw new Error(`no code: ${redirect}`);
  const response = await tokenRequest(server, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: pkce.verifier,
    client_id: client.client_id,
    client_secret: client.client_secret,
  });
  if (response.statusCode !== 200) throw new Error(`token: ${response.statusCode} ${response.body}`);
  return response.json() as Tokens;
}
