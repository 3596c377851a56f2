import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Test support: one local HTTP server that plays Discord and GitHub for the calls Tessera makes —
 * OAuth2 authorize (approves at once as the account the test chose, redirecting back with code and
 * state), token (code with PKCE S256 and redirect URI checked, single use; refresh), the user, guild
 * member add/remove, guild roles, repository collaborator invitations and their removal, repositories.
 * It keeps state as the services do and fails the next matching calls on request. Never the network.
 *
 * Roles have positions, as Discord's hierarchy: the bot gives (or takes) only roles below its highest
 * role, its own managed role (`tags.bot_id` = the client id) and any role `botRoles` gives it; above
 * that Discord answers 403 with code 50013 (Missing Permissions). A guild whose roles name no bot role
 * gets one above every other (`role-tessera-bot`), as a seller who placed the bot's role at the top.
 *
 * Discord lives under `/discord` (DISCORD_URL), GitHub's site under `/github` (GITHUB_URL) and its API
 * under `/github-api` (GITHUB_API_URL).
 */
export interface FakeAccount {
  id: string;
  name: string;
}

interface Code {
  platform: 'discord' | 'github';
  account: FakeAccount;
  clientId: string;
  redirectUri: string;
  challenge: string | null;
  guild?: { id: string; name: string };
}

interface Token {
  platform: 'discord' | 'github';
  account: FakeAccount;
  expiresAt: number;
}

export interface FakeCall {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

export interface FakeProviders {
  discordUrl: string;
  githubUrl: string;
  githubApiUrl: string;
  /** The settings to start a test server with. */
  config: {
    discordUrl: string;
    githubUrl: string;
    githubApiUrl: string;
    discordClientId: string;
    discordClientSecret: string;
    discordBotToken: string;
    githubClientId: string;
    githubClientSecret: string;
    githubToken: string;
  };
  calls: FakeCall[];
  /** Who approves the next authorizations. */
  discordAccount: FakeAccount;
  githubAccount: FakeAccount;
  /** The guild the bot authorization adds the bot to. */
  botGuild: { id: string; name: string };
  /** guild id → member id → role ids. */
  members: Map<string, Map<string, Set<string>>>;
  /** guild id → role ids the bot holds besides its own managed role (a seller gave it one). */
  botRoles: Map<string, string[]>;
  roles: Map<string, { id: string; name: string; position: number; managed?: boolean; tags?: { bot_id?: string } }[]>;
  /** `owner/repo` → pending invitations and collaborators (logins). */
  invitations: Map<string, { id: number; login: string; permission: string }[]>;
  collaborators: Map<string, Set<string>>;
  repositories: { owner: string; name: string; private: boolean }[];
  /** What token answers say about expiry (`expires_in`); the fake itself honours a token an hour. */
  tokenLifetimeSeconds: number;
  /** The next `times` calls whose "METHOD path" matches answer `status`. */
  failNext(pattern: RegExp, status: number, times?: number): void;
  close(): Promise<void>;
}

const DISCORD_CLIENT = { id: 'discord-client', secret: 'discord-client-secret', bot: 'discord-bot-token' };
const GITHUB_CLIENT = { id: 'github-client', secret: 'github-client-secret', token: 'github-server-token' };

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body?: unknown): void {
  response.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
  response.end(body === undefined ? undefined : JSON.stringify(body));
}

type FakeRole = FakeProviders['roles'] extends Map<string, (infer R)[]> ? R : never;

/** The guild's roles as Discord lists them: the bot's managed role added when the test named none. */
function rolesOf(fake: FakeProviders, guildId: string): FakeRole[] | undefined {
  const roles = fake.roles.get(guildId);
  if (!roles || roles.some((role) => role.tags?.bot_id === DISCORD_CLIENT.id)) return roles;
  const top = Math.max(0, ...roles.map((role) => role.position)) + 1;
  return [
    ...roles,
    { id: 'role-tessera-bot', name: 'Tessera', position: top, managed: true, tags: { bot_id: DISCORD_CLIENT.id } },
  ];
}

/** Whether the bot may give `roleId` in the guild: the role is below the bot's highest role, and no managed one. */
function botCanGive(fake: FakeProviders, guildId: string, roleId: string): boolean {
  const roles = rolesOf(fake, guildId) ?? [];
  const held = new Set(fake.botRoles.get(guildId) ?? []);
  const highest = Math.max(
    -1,
    ...roles.filter((r) => r.tags?.bot_id === DISCORD_CLIENT.id || held.has(r.id)).map((r) => r.position),
  );
  const role = roles.find((r) => r.id === roleId);
  return Boolean(role && !role.managed && role.id !== guildId && role.position < highest);
}

const MISSING_PERMISSIONS = { message: 'Missing Permissions', code: 50013 };

export async function startFakeProviders(): Promise<FakeProviders> {
  const codes = new Map<string, Code>();
  const tokens = new Map<string, Token>();
  const refreshTokens = new Map<string, Token>();
  const failures: { pattern: RegExp; status: number; times: number }[] = [];
  let invitationId = 1;

  const issue = (platform: 'discord' | 'github', account: FakeAccount) => {
    const access = `${platform}-access-${randomBytes(12).toString('hex')}`;
    const refresh = `${platform}-refresh-${randomBytes(12).toString('hex')}`;
    const token = { platform, account, expiresAt: Date.now() + 3600 * 1000 };
    tokens.set(access, token);
    refreshTokens.set(refresh, token);
    return { access, refresh };
  };
  const accountOf = (authorization: string | undefined, platform: 'discord' | 'github') => {
    const token = tokens.get((authorization ?? '').replace(/^(Bearer|token) /, ''));
    return token && token.platform === platform && token.expiresAt > Date.now() ? token.account : undefined;
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake');
    const method = request.method ?? 'GET';
    const raw = await readBody(request);
    const form = (request.headers['content-type'] ?? '').includes('x-www-form-urlencoded');
    const body: Record<string, unknown> = raw
      ? form
        ? Object.fromEntries(new URLSearchParams(raw))
        : (JSON.parse(raw) as Record<string, unknown>)
      : {};
    const authorization = request.headers.authorization;
    fake.calls.push({ method, path: url.pathname, authorization, body });
    const failure = failures.find((f) => f.times > 0 && f.pattern.test(`${method} ${url.pathname}`));
    if (failure) {
      failure.times -= 1;
      return send(response, failure.status, { message: 'injected failure' });
    }
    const path = url.pathname;
    let match: RegExpMatchArray | null;

    // --- OAuth2 authorize: approve at once as the chosen account -------------------------------
    if (method === 'GET' && (path === '/discord/oauth2/authorize' || path === '/github/login/oauth/authorize')) {
      const platform = path.startsWith('/discord') ? 'discord' : 'github';
      const redirect = new URL(url.searchParams.get('redirect_uri')!);
      const code = randomBytes(16).toString('hex');
      const bot = platform === 'discord' && url.searchParams.get('scope') === 'bot';
      codes.set(code, {
        platform,
        account: platform === 'discord' ? fake.discordAccount : fake.githubAccount,
        clientId: url.searchParams.get('client_id') ?? '',
        redirectUri: redirect.toString(),
        challenge: url.searchParams.get('code_challenge'),
        ...(bot ? { guild: fake.botGuild } : {}),
      });
      redirect.searchParams.set('code', code);
      redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
      if (bot) redirect.searchParams.set('guild_id', fake.botGuild.id);
      response.writeHead(302, { location: redirect.toString() });
      return void response.end();
    }

    // --- OAuth2 token ----------------------------------------------------------------------------
    if (method === 'POST' && (path === '/discord/api/oauth2/token' || path === '/github/login/oauth/access_token')) {
      const platform = path.startsWith('/discord') ? 'discord' : 'github';
      const client = platform === 'discord' ? DISCORD_CLIENT : GITHUB_CLIENT;
      // GitHub answers refusals with 200 and an error; Discord with 400.
      const refuse = (error: string) => send(response, platform === 'github' ? 200 : 400, { error });
      if (body.client_id !== client.id || body.client_secret !== client.secret) return refuse('invalid_client');
      if (body.grant_type === 'refresh_token') {
        const previous = refreshTokens.get(String(body.refresh_token));
        if (!previous) return refuse('invalid_grant');
        refreshTokens.delete(String(body.refresh_token));
        const issued = issue(platform, previous.account);
        return send(response, 200, {
          access_token: issued.access,
          refresh_token: issued.refresh,
          expires_in: fake.tokenLifetimeSeconds,
          token_type: 'Bearer',
        });
      }
      const code = codes.get(String(body.code));
      codes.delete(String(body.code));
      if (!code || code.platform !== platform || code.clientId !== client.id) return refuse('invalid_grant');
      if (code.redirectUri !== body.redirect_uri) return refuse('invalid_grant');
      const verifier = String(body.code_verifier ?? '');
      if (code.challenge && createHash('sha256').update(verifier).digest('base64url') !== code.challenge)
        return refuse('invalid_grant');
      const issued = issue(platform, code.account);
      return send(response, 200, {
        access_token: issued.access,
        refresh_token: issued.refresh,
        expires_in: fake.tokenLifetimeSeconds,
        token_type: 'Bearer',
        scope: 'identify guilds.join',
        ...(code.guild ? { guild: code.guild } : {}),
      });
    }

    // --- Discord API ---------------------------------------------------------------------------
    if (path.startsWith('/discord/api/v10/')) {
      const rest = path.slice('/discord/api/v10'.length);
      if (method === 'GET' && rest === '/users/@me') {
        const account = accountOf(authorization, 'discord');
        return account ? send(response, 200, { id: account.id, username: account.name }) : send(response, 401, {});
      }
      if (authorization !== `Bot ${DISCORD_CLIENT.bot}`) return send(response, 401, { message: '401: Unauthorized' });
      if ((match = rest.match(/^\/guilds\/([^/]+)$/)) && method === 'GET') {
        return fake.roles.has(match[1]!)
          ? send(response, 200, { id: match[1], name: `Guild ${match[1]}` })
          : send(response, 404, { message: 'Unknown Guild' });
      }
      if ((match = rest.match(/^\/guilds\/([^/]+)\/roles$/)) && method === 'GET') {
        return send(response, 200, rolesOf(fake, match[1]!) ?? []);
      }
      // The bot's own member: its user id is the application's (client) id.
      if ((match = rest.match(/^\/guilds\/([^/]+)\/members\/([^/]+)$/)) && method === 'GET') {
        const [, guild, user] = match as unknown as [string, string, string];
        if (user === DISCORD_CLIENT.id && fake.roles.has(guild)) {
          const own = (rolesOf(fake, guild) ?? []).filter((r) => r.tags?.bot_id === DISCORD_CLIENT.id).map((r) => r.id);
          return send(response, 200, {
            user: { id: user, bot: true },
            roles: [...own, ...(fake.botRoles.get(guild) ?? [])],
          });
        }
        const member = fake.members.get(guild)?.get(user);
        return member
          ? send(response, 200, { user: { id: user }, roles: [...member] })
          : send(response, 404, { message: 'Unknown Member', code: 10007 });
      }
      if ((match = rest.match(/^\/guilds\/([^/]+)\/members\/([^/]+)$/)) && method === 'PUT') {
        const [, guild, user] = match as unknown as [string, string, string];
        const token = tokens.get(String(body.access_token));
        if (!token || token.account.id !== user || token.expiresAt <= Date.now())
          return send(response, 403, { message: 'Invalid OAuth2 access token' });
        const members = fake.members.get(guild) ?? new Map<string, Set<string>>();
        fake.members.set(guild, members);
        if (members.has(user)) return send(response, 204);
        const given = (body.roles as string[] | undefined) ?? [];
        if (!given.every((role) => botCanGive(fake, guild, role))) return send(response, 403, MISSING_PERMISSIONS);
        members.set(user, new Set(given));
        return send(response, 201, { user: { id: user } });
      }
      if ((match = rest.match(/^\/guilds\/([^/]+)\/members\/([^/]+)\/roles\/([^/]+)$/))) {
        const [, guild, user, role] = match as unknown as [string, string, string, string];
        const member = fake.members.get(guild)?.get(user);
        if (!member) return send(response, 404, { message: 'Unknown Member' });
        if (!botCanGive(fake, guild, role)) return send(response, 403, MISSING_PERMISSIONS);
        if (method === 'PUT') member.add(role);
        else if (method === 'DELETE') member.delete(role);
        return send(response, 204);
      }
    }

    // --- GitHub API ----------------------------------------------------------------------------
    if (path.startsWith('/github-api/')) {
      const rest = path.slice('/github-api'.length);
      if (method === 'GET' && rest === '/user') {
        const account = accountOf(authorization, 'github');
        return account ? send(response, 200, { id: Number(account.id), login: account.name }) : send(response, 401, {});
      }
      if (authorization !== `Bearer ${GITHUB_CLIENT.token}`) return send(response, 401, { message: 'Bad credentials' });
      if (method === 'GET' && rest === '/user/repos') {
        return send(
          response,
          200,
          fake.repositories.map((r) => ({ name: r.name, owner: { login: r.owner }, private: r.private })),
        );
      }
      if ((match = rest.match(/^\/repos\/([^/]+)\/([^/]+)\/collaborators\/([^/]+)$/))) {
        const [, owner, repo, login] = match as unknown as [string, string, string, string];
        const key = `${owner}/${repo}`;
        if (!fake.repositories.some((r) => `${r.owner}/${r.name}` === key)) return send(response, 404, {});
        if (method === 'PUT') {
          const list = fake.invitations.get(key) ?? [];
          fake.invitations.set(key, list);
          const pending = list.find((i) => i.login === login);
          if (pending) pending.permission = String(body.permission);
          else list.push({ id: invitationId++, login, permission: String(body.permission) });
          return send(response, 201, { id: pending?.id ?? invitationId - 1 });
        }
        if (method === 'DELETE') {
          fake.collaborators.get(key)?.delete(login);
          return send(response, 204);
        }
      }
      if ((match = rest.match(/^\/repos\/([^/]+)\/([^/]+)\/invitations$/)) && method === 'GET') {
        const list = fake.invitations.get(`${match[1]}/${match[2]}`) ?? [];
        return send(
          response,
          200,
          list.map((i) => ({ id: i.id, invitee: { login: i.login }, permissions: i.permission })),
        );
      }
      if ((match = rest.match(/^\/repos\/([^/]+)\/([^/]+)\/invitations\/(\d+)$/)) && method === 'DELETE') {
        const key = `${match[1]}/${match[2]}`;
        fake.invitations.set(
          key,
          (fake.invitations.get(key) ?? []).filter((i) => i.id !== Number(match![3])),
        );
        return send(response, 204);
      }
    }
    send(response, 404, { message: 'Not Found' });
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => send(response, 500, { message: error.message }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakeProviders = {
    discordUrl: `${base}/discord`,
    githubUrl: `${base}/github`,
    githubApiUrl: `${base}/github-api`,
    config: {
      discordUrl: `${base}/discord`,
      githubUrl: `${base}/github`,
      githubApiUrl: `${base}/github-api`,
      discordClientId: DISCORD_CLIENT.id,
      discordClientSecret: DISCORD_CLIENT.secret,
      discordBotToken: DISCORD_CLIENT.bot,
      githubClientId: GITHUB_CLIENT.id,
      githubClientSecret: GITHUB_CLIENT.secret,
      githubToken: GITHUB_CLIENT.token,
    },
    calls: [],
    discordAccount: { id: '80351110224678912', name: 'nelly' },
    githubAccount: { id: '583231', name: 'octocat' },
    botGuild: { id: '290926798626357250', name: 'Guild 290926798626357250' },
    members: new Map(),
    botRoles: new Map(),
    roles: new Map(),
    invitations: new Map(),
    collaborators: new Map(),
    repositories: [],
    tokenLifetimeSeconds: 604_800,
    failNext(pattern, status, times = 1) {
      failures.push({ pattern, status, times });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}
