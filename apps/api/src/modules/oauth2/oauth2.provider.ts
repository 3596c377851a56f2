import { AsyncLocalStorage } from 'node:async_hooks';
import { generateKeyPairSync, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Adapter, AdapterPayload, Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../../config.js';
import { loadOidcProvider, type Provider } from './oidc-provider.js';
import { GRANTABLE_SCOPES } from '../../platform/auth/scopes.js';
import { generateToken, hashToken, TOKEN_PREFIX } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/database.js';
import { parseScopes } from './oauth2.rules.js';
import {
  consumeStored,
  destroyAccessTokensOfRefresh,
  destroyStored,
  destroyStoredByGrant,
  findClientByClientId,
  findOrganizationForClaims,
  findStored,
  findUserForClaims,
  hashLegacyClientSecrets,
  insertSigningKey,
  linkAccessTokenToRefresh,
  listSigningKeys,
  listSigningKeyIds,
  upsertStored,
} from './oauth2.repository.js';

/**
 * The authorization server is oidc-provider (certified OpenID Provider), mounted in Fastify
 * (oauth2.http.ts). This file is its configuration: storage in PostgreSQL, the reference's token
 * formats, lifetimes and scopes, and the subjects (a user, or an organization a user chose).
 */

export type SubType = 'user' | 'organization';

/** Lifetimes of the reference (seconds). */
export const LIFETIMES = {
  accessToken: 864_000,
  authorizationCode: 300,
  idToken: 3600,
  refreshToken: 30 * 86_400,
  interaction: 3600,
  grant: 365 * 86_400,
  session: 14 * 86_400,
} as const;

/** Paths the library answers (relative to the issuer, which is BASE_URL). */
export const PROVIDER_ROUTES = {
  authorization: '/oauth2/authorize',
  token: '/v1/oauth2/token',
  introspection: '/v1/oauth2/introspect',
  revocation: '/v1/oauth2/revoke',
  userinfo: '/v1/oauth2/userinfo',
  jwks: '/.well-known/jwks.json',
  end_session: '/oauth2/logout',
} as const;

// Which kind each account id of the current request is: findAccount learns it (from the database),
// the synchronous token id generator needs it for the token's prefix.
const requestSubjects = new AsyncLocalStorage<Map<string, SubType>>();

export function withRequestSubjects<T>(run: () => T): T {
  return requestSubjects.run(new Map(), run);
}

/** The oidc-provider storage adapter: one table, rows keyed by the keyed hash of the library's id. */
function storeAdapter(db: Db, secret: string) {
  return class PgAdapter implements Adapter {
    constructor(private readonly model: string) {}

    private key(id: string): string {
      return hashToken(id, secret);
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      if (this.model === 'Client') return;
      const now = Date.now();
      const { jti: _jti, ...rest } = payload as AdapterPayload & { jti?: string };
      await upsertStored(db, {
        model: this.model,
        idHash: this.key(id),
        payload: rest as Record<string, unknown>,
        // A grant's own id is no credential (codes and tokens are): its tokens are revoked by it.
        grantId: this.model === 'Grant' ? id : (payload.grantId ?? null),
        uid: payload.uid ?? null,
        clientId: payload.clientId ?? null,
        accountId: payload.accountId ?? null,
        expiresAt: expiresIn ? new Date(now + expiresIn * 1000) : null,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') return findClientMetadata(db, id);
      const row = await findStored(db, this.model, { idHash: this.key(id) }, new Date());
      if (!row) return undefined;
      return {
        ...(row.payload as AdapterPayload),
        jti: id,
        ...(row.consumed_at ? { consumed: Math.floor(row.consumed_at.getTime() / 1000) } : {}),
      };
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const row = await findStored(db, this.model, { uid }, new Date());
      return row ? (row.payload as AdapterPayload) : undefined;
    }

    async findByUserCode(): Promise<AdapterPayload | undefined> {
      return undefined;
    }

    async consume(id: string): Promise<void> {
      await consumeStored(db, this.model, this.key(id), new Date());
    }

    async destroy(id: string): Promise<void> {
      await destroyStored(db, this.model, this.key(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await destroyStoredByGrant(db, this.model, grantId);
    }
  };
}

async function findClientMetadata(db: Db, clientId: string): Promise<AdapterPayload | undefined> {
  const client = await findClientByClientId(db, clientId);
  if (!client) return undefined;
  const m = client.metadata;
  return {
    client_id: client.client_id,
    // The keyed hash stands for the secret: compareClientSecret (below) hashes what the client sends.
    ...(m.token_endpoint_auth_method === 'none' || !client.client_secret_hash
      ? {}
      : { client_secret: client.client_secret_hash }),
    client_id_issued_at: client.client_id_issued_at,
    redirect_uris: m.redirect_uris,
    grant_types: m.grant_types,
    response_types: ['code'],
    token_endpoint_auth_method: m.token_endpoint_auth_method,
    scope: m.scope,
    client_name: m.client_name,
    ...(m.client_uri ? { client_uri: m.client_uri } : {}),
    ...(m.logo_uri ? { logo_uri: m.logo_uri } : {}),
    ...(m.tos_uri ? { tos_uri: m.tos_uri } : {}),
    ...(m.policy_uri ? { policy_uri: m.policy_uri } : {}),
  };
}

/** A retired key stays published this long: far past the life of the ID tokens it signed (1 hour). */
export const RETIRED_KEY_PUBLISHED_MS = 7 * 86_400_000;

/**
 * The signing keys: generated once on first start, rotated by `tessera oauth2 rotate-key`. Every server picks a rotation up while running (createOAuth2Server
 * checks the keys' version).
 */
export async function loadSigningKeys(db: Db, now = new Date()): Promise<object[]> {
  let keys = await listSigningKeys(db);
  if (keys.length === 0) {
    await rotateSigningKey(db, now);
    keys = await listSigningKeys(db);
  }
  return publishedKeys(keys, now).map((key) => key.private_jwk as object);
}

/** The current key first (the library signs with the first key of the algorithm), then retired ones still published. */
function publishedKeys<K extends { retired_at: Date | null }>(keys: K[], now: Date): K[] {
  const current = keys.filter((key) => !key.retired_at);
  const retired = keys.filter(
    (key) => key.retired_at && key.retired_at.getTime() > now.getTime() - RETIRED_KEY_PUBLISHED_MS,
  );
  return [...current, ...retired];
}

/** Which keys a server should sign with and publish now; compared to pick up a change made elsewhere. */
async function signingKeysVersion(db: Db, now: Date): Promise<string> {
  const keys = publishedKeys(await listSigningKeyIds(db), now);
  return keys.map((key) => `${key.kid}${key.retired_at ? '-' : '+'}`).join(',');
}

export async function rotateSigningKey(db: Db, now: Date): Promise<string> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomUUID();
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  await insertSigningKey(db, { kid, now, privateJwk: jwk });
  return kid;
}

export interface AccountClaims {
  [claim: string]: unknown;
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

/** Resolves an account id (a user's or an organization's id) into its subject and claims. */
export async function findSubject(
  db: Db,
  accountId: string,
): Promise<{ subType: SubType; claims: AccountClaims } | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(accountId)) return undefined;
  const user = await findUserForClaims(db, accountId);
  // Emails are confirmed by signing in with them; the reference reports them verified.
  if (user) return { subType: 'user', claims: { sub: user.id, email: user.email, email_verified: true } };
  const organization = await findOrganizationForClaims(db, accountId);
  if (organization) return { subType: 'organization', claims: { sub: organization.id, name: organization.slug } };
  return undefined;
}

function prefixFor(kind: 'access' | 'refresh', accountId: string | undefined): string {
  const subType = accountId ? requestSubjects.getStore()?.get(accountId) : undefined;
  if (kind === 'access') {
    return subType === 'organization' ? TOKEN_PREFIX.oauth2AccessTokenOrganization : TOKEN_PREFIX.oauth2AccessTokenUser;
  }
  return subType === 'organization' ? TOKEN_PREFIX.oauth2RefreshTokenOrganization : TOKEN_PREFIX.oauth2RefreshTokenUser;
}

/** How long a server signs with the keys it has before asking the database whether they changed. */
export const KEY_CHECK_INTERVAL_MS = 2000;

export interface OAuth2Server {
  /**
   * The provider signing with the current keys. A key rotated by any node (or the CLI) is seen within
   * KEY_CHECK_INTERVAL_MS: the provider is then built again with the new set (all its state is in the
   * database, so nothing is lost).
   */
  current(): Promise<Provider>;
}

/** OIDC scopes carry claims; every API scope is declared as a scope without claims. */
function claimsConfig(): Record<string, string[]> {
  const claims: Record<string, string[]> = {
    // An organization subject's name (its slug) comes with openid, as the reference's userinfo.
    openid: ['sub', 'name'],
    email: ['email', 'email_verified'],
    profile: ['name'],
  };
  for (const scope of GRANTABLE_SCOPES) claims[scope] ??= [];
  return claims;
}

export async function createOAuth2Server(
  db: Db,
  config: Config,
  onBuilt: (provider: Provider) => void = () => {},
): Promise<OAuth2Server> {
  await hashLegacyClientSecrets(db, (secret) => hashToken(secret, config.secret));
  // The first start generates the signing key (node:crypto, no oidc-provider needed), so that no OAuth2
  // request, refused ones included, ever writes one.
  await loadSigningKeys(db);
  const build = async (): Promise<{ provider: Provider; version: string }> => {
    const now = new Date();
    const keys = await loadSigningKeys(db, now);
    const version = await signingKeysVersion(db, now);
    const provider = await buildProvider(db, config, keys);
    onBuilt(provider);
    return { provider, version };
  };
  // Built at the first OAuth2 request, not at start: loading oidc-provider costs start-up time that a
  // server whose OAuth2 endpoints nobody calls should not pay.
  let built: { provider: Provider; version: string } | undefined;
  let checkedAt = 0;
  let refreshing: Promise<void> | undefined;
  const refresh = async () => {
    if (!built || (await signingKeysVersion(db, new Date())) !== built.version) built = await build();
    checkedAt = Date.now();
  };
  return {
    async current() {
      if (!built || Date.now() - checkedAt >= KEY_CHECK_INTERVAL_MS) {
        refreshing ??= refresh().finally(() => (refreshing = undefined));
        await refreshing;
      }
      return built!.provider;
    },
  };
}

async function buildProvider(db: Db, config: Config, keys: object[]): Promise<Provider> {
  const { default: OidcProvider, errors } = await loadOidcProvider();
  const configuration: Configuration = {
    adapter: storeAdapter(db, config.secret) as unknown as Configuration['adapter'],
    jwks: { keys: keys as never },
    cookies: { keys: [config.secret], long: { signed: true }, short: { signed: true } },
    claims: claimsConfig(),
    scopes: [...GRANTABLE_SCOPES],
    conformIdTokenClaims: false,
    // Checked after the client and its redirect URI, so their errors go back to the client.
    extraParams: {
      sub_type: async (ctx: KoaContextWithOIDC, value: string | undefined) => {
        // The reference requires a scope and refuses unknown ones; the library has dropped unknown
        // ones from its parameters by now, so the request's own value is read.
        const raw =
          ctx.method === 'POST' ? (ctx.oidc.body as Record<string, unknown> | undefined)?.scope : ctx.query.scope;
        const requested = Array.isArray(raw) ? raw[0] : raw;
        if (typeof requested !== 'string' || requested.trim() === '')
          throw new errors.InvalidScope('scope is required', '');
        const parsed = parseScopes(requested);
        if ('unknown' in parsed) throw new errors.InvalidScope('requested scope is not supported', parsed.unknown);
        if (value !== undefined && value !== 'user' && value !== 'organization') {
          throw new errors.InvalidRequest('sub_type must be user or organization');
        }
      },
      sub: async (ctx: KoaContextWithOIDC, value: string | undefined) => {
        if (value !== undefined && ctx.oidc.params?.sub_type !== 'organization') {
          throw new errors.InvalidRequest('sub is only for sub_type=organization');
        }
      },
    },
    responseTypes: ['code'],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
      id_token_signed_response_alg: 'RS256',
    },
    enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
    features: {
      devInteractions: { enabled: false },
      introspection: {
        enabled: true,
        // A client introspects only its own tokens.
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      // A client revokes only its own tokens (others' are answered 200 and left alone, RFC 7009 §2.2).
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: true },
      registration: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: { enabled: false },
    },
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
    ttl: {
      AccessToken: LIFETIMES.accessToken,
      AuthorizationCode: LIFETIMES.authorizationCode,
      IdToken: LIFETIMES.idToken,
      RefreshToken: LIFETIMES.refreshToken,
      Interaction: LIFETIMES.interaction,
      Grant: LIFETIMES.grant,
      Session: LIFETIMES.session,
    },
    rotateRefreshToken: true,
    // Confidential clients always get a refresh token (no offline_access needed, as the reference);
    // public clients never refresh.
    issueRefreshToken: async (_ctx, client) =>
      client.grantTypeAllowed('refresh_token') && client.clientAuthMethod !== 'none',
    expiresWithSession: async () => false,
    findAccount: async (_ctx: KoaContextWithOIDC, id: string) => {
      const found = await findSubject(db, id);
      if (!found) return undefined;
      requestSubjects.getStore()?.set(id, found.subType);
      return { accountId: id, claims: async () => found.claims };
    },
    routes: { ...PROVIDER_ROUTES },
    interactions: { url: async (_ctx, interaction) => `/oauth2/authorize?uid=${encodeURIComponent(interaction.uid)}` },
    discovery: {
      service_documentation: `${config.baseUrl}/docs`,
      registration_endpoint: `${config.baseUrl}/v1/oauth2/register`,
    },
    renderError: async (ctx, out) => {
      ctx.type = 'application/json';
      ctx.body = out;
    },
  };
  const provider = new OidcProvider(config.baseUrl, configuration);
  provider.proxy = config.trustProxy === true;

  // The library has no option for opaque token values; its models generate them in generateTokenId.
  type WithTokenId = { prototype: { generateTokenId(this: { accountId?: string; format?: string }): string } };
  (provider.AccessToken as unknown as WithTokenId).prototype.generateTokenId = function () {
    this.format = 'opaque';
    return generateToken(prefixFor('access', this.accountId));
  };
  (provider.RefreshToken as unknown as WithTokenId).prototype.generateTokenId = function () {
    return generateToken(prefixFor('refresh', this.accountId));
  };
  (provider.AuthorizationCode as unknown as WithTokenId).prototype.generateTokenId = function () {
    return generateToken(TOKEN_PREFIX.oauth2AuthorizationCode);
  };
  // Clients carry the keyed hash of their secret (findClientMetadata): the presented secret is hashed.
  type WithSecret = { prototype: { compareClientSecret(this: { clientSecret?: string }, actual: string): boolean } };
  (provider.Client as unknown as WithSecret).prototype.compareClientSecret = function (actual) {
    const stored = Buffer.from(this.clientSecret ?? '', 'utf8');
    const presented = Buffer.from(hashToken(actual, config.secret), 'utf8');
    return stored.length === presented.length && timingSafeEqual(stored, presented);
  };

  // The reference's wire where it differs from the library's: discovery names the endpoints on the
  // configured BASE_URL (the library would use the request's host) and PKCE plain (oauth2.http.ts hands
  // it over as S256); introspection names the token's type and the subject's kind; a refresh revokes
  // the access token issued with the refresh token it spends.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path === '/.well-known/openid-configuration' && ctx.status === 200 && ctx.body) {
      const body = ctx.body as Record<string, unknown>;
      for (const [key, value] of Object.entries(body)) {
        if ((key.endsWith('_endpoint') || key === 'jwks_uri') && typeof value === 'string') {
          body[key] = `${config.baseUrl}${new URL(value).pathname}`;
        }
      }
      body.code_challenge_methods_supported = ['S256', 'plain'];
    }
    if (ctx.path === PROVIDER_ROUTES.token && ctx.status === 200 && ctx.body) {
      const body = ctx.body as { access_token?: string; refresh_token?: string };
      const params = ctx.oidc?.params as { grant_type?: string; refresh_token?: string } | undefined;
      if (params?.grant_type === 'refresh_token' && params.refresh_token) {
        await destroyAccessTokensOfRefresh(db, hashToken(params.refresh_token, config.secret));
      }
      if (body.access_token && body.refresh_token) {
        await linkAccessTokenToRefresh(
          db,
          hashToken(body.access_token, config.secret),
          hashToken(body.refresh_token, config.secret),
        );
      }
    }
    // RFC 7009's empty 200 as the empty JSON object the SDK reads.
    if (ctx.path === PROVIDER_ROUTES.revocation && ctx.status === 200 && !ctx.body) {
      ctx.type = 'application/json';
      ctx.body = {};
    }
    if (ctx.path === PROVIDER_ROUTES.introspection && ctx.body && (ctx.body as { active?: boolean }).active) {
      const body = ctx.body as Record<string, unknown>;
      const found = typeof body.sub === 'string' ? await findSubject(db, body.sub) : undefined;
      body.token_type = body.token_type === 'Bearer' ? 'access_token' : 'refresh_token';
      body.sub_type = found?.subType ?? 'user';
      body.aud ??= body.client_id;
    }
  });

  return provider;
}
