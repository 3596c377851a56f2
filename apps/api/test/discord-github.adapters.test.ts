import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../src/config.js';
import {
  BenefitActionRequiredError,
  BenefitRemoteError,
  BenefitRetriableError,
  discordApiOf,
  DISCORD_ROLE_REFUSED,
  discordGrant,
  discordRevoke,
  githubGrant,
  githubRevoke,
} from '../src/modules/benefit-grants/benefit-grants.remote.js';
import {
  authorizationUrl,
  discordGuild,
  exchangeCode,
  fetchProfile,
  githubRepositories,
  oauthClientOf,
  ProviderError,
  refreshAccessToken,
} from '../src/modules/integrations/integrations.providers.js';
import { newAuthorization } from '../src/modules/integrations/integrations.secrets.js';
import { startFakeProviders, type FakeProviders } from './support/fake-discord-github.js';

/** The Discord and GitHub adapters against the local fake of both services (never the network). */
let fake: FakeProviders;
let config: Config;
const GUILD = '290926798626357250';
const REDIRECT = 'http://127.0.0.1/v1/integrations/callback';

beforeAll(async () => {
  fake = await startFakeProviders();
  config = loadConfig({ NODE_ENV: 'test' }, { secret: 'x'.repeat(40), dataDir: '/tmp', ...fake.config });
});
afterAll(() => fake?.close());
beforeEach(() => {
  fake.calls.length = 0;
  fake.tokenLifetimeSeconds = 604_800;
  fake.roles.set(GUILD, [
    { id: GUILD, name: '@everyone', position: 0 },
    { id: 'role-member', name: 'Member', position: 1 },
    { id: 'role-second', name: 'Second', position: 1 },
    { id: 'role-bot', name: 'Tessera', position: 3, managed: true, tags: { bot_id: 'discord-client' } },
    { id: 'role-admin', name: 'Admin', position: 4 },
    { id: 'role-other-bot', name: 'Other bot', position: 2, managed: true, tags: { bot_id: 'someone-else' } },
  ]);
  fake.repositories = [{ owner: 'acme', name: 'private-repo', private: true }];
});

/** Authorizes at the fake as its current account and returns the code and the PKCE verifier. */
async function authorize(platform: 'discord' | 'github', extra?: Record<string, string>) {
  const client = oauthClientOf(config, platform)!;
  const { state, codeVerifier, codeChallenge } = newAuthorization();
  const url = authorizationUrl(client, { state, redirectUri: REDIRECT, codeChallenge, extra });
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const back = new URL(response.headers.get('location')!);
  expect(back.searchParams.get('state')).toBe(state);
  return { client, code: back.searchParams.get('code')!, codeVerifier, back };
}

describe('OAuth2 authorization code with PKCE', () => {
  it('exchanges the code once and reads the account (Discord and GitHub)', async () => {
    for (const platform of ['discord', 'github'] as const) {
      const { client, code, codeVerifier } = await authorize(platform);
      const tokens = await exchangeCode(fetch, client, { code, redirectUri: REDIRECT, codeVerifier }, new Date());
      const profile = await fetchProfile(fetch, config, platform, tokens.accessToken);
      expect(profile).toEqual(
        platform === 'discord'
          ? { accountId: '80351110224678912', username: 'nelly' }
          : { accountId: '583231', username: 'octocat' },
      );
      await expect(
        exchangeCode(fetch, client, { code, redirectUri: REDIRECT, codeVerifier }, new Date()),
      ).rejects.toMatchObject({ kind: 'refused' });
    }
  });

  it('refuses a wrong PKCE verifier or redirect URI', async () => {
    const first = await authorize('discord');
    await expect(
      exchangeCode(fetch, first.client, { code: first.code, redirectUri: REDIRECT, codeVerifier: 'wrong' }, new Date()),
    ).rejects.toBeInstanceOf(ProviderError);
    const second = await authorize('github');
    await expect(
      exchangeCode(
        fetch,
        second.client,
        { code: second.code, redirectUri: 'http://elsewhere/callback', codeVerifier: second.codeVerifier },
        new Date(),
      ),
    ).rejects.toMatchObject({ kind: 'refused' });
  });

  it('refreshes an access token, and says when the provider is unavailable', async () => {
    const { client, code, codeVerifier } = await authorize('discord');
    const tokens = await exchangeCode(fetch, client, { code, redirectUri: REDIRECT, codeVerifier }, new Date());
    const refreshed = await refreshAccessToken(fetch, client, tokens.refreshToken!, new Date());
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    await expect(refreshAccessToken(fetch, client, tokens.refreshToken!, new Date())).rejects.toMatchObject({
      kind: 'refused',
    });
    fake.failNext(/^POST \/discord\/api\/oauth2\/token$/, 503);
    await expect(refreshAccessToken(fetch, client, refreshed.refreshToken!, new Date())).rejects.toMatchObject({
      kind: 'unavailable',
    });
  });

  it("names the guild of Discord's bot authorization", async () => {
    const { client, code, codeVerifier, back } = await authorize('discord', { scope: 'bot', permissions: '8' });
    expect(back.searchParams.get('guild_id')).toBe(GUILD);
    const tokens = await exchangeCode(fetch, client, { code, redirectUri: REDIRECT, codeVerifier }, new Date());
    expect(tokens.guild).toEqual({ id: GUILD, name: `Guild ${GUILD}` });
  });
});

describe('Discord adapter', () => {
  async function memberToken() {
    const { client, code, codeVerifier } = await authorize('discord');
    return (await exchangeCode(fetch, client, { code, redirectUri: REDIRECT, codeVerifier }, new Date())).accessToken;
  }
  const api = () => discordApiOf(config.discordUrl);

  it('adds the member with the role, gives the role to an existing member, and takes it back', async () => {
    const accessToken = await memberToken();
    const input = {
      api: api(),
      botToken: config.discordBotToken,
      guildId: GUILD,
      accountId: '80351110224678912',
      accessToken,
    };
    expect(await discordGrant(fetch, { ...input, roleId: 'role-member' })).toEqual({
      account_id: '80351110224678912',
      guild_id: GUILD,
      role_id: 'role-member',
    });
    expect([...fake.members.get(GUILD)!.get('80351110224678912')!]).toEqual(['role-member']);
    // Already a member (204): the role is given with its own call.
    await discordGrant(fetch, { ...input, roleId: 'role-second' });
    expect(fake.members.get(GUILD)!.get('80351110224678912')!.has('role-second')).toBe(true);
    await discordRevoke(fetch, { ...input, roleId: 'role-second' });
    expect([...fake.members.get(GUILD)!.get('80351110224678912')!]).toEqual(['role-member']);
  });

  it('classifies failures: 5xx and 429 retried, other 4xx recorded, nothing without an account', async () => {
    const accessToken = await memberToken();
    const input = {
      api: api(),
      botToken: config.discordBotToken,
      guildId: GUILD,
      roleId: 'role-member',
      accountId: '80351110224678912',
      accessToken,
    };
    fake.failNext(/^PUT \/discord\/api\/v10\/guilds\//, 502);
    await expect(discordGrant(fetch, input)).rejects.toBeInstanceOf(BenefitRetriableError);
    fake.failNext(/^PUT \/discord\/api\/v10\/guilds\//, 429);
    await expect(discordGrant(fetch, input)).rejects.toBeInstanceOf(BenefitRetriableError);
    await expect(discordGrant(fetch, { ...input, accessToken: 'not-a-token' })).rejects.toBeInstanceOf(
      BenefitRemoteError,
    );
    // A role above the bot's: Discord's 50013, recorded with what the seller must do.
    await expect(discordGrant(fetch, { ...input, roleId: 'role-admin' })).rejects.toMatchObject({
      name: 'BenefitRemoteError',
      message: DISCORD_ROLE_REFUSED,
    });
    await expect(discordGrant(fetch, { ...input, accountId: undefined })).rejects.toBeInstanceOf(
      BenefitActionRequiredError,
    );
  });

  it("lists a guild's roles a benefit may give (no @everyone, no other bot's role)", async () => {
    expect(await discordGuild(fetch, config, GUILD)).toEqual({
      id: GUILD,
      name: `Guild ${GUILD}`,
      roles: [
        { id: 'role-admin', name: 'Admin', position: 4, color: 0, is_bot: false, manageable: false },
        { id: 'role-bot', name: 'Tessera', position: 3, color: 0, is_bot: true, manageable: false },
        { id: 'role-member', name: 'Member', position: 1, color: 0, is_bot: false, manageable: true },
        { id: 'role-second', name: 'Second', position: 1, color: 0, is_bot: false, manageable: true },
      ],
    });
    await expect(discordGuild(fetch, config, 'unknown-guild')).rejects.toMatchObject({ kind: 'refused' });
  });
});

describe('GitHub adapter', () => {
  const input = () => ({
    api: config.githubApiUrl,
    token: config.githubToken,
    owner: 'acme',
    repository: 'private-repo',
    permission: 'triage',
    accountId: '583231',
    username: 'octocat',
  });

  it('invites the collaborator with the permission, then deletes the pending invitation', async () => {
    expect(await githubGrant(fetch, input())).toEqual({
      account_id: '583231',
      repository_owner: 'acme',
      repository_name: 'private-repo',
      permission: 'triage',
    });
    expect(fake.invitations.get('acme/private-repo')).toEqual([
      { id: expect.any(Number), login: 'octocat', permission: 'triage' },
    ]);
    await githubRevoke(fetch, input());
    expect(fake.invitations.get('acme/private-repo')).toEqual([]);
  });

  it('removes an accepted collaborator', async () => {
    fake.collaborators.set('acme/private-repo', new Set(['octocat']));
    await githubRevoke(fetch, input());
    expect(fake.collaborators.get('acme/private-repo')!.has('octocat')).toBe(false);
    expect(fake.calls.at(-1)).toMatchObject({
      method: 'DELETE',
      path: '/github-api/repos/acme/private-repo/collaborators/octocat',
    });
  });

  it('retries a 5xx, records a refusal, lists repositories', async () => {
    fake.failNext(/^PUT \/github-api\/repos\//, 500);
    await expect(githubGrant(fetch, input())).rejects.toBeInstanceOf(BenefitRetriableError);
    await expect(githubGrant(fetch, { ...input(), repository: 'missing' })).rejects.toBeInstanceOf(BenefitRemoteError);
    expect(await githubRepositories(fetch, config)).toEqual([
      { repository_owner: 'acme', repository_name: 'private-repo', private: true },
    ]);
  });
});
