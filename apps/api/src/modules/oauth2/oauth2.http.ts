import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { WEB_DIST_DIR } from '../../paths.js';
import { checkSameOrigin, resolveSubject, type AuthDeps } from '../../platform/auth/authenticate.js';
import type { Subject } from '../../platform/auth/subject.js';
import { generateToken, hashToken, TOKEN_PREFIX } from '../../platform/auth/tokens.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { ApiError } from '../../platform/http/errors.js';
import { parseOrThrow, unstorableTextIssues } from '../../platform/http/validation.js';
import { SESSION_COOKIE } from '../auth/auth.service.js';
import { TooManyRequests } from '../../platform/http/errors.js';
import { RateLimiter } from '../../platform/http/rate-limit.js';
import { createOAuth2Server, PROVIDER_ROUTES, withRequestSubjects, type SubType } from './oauth2.provider.js';
import type { Provider } from './oidc-provider.js';
import { ANONYMOUS, OAUTH2_RATE_LIMITS } from './oauth2.rate-limits.js';
import { ClientListQuery, OAuth2ClientConfiguration } from './oauth2.schemas.js';
import {
  findClientByClientId,
  findClientByRegistrationToken,
  findUserForClaims,
  insertClient,
  listClientsOfUser,
  listGrantsOfUser,
  listOrganizationsOfUser,
  softDeleteClient,
  updateClient,
  revokeGrant,
  type ClientMetadata,
  type StoredClient,
} from './oauth2.repository.js';
import { isAllowedRedirectUri, isHttpUrl, parseScopes, plainChallengeAsS256 } from './oauth2.rules.js';

/**
 * The authorization server over HTTP. The protocol endpoints (authorization, token, introspection,
 * revocation, userinfo, discovery, JWKS) are oidc-provider's, handed the raw request. The reference's
 * own calls around it are here: the authorize information the consent page shows, the consent itself,
 * client registration (RFC 7591/7592) and the user's clients and grants. Errors are OAuth's body
 * `{error, error_description}` (RFC 6749 §5.2, RFC 7591 §3.2.2).
 */

export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  const headers: Record<string, string> = { 'cache-control': 'no-store' };
  if (error.status === 401) headers['www-authenticate'] = `Bearer error="${error.error}"`;
  return reply.code(error.status).headers(headers).type('application/json').send({
    error: error.error,
    error_description: error.description,
  });
}

interface Deps {
  db: Db;
  config: Config;
  clock: Clock;
}

/** The registration body checked into metadata, or the RFC 7591 error. */
export function clientMetadataFrom(body: unknown): ClientMetadata {
  const parsed = OAuth2ClientConfiguration.safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.');
    throw new OAuthError(
      400,
      field.startsWith('redirect_uris') ? 'invalid_redirect_uri' : 'invalid_client_metadata',
      `${field || 'body'}: ${issue.message}`,
    );
  }
  const value = parsed.data;
  for (const uri of value.redirect_uris) {
    if (!isAllowedRedirectUri(uri)) {
      throw new OAuthError(
        400,
        'invalid_redirect_uri',
        `${uri}: redirect URIs must be https (http only for localhost or a private network address), without a fragment`,
      );
    }
  }
  for (const field of ['client_uri', 'logo_uri', 'tos_uri', 'policy_uri'] as const) {
    const url = value[field];
    if (url && !isHttpUrl(url)) throw new OAuthError(400, 'invalid_client_metadata', `${field} must be an http(s) URL`);
  }
  const scopes = parseScopes(value.scope);
  if ('unknown' in scopes) throw new OAuthError(400, 'invalid_client_metadata', `unknown scope: ${scopes.unknown}`);
  if (scopes.scopes.length === 0) throw new OAuthError(400, 'invalid_client_metadata', 'scope must not be empty');
  if (value.token_endpoint_auth_method === 'none' && value.grant_types.includes('refresh_token')) {
    // Public clients cannot refresh (the reference's refresh grant needs client authentication).
    value.grant_types = value.grant_types.filter((grant) => grant !== 'refresh_token');
  }
  return {
    redirect_uris: value.redirect_uris,
    token_endpoint_auth_method: value.token_endpoint_auth_method,
    grant_types: value.grant_types,
    response_types: value.response_types,
    scope: scopes.scopes.join(' '),
    client_name: value.client_name,
    client_uri: value.client_uri ?? null,
    logo_uri: value.logo_uri ?? null,
    tos_uri: value.tos_uri ?? null,
    policy_uri: value.policy_uri ?? null,
  };
}

/**
 * The client as its owner sees it. The secret is only ever known when it is issued (registration and
 * rotation, `issued`); afterwards `client_secret` is the empty string (the field is required by the
 * reference's schema, and only its keyed hash is kept).
 */
function serializeClient(
  config: Config,
  client: StoredClient,
  issued: { clientSecret?: string; registrationAccessToken?: string } = {},
) {
  const { registrationAccessToken } = issued;
  return {
    created_at: client.created_at.toISOString(),
    modified_at: client.modified_at ? client.modified_at.toISOString() : null,
    id: client.id,
    client_id: client.client_id,
    client_secret: issued.clientSecret ?? '',
    client_id_issued_at: client.client_id_issued_at,
    client_secret_expires_at: 0,
    ...client.metadata,
    registration_client_uri: `${config.baseUrl}/v1/oauth2/register/${client.client_id}`,
    ...(registrationAccessToken ? { registration_access_token: registrationAccessToken } : {}),
  };
}

function serializePublicClient(client: StoredClient) {
  return {
    created_at: client.created_at.toISOString(),
    modified_at: client.modified_at ? client.modified_at.toISOString() : null,
    client_id: client.client_id,
    client_name: client.metadata.client_name,
    client_uri: client.metadata.client_uri,
    logo_uri: client.metadata.logo_uri,
    tos_uri: client.metadata.tos_uri,
    policy_uri: client.metadata.policy_uri,
  };
}

const FORM = 'application/x-www-form-urlencoded';

/** The values of a body read as text (form or JSON), for the check of unstorable text. */
function textBodyValues(request: FastifyRequest): unknown {
  if (typeof request.body !== 'string') return request.body;
  if ((request.headers['content-type'] ?? '').startsWith(FORM)) return [...new URLSearchParams(request.body)];
  try {
    return JSON.parse(request.body);
  } catch {
    return request.body;
  }
}

export async function registerOAuth2Routes(app: FastifyInstance, deps: Deps): Promise<void> {
  const { db, config, clock } = deps;
  const callbacks = new WeakMap<Provider, ReturnType<Provider['callback']>>();
  const server = await createOAuth2Server(db, config, (provider) => {
    callbacks.set(provider, provider.callback());
    provider.on('server_error', (_ctx: unknown, error: Error) => app.log.error({ err: error }, 'oauth2 server error'));
  });
  const limiter = new RateLimiter({ db, clock, config }, OAUTH2_RATE_LIMITS);
  const authDeps: AuthDeps = {
    db,
    config,
    clock,
    onBackgroundError: (error) => app.log.error({ err: error }, 'oauth2 background error'),
  };
  const ownOrigin = new URL(config.baseUrl).origin;
  const webIndex = join(WEB_DIST_DIR, 'index.html');

  async function subjectOf(request: FastifyRequest): Promise<Subject> {
    try {
      return await resolveSubject(authDeps, {
        authorization: request.headers.authorization,
        sessionCookie: request.cookies[SESSION_COOKIE],
      });
    } catch {
      throw new OAuthError(401, 'invalid_token', 'The access token is invalid, expired or revoked.');
    }
  }

  /** The dashboard user (session cookie or session bearer), or a 401. */
  async function webUser(request: FastifyRequest): Promise<{ userId: string; viaCookie: boolean }> {
    const subject = await subjectOf(request);
    if (subject.kind !== 'user' || !subject.scopes.has('web_default')) {
      throw new OAuthError(401, 'invalid_token', 'Sign in to the dashboard first.');
    }
    if (subject.viaCookie && !['GET', 'HEAD'].includes(request.method)) {
      try {
        checkSameOrigin(request.headers, [ownOrigin, `${request.protocol}://${request.host}`]);
      } catch {
        throw new OAuthError(
          403,
          'access_denied',
          'Cross-site request refused: the Origin header does not match this server.',
        );
      }
    }
    return { userId: subject.userId, viaCookie: subject.viaCookie };
  }

  async function handOver(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const provider = await server.current();
    const callback = callbacks.get(provider)!;
    reply.hijack();
    const raw = request.raw as typeof request.raw & { body?: unknown };
    if (typeof request.body === 'string') raw.body = request.body;
    void withRequestSubjects(() => callback(raw, reply.raw));
  }

  /** The authorization request, with a PKCE plain challenge carried as S256 (plainChallengeAsS256). */
  async function handOverAuthorization(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const raw = request.raw;
    const queryAt = (raw.url ?? '').indexOf('?');
    if (queryAt >= 0) {
      const query = new URLSearchParams(raw.url!.slice(queryAt + 1));
      if (plainChallengeAsS256(query)) raw.url = `${raw.url!.slice(0, queryAt)}?${query}`;
    }
    if (typeof request.body === 'string' && (request.headers['content-type'] ?? '').startsWith(FORM)) {
      const body = new URLSearchParams(request.body);
      if (plainChallengeAsS256(body)) request.body = body.toString();
    }
    await handOver(request, reply);
  }

  /**
   * The client-authenticated endpoints (token, introspection, revocation) count each request per
   * client and per address in the shared rate-limit store before the library sees it.
   */
  async function limited(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    try {
      await limiter.check(OAUTH2_RATE_LIMITS, request, reply, ANONYMOUS);
    } catch (error) {
      if (!(error instanceof TooManyRequests)) throw error;
      reply.headers(error.headers);
      throw new OAuthError(429, 'too_many_requests', error.message);
    }
    await handOver(request, reply);
  }

  await app.register(async (scope) => {
    // The library reads form bodies itself; here they are read as text and handed over.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 56 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    // Text no column can hold (NUL, broken Unicode) is refused here, for every query, path and body value,
    // as the contract's routes refuse it, before the library or a lookup sees it.
    scope.addHook('preHandler', async (request) => {
      const values = [request.query, request.params, textBodyValues(request)];
      if (unstorableTextIssues(values).length > 0) {
        throw new OAuthError(400, 'invalid_request', 'Parameters must not contain NUL characters or broken Unicode.');
      }
    });
    scope.setErrorHandler((error, request, reply) => {
      if (error instanceof OAuthError) return sendOAuthError(reply, error);
      if (error instanceof ApiError) {
        return reply.code(error.status).type('application/json').send(error.body());
      }
      const status = (error as { statusCode?: number }).statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        return sendOAuthError(reply, new OAuthError(status, 'invalid_request', (error as Error).message));
      }
      request.log.error({ err: error }, 'unhandled error');
      return reply
        .code(500)
        .type('application/json')
        .send({ error: 'server_error', error_description: 'Internal server error' });
    });

    // ---- the library's endpoints -----------------------------------------------------------------
    scope.get(PROVIDER_ROUTES.authorization, async (request, reply) => {
      const query = request.query as Record<string, string | undefined>;
      if (query.uid && !query.client_id) {
        // The consent page of an interaction the library started.
        if (!existsSync(webIndex)) return reply.code(404).type('text/plain').send('The web app is not built.');
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-cache')
          .send(await readFile(webIndex));
      }
      await handOverAuthorization(request, reply);
    });
    scope.post(PROVIDER_ROUTES.authorization, async (request, reply) => handOverAuthorization(request, reply));
    scope.get(`${PROVIDER_ROUTES.authorization}/:uid`, async (request, reply) => handOver(request, reply));
    scope.post(PROVIDER_ROUTES.token, async (request, reply) => limited(request, reply));
    scope.post(PROVIDER_ROUTES.introspection, async (request, reply) => limited(request, reply));
    scope.post(PROVIDER_ROUTES.revocation, async (request, reply) => limited(request, reply));
    scope.get(PROVIDER_ROUTES.userinfo, async (request, reply) => handOver(request, reply));
    scope.post(PROVIDER_ROUTES.userinfo, async (request, reply) => handOver(request, reply));
    scope.get(PROVIDER_ROUTES.jwks, async (request, reply) => handOver(request, reply));
    scope.get('/.well-known/openid-configuration', async (request, reply) => handOver(request, reply));

    // ---- the authorize information and the consent ------------------------------------------------
    scope.get('/v1/oauth2/authorize', async (request) => {
      const query = request.query as Record<string, string | undefined>;
      let params: Record<string, unknown> = query;
      if (query.uid) {
        const interaction = await (await server.current()).Interaction.find(query.uid);
        if (!interaction)
          throw new OAuthError(400, 'invalid_request', 'This authorization request has expired; start again.');
        params = interaction.params;
      }
      const clientId = typeof params.client_id === 'string' ? params.client_id : '';
      const client = clientId ? await findClientByClientId(db, clientId) : undefined;
      if (!client) throw new OAuthError(400, 'invalid_client', 'Unknown client_id.');
      if (typeof params.redirect_uri === 'string' && !client.metadata.redirect_uris.includes(params.redirect_uri)) {
        throw new OAuthError(
          400,
          'invalid_request',
          'redirect_uri is not one of the client’s registered redirect URIs.',
        );
      }
      const subType = params.sub_type ?? 'user';
      if (subType !== 'user' && subType !== 'organization') {
        throw new OAuthError(400, 'invalid_request', 'sub_type must be user or organization.');
      }
      if (subType === 'user' && params.sub)
        throw new OAuthError(400, 'invalid_request', 'sub is only for sub_type=organization.');
      const scopes = requestedScopes(client, params.scope);
      const subject = await subjectOf(request);
      const userId = subject.kind === 'user' ? subject.userId : null;
      const base = { client: serializePublicClient(client), scopes };
      if (subType === 'organization') {
        const organizations = userId ? await listOrganizationsOfUser(db, userId) : [];
        return { ...base, sub_type: 'organization', sub: null, organizations };
      }
      const user = userId ? await findUserForClaims(db, userId) : undefined;
      return { ...base, sub_type: 'user', sub: user ? { id: user.id, email: user.email, avatar_url: null } : null };
    });

    scope.post('/v1/oauth2/consent', async (request, reply) => {
      const { userId } = await webUser(request);
      const body = readBody(request);
      const uid = body.uid;
      if (!uid) throw new OAuthError(400, 'invalid_request', 'uid is required.');
      const provider = await server.current();
      const interaction = await provider.Interaction.find(uid);
      if (!interaction)
        throw new OAuthError(400, 'invalid_request', 'This authorization request has expired; start again.');
      const params = interaction.params as Record<string, string | undefined>;
      if (body.action !== 'allow' && body.action !== 'deny') {
        throw new OAuthError(400, 'invalid_request', 'action must be allow or deny.');
      }
      if (body.action === 'deny') {
        interaction.result = { error: 'access_denied', error_description: 'The user denied the request.' };
      } else {
        const client = await findClientByClientId(db, params.client_id ?? '');
        if (!client) throw new OAuthError(400, 'invalid_client', 'Unknown client_id.');
        const subType: SubType = params.sub_type === 'organization' ? 'organization' : 'user';
        let accountId = userId;
        if (subType === 'organization') {
          const chosen = body.sub ?? params.sub;
          const organizations = await listOrganizationsOfUser(db, userId);
          if (!chosen || !organizations.some((organization) => organization.id === chosen)) {
            throw new OAuthError(400, 'invalid_sub', 'Choose one of your organizations.');
          }
          accountId = chosen;
        }
        const scopes = requestedScopes(client, params.scope);
        const grant = new provider.Grant({ accountId, clientId: client.client_id });
        grant.addOIDCScope(scopes.join(' '));
        const grantId = await grant.save();
        interaction.result = { login: { accountId }, consent: { grantId } };
      }
      await interaction.save(Math.max(interaction.exp - Math.floor(Date.now() / 1000), 1));
      return reply.code(302).header('location', interaction.returnTo).send();
    });

    // ---- clients (RFC 7591 / 7592) ----------------------------------------------------------------
    scope.get('/v1/oauth2/', async (request) => {
      const { userId } = await webUser(request);
      // The bounds of every list: outside them the API's 422 (a RequestValidationError), never an offset
      // the database cannot hold.
      const { page, limit } = parseOrThrow(ClientListQuery, request.query, ['query']);
      const { rows, total } = await listClientsOfUser(db, userId, { limit, offset: (page - 1) * limit });
      return {
        items: rows.map((client) => serializeClient(config, client)),
        pagination: { total_count: total, max_page: Math.ceil(total / limit) },
      };
    });

    scope.post('/v1/oauth2/register', async (request, reply) => {
      const { userId } = await webUser(request);
      const metadata = clientMetadataFrom(readJson(request));
      const registrationAccessToken = generateToken(TOKEN_PREFIX.clientRegistrationToken);
      const clientSecret = generateToken(TOKEN_PREFIX.oauth2ClientSecret);
      const client = await insertClient(db, {
        id: randomUUID(),
        now: clock.now(),
        clientId: generateToken(TOKEN_PREFIX.oauth2ClientId),
        clientSecretHash: hashToken(clientSecret, config.secret),
        registrationTokenHash: hashToken(registrationAccessToken, config.secret),
        userId,
        metadata,
      });
      // 200, not RFC 7591's 201: the reference's SDK accepts only 200 here.
      return reply
        .code(200)
        .header('cache-control', 'no-store')
        .send(serializeClient(config, client, { clientSecret, registrationAccessToken }));
    });

    /** The client of the path, for its owner's session or its registration access token. */
    async function managedClient(request: FastifyRequest): Promise<StoredClient> {
      const { client_id: clientId } = request.params as { client_id: string };
      const authorization = request.headers.authorization;
      const bearer = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
      if (bearer?.startsWith(TOKEN_PREFIX.clientRegistrationToken)) {
        const client = await findClientByRegistrationToken(db, clientId, hashToken(bearer, config.secret));
        if (!client) throw new OAuthError(401, 'invalid_token', 'Unknown client or registration access token.');
        return client;
      }
      const { userId } = await webUser(request);
      const client = await findClientByClientId(db, clientId);
      if (!client || client.user_id !== userId) throw new OAuthError(401, 'invalid_token', 'Unknown client.');
      return client;
    }

    scope.get('/v1/oauth2/register/:client_id', async (request) =>
      serializeClient(config, await managedClient(request)),
    );

    scope.put('/v1/oauth2/register/:client_id', async (request) => {
      const client = await managedClient(request);
      const body = readJson(request) as Record<string, unknown> | undefined;
      if (!body || typeof body !== 'object' || body.client_id !== client.client_id) {
        throw new OAuthError(400, 'invalid_client_metadata', 'client_id in the body must be the client’s.');
      }
      const { client_id: _id, client_secret: _secret, ...rest } = body;
      const metadata = clientMetadataFrom({ ...client.metadata, ...rest });
      return serializeClient(config, await updateClient(db, client.id, { now: clock.now(), metadata }));
    });

    scope.delete('/v1/oauth2/register/:client_id', async (request, reply) => {
      const client = await managedClient(request);
      await softDeleteClient(db, client.id, clock.now());
      // 200 with an empty object, not RFC 7592's 204: the reference's SDK reads a JSON body.
      return reply.code(200).send({});
    });

    // A new client secret (the dashboard's "rotate secret"), shown this once; the old one stops working
    // at once.
    scope.post('/v1/oauth2/register/:client_id/secret', async (request, reply) => {
      const client = await managedClient(request);
      const clientSecret = generateToken(TOKEN_PREFIX.oauth2ClientSecret);
      const updated = await updateClient(db, client.id, {
        now: clock.now(),
        clientSecretHash: hashToken(clientSecret, config.secret),
      });
      return reply.header('cache-control', 'no-store').send(serializeClient(config, updated, { clientSecret }));
    });

    // ---- the user's grants ("Connected apps") -----------------------------------------------------
    scope.get('/v1/oauth2/grants', async (request) => {
      const { userId } = await webUser(request);
      const grants = await listGrantsOfUser(db, userId, new Date());
      const items = [];
      for (const grant of grants) {
        const payload = grant.payload as {
          clientId?: string;
          accountId?: string;
          openid?: { scope?: string };
          iat?: number;
        };
        const client = payload.clientId ? await findClientByClientId(db, payload.clientId) : undefined;
        if (!client) continue;
        items.push({
          id: grant.grantId,
          client: serializePublicClient(client),
          sub_type: payload.accountId === userId ? 'user' : 'organization',
          sub: payload.accountId,
          scopes: (payload.openid?.scope ?? '').split(' ').filter(Boolean),
          created_at: payload.iat ? new Date(payload.iat * 1000).toISOString() : null,
        });
      }
      return { items, pagination: { total_count: items.length, max_page: 1 } };
    });

    // Revokes what the user granted: the grant and every code and token issued under it.
    scope.delete('/v1/oauth2/grants/:id', async (request, reply) => {
      const { userId } = await webUser(request);
      const { id } = request.params as { id: string };
      const grant = (await listGrantsOfUser(db, userId, new Date())).find((candidate) => candidate.grantId === id);
      if (!grant) throw new OAuthError(404, 'invalid_request', 'No such grant.');
      await revokeGrant(db, grant.grantId);
      return reply.code(204).send();
    });
  });

  function requestedScopes(client: StoredClient, requested: unknown): string[] {
    if (typeof requested !== 'string' || requested.trim() === '') {
      throw new OAuthError(400, 'invalid_scope', 'scope is required.');
    }
    const parsed = parseScopes(requested);
    if ('unknown' in parsed) throw new OAuthError(400, 'invalid_scope', `unknown scope: ${parsed.unknown}`);
    const allowed = new Set(client.metadata.scope.split(' '));
    const outside = parsed.scopes.find((scope) => !allowed.has(scope));
    if (outside) throw new OAuthError(400, 'invalid_scope', `the client may not ask for ${outside}`);
    return parsed.scopes;
  }
}

function readBody(request: FastifyRequest): Record<string, string | undefined> {
  const text = typeof request.body === 'string' ? request.body : '';
  const type = request.headers['content-type'] ?? '';
  if (type.startsWith('application/json')) {
    try {
      const value = JSON.parse(text) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? v : undefined]));
    } catch {
      throw new OAuthError(400, 'invalid_request', 'The body is not valid JSON.');
    }
  }
  if (type.startsWith(FORM) || text === '') return Object.fromEntries(new URLSearchParams(text));
  throw new OAuthError(400, 'invalid_request', 'Send the body as a form or as JSON.');
}

function readJson(request: FastifyRequest): unknown {
  const text = typeof request.body === 'string' ? request.body.trim() : '';
  if (text === '') return undefined;
  const type = request.headers['content-type'] ?? '';
  if (!type.startsWith('application/json'))
    throw new OAuthError(400, 'invalid_client_metadata', 'Send the metadata as JSON.');
  try {
    return JSON.parse(text);
  } catch {
    throw new OAuthError(400, 'invalid_client_metadata', 'The body is not valid JSON.');
  }
}
