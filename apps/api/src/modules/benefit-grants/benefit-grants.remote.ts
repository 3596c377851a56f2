/**
 * Adapters for the two benefit types that act on another service: Discord (a bot adds the customer
 * to the guild with the role) and GitHub (the customer is invited as a repository collaborator).
 * They call the real APIs when the server has credentials (DISCORD_BOT_TOKEN, GITHUB_TOKEN) and the
 * customer has connected the account; otherwise they throw `BenefitActionRequiredError` and the grant
 * waits with that error. They never report success without the API having said so.
 */

export type Fetch = typeof fetch;

/** The grant cannot proceed until someone acts (configure the server, connect an account). Not retried. */
export class BenefitActionRequiredError extends Error {
  override readonly name = 'BenefitActionRequiredError';
}

/** A transient failure (network, 5xx, rate limit): the job is retried. */
export class BenefitRetriableError extends Error {
  override readonly name = 'BenefitRetriableError';
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** A permanent refusal by the remote API (4xx other than rate limits). Recorded; not retried. */
export class BenefitRemoteError extends Error {
  override readonly name = 'BenefitRemoteError';
}

export const DISCORD_API = 'https://discord.com/api/v10';
export const GITHUB_API = 'https://api.github.com';

/** Discord's REST API under a Discord base URL (`DISCORD_URL`: the public service, or a local fake). */
export const discordApiOf = (discordUrl: string) => `${discordUrl}/api/v10`;

export async function send(fetchFn: Fetch, url: string, init: RequestInit, service: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetchFn(url, { ...init, signal: AbortSignal.timeout(15_000) });
  } catch (error) {
    throw new BenefitRetriableError(`${service} request failed: ${(error as Error).message}`);
  }
  if (response.status === 429 || (response.status === 403 && response.headers.get('x-ratelimit-remaining') === '0')) {
    const retryAfter = Number(response.headers.get('retry-after') ?? '') || undefined;
    throw new BenefitRetriableError(`${service} rate limit reached`, retryAfter);
  }
  if (response.status >= 500) throw new BenefitRetriableError(`${service} answered ${response.status}`);
  if (response.status >= 400) {
    const text = await response.text().catch(() => '');
    throw new BenefitRemoteError(`${service} answered ${response.status}: ${text.slice(0, 300)}`);
  }
  return response;
}

// ---------------------------------------------------------------------------------------------------
// Discord
// ---------------------------------------------------------------------------------------------------

export interface DiscordGrantInput {
  /** The REST API's base (default the public one). */
  api?: string;
  botToken: string | undefined;
  guildId: string;
  roleId: string;
  /** The customer's Discord user id and OAuth access token (from connecting their account). */
  accountId: string | undefined;
  accessToken: string | undefined;
}

/**
 * Discord's 403 with code 50013 (Missing Permissions) on a role: the role is above the bot's highest
 * role (or the bot lost Manage Roles). Only the seller can fix it, so it is recorded with what to do and
 * never retried on its own; the seller's role check at save time makes it rare.
 */
export const DISCORD_ROLE_REFUSED =
  "Discord refused to give the role (Missing Permissions): the bot's role must be above the benefit's role. " +
  "The seller can move the bot's role up in the Discord server's settings (Roles), then retry the grant.";

async function discordRoleCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof BenefitRemoteError && /answered 403: .*"code":\s*50013/.test(error.message))
      throw new BenefitRemoteError(DISCORD_ROLE_REFUSED);
    throw error;
  }
}

export async function discordGrant(fetchFn: Fetch, input: DiscordGrantInput) {
  if (!input.botToken)
    throw new BenefitActionRequiredError('Discord is not configured on this server: set DISCORD_BOT_TOKEN.');
  if (!input.accountId || !input.accessToken)
    throw new BenefitActionRequiredError('The customer needs to connect their Discord account');
  const headers = { authorization: `Bot ${input.botToken}`, 'content-type': 'application/json' };
  const member = `${input.api ?? DISCORD_API}/guilds/${input.guildId}/members/${input.accountId}`;
  const added = await discordRoleCall(() =>
    send(
      fetchFn,
      member,
      { method: 'PUT', headers, body: JSON.stringify({ access_token: input.accessToken, roles: [input.roleId] }) },
      'Discord',
    ),
  );
  // 201: added with the role. Otherwise already a member: give the role.
  if (added.status !== 201) {
    await discordRoleCall(() =>
      send(fetchFn, `${member}/roles/${input.roleId}`, { method: 'PUT', headers }, 'Discord'),
    );
  }
  return { account_id: input.accountId, guild_id: input.guildId, role_id: input.roleId };
}

export async function discordRevoke(
  fetchFn: Fetch,
  input: {
    api?: string;
    botToken: string | undefined;
    guildId: string;
    roleId: string;
    accountId: string | undefined;
  },
): Promise<void> {
  if (!input.accountId) return;
  if (!input.botToken)
    throw new BenefitActionRequiredError('Discord is not configured on this server: set DISCORD_BOT_TOKEN.');
  await send(
    fetchFn,
    `${input.api ?? DISCORD_API}/guilds/${input.guildId}/members/${input.accountId}/roles/${input.roleId}`,
    { method: 'DELETE', headers: { authorization: `Bot ${input.botToken}` } },
    'Discord',
  );
}

// ---------------------------------------------------------------------------------------------------
// GitHub
// ---------------------------------------------------------------------------------------------------

export interface GitHubGrantInput {
  /** The REST API's base (default the public one; GitHub Enterprise Server, or a local fake). */
  api?: string;
  token: string | undefined;
  owner: string;
  repository: string;
  permission: string;
  /** The customer's GitHub account id and username (from connecting their account). */
  accountId: string | undefined;
  username: string | undefined;
}

export function githubHeaders(token: string) {
  return {
    authorization: `Bearer ${token}`,
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
    'content-type': 'application/json',
    'user-agent': 'tessera',
  };
}

export async function githubGrant(fetchFn: Fetch, input: GitHubGrantInput) {
  if (!input.token) throw new BenefitActionRequiredError('GitHub is not configured on this server: set GITHUB_TOKEN.');
  if (!input.accountId || !input.username)
    throw new BenefitActionRequiredError('The customer needs to connect their GitHub account');
  await send(
    fetchFn,
    `${input.api ?? GITHUB_API}/repos/${input.owner}/${input.repository}/collaborators/${encodeURIComponent(input.username)}`,
    { method: 'PUT', headers: githubHeaders(input.token), body: JSON.stringify({ permission: input.permission }) },
    'GitHub',
  );
  return {
    account_id: input.accountId,
    repository_owner: input.owner,
    repository_name: input.repository,
    permission: input.permission,
  };
}

/** Deletes a pending invitation of the user if there is one, otherwise removes the collaborator. */
export async function githubRevoke(
  fetchFn: Fetch,
  input: { api?: string; token: string | undefined; owner: string; repository: string; username: string | undefined },
): Promise<void> {
  if (!input.username) return;
  if (!input.token) throw new BenefitActionRequiredError('GitHub is not configured on this server: set GITHUB_TOKEN.');
  const base = `${input.api ?? GITHUB_API}/repos/${input.owner}/${input.repository}`;
  const headers = githubHeaders(input.token);
  const invitations = (await (
    await send(fetchFn, `${base}/invitations?per_page=100`, { method: 'GET', headers }, 'GitHub')
  ).json()) as { id: number; invitee?: { login?: string } | null }[];
  const pending = invitations.find((i) => i.invitee?.login?.toLowerCase() === input.username!.toLowerCase());
  if (pending) {
    await send(fetchFn, `${base}/invitations/${pending.id}`, { method: 'DELETE', headers }, 'GitHub');
    return;
  }
  await send(
    fetchFn,
    `${base}/collaborators/${encodeURIComponent(input.username)}`,
    { method: 'DELETE', headers },
    'GitHub',
  );
}
