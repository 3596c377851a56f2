import { describe, expect, it } from 'vitest';
import { requiresUpdate } from './benefit-grants.engine.js';
import {
  BenefitActionRequiredError,
  BenefitRemoteError,
  BenefitRetriableError,
  discordGrant,
  discordRevoke,
  githubGrant,
  githubRevoke,
  type Fetch,
} from './benefit-grants.remote.js';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fake fetch answering from a list of [status, body] in order, recording every call. */
function fakeFetch(answers: [number, unknown?, Record<string, string>?][]) {
  const calls: Call[] = [];
  const fn = (async (url: string, init: RequestInit) => {
    calls.push({
      url,
      method: init.method ?? 'GET',
      headers: init.headers as Record<string, string>,
      body: init.body ? JSON.parse(init.body as string) : undefined,
    });
    const [status, body, headers] = answers.shift() ?? [500];
    return new Response(status === 204 ? null : JSON.stringify(body ?? {}), { status, headers });
  }) as unknown as Fetch;
  return { fn, calls };
}

const discord = { guildId: 'g1', roleId: 'r1', accountId: 'u1', accessToken: 'user-token' };

describe('discord adapter', () => {
  it('waits for configuration, then for the customer to connect', async () => {
    const { fn, calls } = fakeFetch([]);
    await expect(discordGrant(fn, { ...discord, botToken: undefined })).rejects.toThrow(
      new BenefitActionRequiredError('Discord is not configured on this server: set DISCORD_BOT_TOKEN.'),
    );
    await expect(discordGrant(fn, { ...discord, botToken: 'b', accountId: undefined })).rejects.toBeInstanceOf(
      BenefitActionRequiredError,
    );
    expect(calls).toHaveLength(0);
  });

  it('adds the member with the role (201), or gives the role to an existing member', async () => {
    const added = fakeFetch([[201]]);
    expect(await discordGrant(added.fn, { ...discord, botToken: 'bot' })).toEqual({
      account_id: 'u1',
      guild_id: 'g1',
      role_id: 'r1',
    });
    expect(added.calls).toEqual([
      {
        url: 'https://discord.com/api/v10/guilds/g1/members/u1',
        method: 'PUT',
        headers: expect.objectContaining({ authorization: 'Bot bot' }),
        body: { access_token: 'user-token', roles: ['r1'] },
      },
    ]);
    const member = fakeFetch([[204], [204]]);
    await discordGrant(member.fn, { ...discord, botToken: 'bot' });
    expect(member.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'PUT https://discord.com/api/v10/guilds/g1/members/u1',
      'PUT https://discord.com/api/v10/guilds/g1/members/u1/roles/r1',
    ]);
  });

  it('retries 5xx and rate limits, records 4xx, and revokes the role', async () => {
    await expect(discordGrant(fakeFetch([[502]]).fn, { ...discord, botToken: 'b' })).rejects.toBeInstanceOf(
      BenefitRetriableError,
    );
    const limited = discordGrant(fakeFetch([[429, {}, { 'retry-after': '7' }]]).fn, { ...discord, botToken: 'b' });
    await expect(limited).rejects.toMatchObject({ name: 'BenefitRetriableError', retryAfterSeconds: 7 });
    await expect(
      discordGrant(fakeFetch([[403, { message: 'Missing Access' }]]).fn, { ...discord, botToken: 'b' }),
    ).rejects.toBeInstanceOf(BenefitRemoteError);
    const revoke = fakeFetch([[204]]);
    await discordRevoke(revoke.fn, { botToken: 'b', guildId: 'g1', roleId: 'r1', accountId: 'u1' });
    expect(revoke.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'DELETE https://discord.com/api/v10/guilds/g1/members/u1/roles/r1',
    ]);
  });
});

const github = { owner: 'acme', repository: 'repo', permission: 'pull', accountId: '42', username: 'octo' };

describe('github adapter', () => {
  it('waits for configuration and the customer account; never calls without them', async () => {
    const { fn, calls } = fakeFetch([]);
    await expect(githubGrant(fn, { ...github, token: undefined })).rejects.toThrow(
      'GitHub is not configured on this server: set GITHUB_TOKEN.',
    );
    await expect(githubGrant(fn, { ...github, token: 't', username: undefined })).rejects.toBeInstanceOf(
      BenefitActionRequiredError,
    );
    expect(calls).toHaveLength(0);
  });

  it('invites the collaborator with the permission', async () => {
    const { fn, calls } = fakeFetch([[201, { id: 1 }]]);
    expect(await githubGrant(fn, { ...github, token: 't' })).toEqual({
      account_id: '42',
      repository_owner: 'acme',
      repository_name: 'repo',
      permission: 'pull',
    });
    expect(calls[0]).toMatchObject({
      url: 'https://api.github.com/repos/acme/repo/collaborators/octo',
      method: 'PUT',
      headers: expect.objectContaining({ authorization: 'Bearer t' }),
      body: { permission: 'pull' },
    });
  });

  it('revokes a pending invitation, or removes the collaborator', async () => {
    const pending = fakeFetch([[200, [{ id: 9, invitee: { login: 'Octo' } }]], [204]]);
    await githubRevoke(pending.fn, { token: 't', owner: 'acme', repository: 'repo', username: 'octo' });
    expect(pending.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET https://api.github.com/repos/acme/repo/invitations?per_page=100',
      'DELETE https://api.github.com/repos/acme/repo/invitations/9',
    ]);
    const member = fakeFetch([[200, []], [204]]);
    await githubRevoke(member.fn, { token: 't', owner: 'acme', repository: 'repo', username: 'octo' });
    expect(member.calls[1]).toMatchObject({
      method: 'DELETE',
      url: 'https://api.github.com/repos/acme/repo/collaborators/octo',
    });
  });
});

describe('requiresUpdate', () => {
  it('follows the reference per type', () => {
    expect(requiresUpdate('custom', { note: 'a' }, { note: 'b' })).toBe(false);
    expect(requiresUpdate('license_keys', { prefix: 'a', limit_usage: 1 }, { prefix: 'b', limit_usage: 1 })).toBe(
      false,
    );
    expect(requiresUpdate('license_keys', { limit_usage: 1 }, { limit_usage: 2 })).toBe(true);
    expect(requiresUpdate('discord', { guild_id: 'g', role_id: 'r' }, { guild_id: 'g', role_id: 's' })).toBe(true);
    expect(
      requiresUpdate('downloadables', { files: ['a', 'b'], archived: {} }, { files: ['b', 'a'], archived: {} }),
    ).toBe(false);
    expect(
      requiresUpdate(
        'downloadables',
        { files: ['a', 'b'], archived: {} },
        { files: ['a', 'b'], archived: { b: true } },
      ),
    ).toBe(true);
    expect(requiresUpdate('meter_credit', { units: 1 }, { units: 2 })).toBe(false);
  });
});
