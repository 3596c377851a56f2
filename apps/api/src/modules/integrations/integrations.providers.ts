import type { Config } from '../../config.js';
import { discordApiOf, githubHeaders, type Fetch } from '../benefit-grants/benefit-grants.remote.js';

/**
 * Discord's and GitHub's documented OAuth2 endpoints (authorization code with PKCE S256, which both
 * support) and the lookups the seller's benefit forms need. Base URLs come from the settings, so the
 * tests point them at local fakes. Nothing here logs a token or a secret.
 */

export type Platform = 'discord' | 'github';

/** The provider refused (a bad or used code, a revoked token) or could not be reached. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    message: string,
    readonly kind: 'refused' | 'unavailable',
  ) {
    super(message);
  }
}

export interface OAuthClient {
  platform: Platform;
  label: string;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  scope: string;
}

/** Scopes: who the customer is, and (Discord) adding them to the seller's server with `guilds.join`. */
export function oauthClientOf(config: Config, platform: Platform): OAuthClient | undefined {
  if (platform === 'discord') {
    if (!config.discordClientId || !config.discordClientSecret) return undefined;
    return {
      platform,
      label: 'Discord',
      clientId: config.discordClientId,
      clientSecret: config.discordClientSecret,
      authorizeUrl: `${config.discordUrl}/oauth2/authorize`,
      tokenUrl: `${config.discordUrl}/api/oauth2/token`,
      scope: 'identify guilds.join',
    };
  }
  if (!config.githubClientId || !config.githubClientSecret) return undefined;
  return {
    platform,
    label: 'GitHub',
    clientId: config.githubClientId,
    clientSecret: config.githubClientSecret,
    authorizeUrl: `${config.githubUrl}/login/oauth/authorize`,
    tokenUrl: `${config.githubUrl}/login/oauth/access_token`,
    scope: 'read:user',
  };
}

export function authorizationUrl(
  client: OAuthClient,
  input: { state: string; redirectUri: string; codeChallenge: string; extra?: Record<string, string> },
): string {
  const url = new URL(client.authorizeUrl);
  url.search = new URLSearchParams({
    client_id: client.clientId,
    response_type: 'code',
    redirect_uri: input.redirectUri,
    scope: client.scope,
    state: input.state,
    code_challenge: input.codeChallenge,
    code_challenge_method: 'S256',
    ...input.extra,
  }).toString();
  return url.toString();
}

async function call(fetchFn: Fetch, label: string, url: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetchFn(url, { ...init, signal: AbortSignal.timeout(15_000) });
  } catch {
    throw new ProviderError(`${label} could not be reached. Please try again later.`, 'unavailable');
  }
  if (response.status === 429 || response.status >= 500)
    throw new ProviderError(`${label} is unavailable (${response.status}). Please try again later.`, 'unavailable');
  return response;
}

export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  /** When the access token expires (null: it does not, as GitHub OAuth apps' tokens). */
  expiresAt: Date | null;
  /** Discord's bot authorization: the server the bot was added to. */
  guild?: { id: string; name: string };
}

async function tokenRequest(
  fetchFn: Fetch,
  client: OAuthClient,
  params: Record<string, string>,
  now: Date,
): Promise<TokenSet> {
  const response = await call(fetchFn, client.label, client.tokenUrl, {
    method: 'POST',
    // Both take the client's credentials in the form; Discord only accepts form bodies here.
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ client_id: client.clientId, client_secret: client.clientSecret, ...params }),
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  // GitHub answers a refused code with 200 and an `error` field.
  if (!response.ok || typeof body.error === 'string' || typeof body.access_token !== 'string') {
    throw new ProviderError(`${client.label} refused the authorization. Please connect again.`, 'refused');
  }
  const guild = body.guild as { id?: unknown; name?: unknown } | undefined;
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
    expiresAt: typeof body.expires_in === 'number' ? new Date(now.getTime() + body.expires_in * 1000) : null,
    ...(guild && typeof guild.id === 'string' ? { guild: { id: guild.id, name: String(guild.name ?? '') } } : {}),
  };
}

export function exchangeCode(
  fetchFn: Fetch,
  client: OAuthClient,
  input: { code: string; redirectUri: string; codeVerifier: string },
  now: Date,
): Promise<TokenSet> {
  return tokenRequest(
    fetchFn,
    client,
    {
      grant_type: 'authorization_code',
      code: input.code,
      redirect_uri: input.redirectUri,
      code_verifier: input.codeVerifier,
    },
    now,
  );
}

export function refreshAccessToken(fetchFn: Fetch, client: OAuthClient, refreshToken: string, now: Date) {
  return tokenRequest(fetchFn, client, { grant_type: 'refresh_token', refresh_token: refreshToken }, now);
}

/** The connected account: its id and username (Discord `GET /users/@me`, GitHub `GET /user`). */
export async function fetchProfile(
  fetchFn: Fetch,
  config: Config,
  platform: Platform,
  accessToken: string,
): Promise<{ accountId: string; username: string | null }> {
  const label = platform === 'discord' ? 'Discord' : 'GitHub';
  const response =
    platform === 'discord'
      ? await call(fetchFn, label, `${discordApiOf(config.discordUrl)}/users/@me`, {
          headers: { authorization: `Bearer ${accessToken}` },
        })
      : await call(fetchFn, label, `${config.githubApiUrl}/user`, { headers: githubHeaders(accessToken) });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok || (typeof body.id !== 'string' && typeof body.id !== 'number'))
    throw new ProviderError(`${label} did not say who the account is. Please connect again.`, 'refused');
  const username = platform === 'discord' ? body.username : body.login;
  return { accountId: String(body.id), username: typeof username === 'string' ? username : null };
}

// ---------------------------------------------------------------------------------------------------
// The seller's side: Discord servers and their roles, GitHub repositories
// ---------------------------------------------------------------------------------------------------

/**
 * What the Discord bot may do in a server it joins: manage roles (give and take the benefit's role),
 * create invites, kick members (as the reference's bot asks).
 */
export const DISCORD_BOT_PERMISSIONS = String((1 << 28) + 2 + 1);

export interface DiscordRole {
  id: string;
  name: string;
  position: number;
  color: number;
  /** The bot's own role: benefit roles must sit below it for the bot to give them. */
  is_bot: boolean;
  /**
   * Whether the bot can give it: Discord lets a bot manage only roles below its highest role (else 403,
   * code 50013 Missing Permissions), never managed roles or `@everyone`.
   */
  manageable: boolean;
}

export async function discordGuild(
  fetchFn: Fetch,
  config: Config,
  guildId: string,
): Promise<{ id: string; name: string; roles: DiscordRole[] }> {
  if (!config.discordBotToken) throw new ProviderError('Discord is not configured on this server.', 'refused');
  const api = discordApiOf(config.discordUrl);
  const headers = { authorization: `Bot ${config.discordBotToken}` };
  const guild = await call(fetchFn, 'Discord', `${api}/guilds/${encodeURIComponent(guildId)}`, { headers });
  if (!guild.ok) throw new ProviderError('The Discord server cannot be read by the bot. Connect it again.', 'refused');
  const roles = await call(fetchFn, 'Discord', `${api}/guilds/${encodeURIComponent(guildId)}/roles`, { headers });
  if (!roles.ok) throw new ProviderError('The Discord server cannot be read by the bot. Connect it again.', 'refused');
  const guildBody = (await guild.json()) as { id: string; name: string };
  const roleList = (await roles.json()) as {
    id: string;
    name: string;
    position: number;
    color?: number;
    managed?: boolean;
    tags?: { bot_id?: string };
  }[];
  // The bot's member (its user id is the application's): the roles it holds beyond its own managed one.
  // Unreadable, its managed role alone counts (a role the bot could give may then be shown as not).
  const isBotRole = (role: { tags?: { bot_id?: string } }) =>
    role.tags?.bot_id !== undefined && role.tags.bot_id === config.discordClientId;
  const botMember = await call(
    fetchFn,
    'Discord',
    `${api}/guilds/${encodeURIComponent(guildId)}/members/${encodeURIComponent(config.discordClientId ?? '')}`,
    { headers },
  );
  const held = new Set(botMember.ok ? (((await botMember.json()) as { roles?: string[] }).roles ?? []) : []);
  const highest = Math.max(-1, ...roleList.filter((r) => isBotRole(r) || held.has(r.id)).map((r) => r.position));
  return {
    id: guildBody.id,
    name: guildBody.name,
    roles: roleList
      // @everyone (the guild's own id) cannot be given; other bots' and integrations' roles neither.
      .filter((role) => role.id !== guildId && (!role.managed || isBotRole(role)))
      .map((role) => ({
        id: role.id,
        name: role.name,
        position: role.position,
        color: role.color ?? 0,
        is_bot: isBotRole(role),
        manageable: !role.managed && role.position < highest,
      }))
      .sort((a, b) => b.position - a.position),
  };
}

export interface GitHubRepository {
  repository_owner: string;
  repository_name: string;
  private: boolean;
}

/**
 * The repositories the server's GitHub token reaches (`GET /user/repos`, or `GET /installation/
 * repositories` for an app installation token), first 100 by name.
 */
export async function githubRepositories(fetchFn: Fetch, config: Config): Promise<GitHubRepository[]> {
  if (!config.githubToken) throw new ProviderError('GitHub is not configured on this server.', 'refused');
  const headers = githubHeaders(config.githubToken);
  let response = await call(fetchFn, 'GitHub', `${config.githubApiUrl}/user/repos?per_page=100&sort=full_name`, {
    headers,
  });
  let repositories: unknown;
  if (response.status === 403) {
    response = await call(fetchFn, 'GitHub', `${config.githubApiUrl}/installation/repositories?per_page=100`, {
      headers,
    });
    repositories = response.ok ? ((await response.json()) as { repositories?: unknown }).repositories : undefined;
  } else if (response.ok) {
    repositories = await response.json();
  }
  if (!response.ok || !Array.isArray(repositories))
    throw new ProviderError('GitHub refused to list the repositories of the configured token.', 'refused');
  return (repositories as { name: string; owner: { login: string }; private?: boolean }[]).map((repository) => ({
    repository_owner: repository.owner.login,
    repository_name: repository.name,
    private: Boolean(repository.private),
  }));
}
