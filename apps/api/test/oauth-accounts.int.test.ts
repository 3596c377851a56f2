import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DISCORD_ROLE_REFUSED } from '../src/modules/benefit-grants/benefit-grants.remote.js';
import { signGuildToken } from '../src/modules/benefits/benefits.properties.js';
import { cleanConnectStatesJob } from '../src/modules/integrations/integrations.jobs.js';
import type { ManualClock } from '../src/platform/clock.js';
import { purchaseFactory, typedBenefitFactory, waitForGrant } from './factories/benefit-grants.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from './factories/organizations.js';
import { userFactory } from './factories/users.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';
import { startFakeProviders, type FakeProviders } from './support/fake-discord-github.js';

/**
 * Customers connect Discord and GitHub accounts in the portal and choose the account a grant goes to;
 * sellers add the Discord bot to a server and pick roles and repositories. Discord and GitHub are the
 * local fake (support/fake-discord-github.ts).
 */
let server: TestServer;
let fake: FakeProviders;
let acme: OrganizationFixture;
let other: OrganizationFixture;
const GUILD = '290926798626357250';
const NELLY = { id: '80351110224678912', name: 'nelly' };

beforeAll(async () => {
  fake = await startFakeProviders();
  server = await startTestServer({ config: fake.config });
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
});
afterAll(async () => {
  await server?.stop();
  await fake?.close();
});
beforeEach(() => {
  fake.discordAccount = NELLY;
  fake.githubAccount = { id: '583231', name: 'octocat' };
  fake.tokenLifetimeSeconds = 604_800;
  fake.roles.set(GUILD, [
    { id: GUILD, name: '@everyone', position: 0 },
    { id: 'role-member', name: 'Member', position: 1 },
  ]);
  fake.repositories = [{ owner: 'acme', name: 'private-repo', private: true }];
});

async function sessionFor(customerId: string, org: OrganizationFixture = acme): Promise<string> {
  const response = await server.inject({
    method: 'POST',
    url: '/v1/customer-sessions/',
    headers: bearer(org.token),
    payload: { customer_id: customerId },
  });
  expect(response.statusCode).toBe(201);
  return json(response).token;
}

/** authorize → the provider (approves at once) → GET callback → the portal page's URL, as a browser goes. */
async function startConnect(token: string, platform: 'discord' | 'github') {
  const authorize = await server.inject({
    method: 'GET',
    url: `/v1/customer-portal/oauth-accounts/authorize?platform=${platform}`,
    headers: bearer(token),
  });
  expect(authorize.statusCode, authorize.body).toBe(200);
  const atProvider = await fetch(json(authorize).url, { redirect: 'manual' });
  const callback = new URL(atProvider.headers.get('location')!);
  expect(callback.pathname).toBe('/v1/integrations/callback');
  const bounced = await server.inject({ method: 'GET', url: `${callback.pathname}${callback.search}` });
  expect(bounced.statusCode).toBe(303);
  const page = new URL(bounced.headers.location as string);
  return { page, state: page.searchParams.get('connect_state')!, code: page.searchParams.get('code')! };
}

const finish = (token: string | undefined, payload: unknown) =>
  server.inject({
    method: 'POST',
    url: '/v1/customer-portal/oauth-accounts/callback',
    headers: token ? bearer(token) : {},
    payload: payload as object,
  });

async function connect(token: string, platform: 'discord' | 'github') {
  const { state, code } = await startConnect(token, platform);
  const response = await finish(token, { state, code });
  expect(response.statusCode, response.body).toBe(200);
  return json(response);
}

const me = async (token: string) =>
  json(await server.inject({ method: 'GET', url: '/v1/customer-portal/customers/me', headers: bearer(token) }));

const patchGrant = (token: string | undefined, id: string, payload: unknown) =>
  server.inject({
    method: 'PATCH',
    url: `/v1/customer-portal/benefit-grants/${id}`,
    headers: token ? bearer(token) : {},
    payload: payload as object,
  });

async function discordPurchase() {
  const benefit = await typedBenefitFactory(server, acme.organization.id, 'discord', {
    guild_id: GUILD,
    role_id: 'role-member',
    guild_token: 'stored-token',
  });
  const purchase = await purchaseFactory(server, acme, [benefit.id]);
  const grant = await waitForGrant(server, purchase.customerId, benefit.id, (g) => g.error !== null);
  return { benefit, purchase, grant, token: await sessionFor(purchase.customerId) };
}

describe('connecting an account in the portal', { timeout: 90_000 }, () => {
  it('connects Discord: the account in oauth_accounts, its tokens sealed, the portal page given back', async () => {
    const { purchase, token } = await discordPurchase();
    const { page, state, code } = await startConnect(token, 'discord');
    expect(page.pathname).toBe(`/portal/${acme.organization.slug}/benefits`);
    const response = await finish(token, { state, code });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ platform: 'discord', account_id: NELLY.id, account_username: 'nelly' });
    expect((await me(token)).oauth_accounts).toEqual({
      [`discord:${NELLY.id}`]: { account_id: NELLY.id, account_username: 'nelly' },
    });
    const row = await server.runtime.database.db
      .selectFrom('customer_oauth_accounts')
      .selectAll()
      .where('customer_id', '=', purchase.customerId)
      .executeTakeFirstOrThrow();
    expect(row.access_token_sealed).not.toContain('discord-access');
    expect(row.refresh_token_sealed).not.toContain('discord-refresh');
  });

  it('refuses a replayed state, a state of another session, an unknown or expired state (403)', async () => {
    const { purchase, token } = await discordPurchase();
    fake.discordAccount = { id: '888', name: 'replayed' };
    const first = await startConnect(token, 'discord');
    // Another session of the same customer cannot finish it, and that leaves it usable by its own.
    const otherSession = await sessionFor(purchase.customerId);
    expect((await finish(otherSession, { state: first.state, code: first.code })).statusCode).toBe(403);
    expect((await finish(token, { state: first.state, code: first.code })).statusCode).toBe(200);
    const replay = await finish(token, { state: first.state, code: first.code });
    expect(replay.statusCode).toBe(403);
    expect(json(replay).detail).toBe('Invalid or expired authorization state. Please connect again.');
    const replayedCallback = await server.inject({
      method: 'GET',
      url: `/v1/integrations/callback?state=${encodeURIComponent(first.state)}&code=x`,
    });
    expect(replayedCallback.statusCode).toBe(403);
    expect((await finish(token, { state: 'made-up', code: 'x' })).statusCode).toBe(403);

    const late = await startConnect(token, 'discord');
    (server.clock as ManualClock).advance(11 * 60 * 1000);
    expect((await finish(token, { state: late.state, code: late.code })).statusCode).toBe(403);
  });

  it('answers 401 without a session or with a seller token, 422 to a bad body, 400 to a refused code', async () => {
    const { purchase, token } = await discordPurchase();
    expect(
      (await server.inject({ method: 'GET', url: '/v1/customer-portal/oauth-accounts/authorize?platform=discord' }))
        .statusCode,
    ).toBe(401);
    expect(
      (
        await server.inject({
          method: 'GET',
          url: '/v1/customer-portal/oauth-accounts/authorize?platform=discord',
          headers: bearer(acme.token),
        })
      ).statusCode,
    ).toBe(401);
    expect((await finish(undefined, { state: 'x', code: 'y' })).statusCode).toBe(401);
    const badPlatform = await server.inject({
      method: 'GET',
      url: '/v1/customer-portal/oauth-accounts/authorize?platform=gitlab',
      headers: bearer(token),
    });
    expect(badPlatform.statusCode).toBe(422);
    expect((await finish(token, { state: 'x' })).statusCode).toBe(422);
    const { state } = await startConnect(token, 'discord');
    const refused = await finish(token, { state, code: 'not-the-code' });
    expect(refused.statusCode).toBe(400);
    expect(json(refused).detail).toBe('Discord refused the authorization. Please connect again.');
    const stored = await server.runtime.database.db
      .selectFrom('customer_oauth_accounts')
      .select('id')
      .where('customer_id', '=', purchase.customerId)
      .execute();
    expect(stored).toEqual([]);
  });

  it('refuses an account connected to another customer of the organization (409), not of another one', async () => {
    const a = await discordPurchase();
    const b = await discordPurchase();
    fake.discordAccount = { id: '111', name: 'shared' };
    await connect(a.token, 'discord');
    const { state, code } = await startConnect(b.token, 'discord');
    const taken = await finish(b.token, { state, code });
    expect(taken.statusCode).toBe(409);
    expect(json(taken).detail).toBe('This Discord account is already connected to another customer.');
    expect((await me(b.token)).oauth_accounts).toEqual({});
    const benefit = await typedBenefitFactory(server, other.organization.id, 'custom');
    const elsewhere = await purchaseFactory(server, other, [benefit.id]);
    await connect(await sessionFor(elsewhere.customerId, other), 'discord');
  });

  it('disconnects an account (204), then it is not found (404)', async () => {
    const { token } = await discordPurchase();
    fake.discordAccount = { id: '222', name: 'leaving' };
    await connect(token, 'discord');
    const url = '/v1/customer-portal/oauth-accounts/discord/222';
    expect((await server.inject({ method: 'DELETE', url })).statusCode).toBe(401);
    expect((await server.inject({ method: 'DELETE', url, headers: bearer(token) })).statusCode).toBe(204);
    expect((await me(token)).oauth_accounts).toEqual({});
    expect((await server.inject({ method: 'DELETE', url, headers: bearer(token) })).statusCode).toBe(404);
  });
});

describe('PATCH /v1/customer-portal/benefit-grants/{id}', { timeout: 90_000 }, () => {
  it('delivers a Discord grant to the chosen account, then moves it to another one', async () => {
    const { benefit, purchase, grant, token } = await discordPurchase();
    expect(grant.error).toMatchObject({ message: 'The customer needs to connect their Discord account' });
    fake.discordAccount = { id: '333', name: 'first' };
    await connect(token, 'discord');
    const response = await patchGrant(token, grant.id, { benefit_type: 'discord', properties: { account_id: '333' } });
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response).properties.account_id).toBe('333');
    await waitForGrant(server, purchase.customerId, benefit.id, (g) => g.granted_at !== null);
    expect([...fake.members.get(GUILD)!.get('333')!]).toEqual(['role-member']);

    fake.discordAccount = { id: '444', name: 'second' };
    await connect(token, 'discord');
    expect(
      (await patchGrant(token, grant.id, { benefit_type: 'discord', properties: { account_id: '444' } })).statusCode,
    ).toBe(200);
    await waitForGrant(
      server,
      purchase.customerId,
      benefit.id,
      (g) => (g.properties as { account_id?: string }).account_id === '444' && g.granted_at !== null && !g.error,
    );
    await expect.poll(() => fake.members.get(GUILD)!.get('444')?.has('role-member')).toBe(true);
    expect(fake.members.get(GUILD)!.get('333')!.has('role-member')).toBe(false);
  });

  it('answers 401, 404 for another customer, 422 to a bad body or an account not connected, 403 once revoked', async () => {
    const { grant, token, purchase, benefit } = await discordPurchase();
    const stranger = await discordPurchase();
    const body = { benefit_type: 'discord', properties: { account_id: NELLY.id } };
    expect((await patchGrant(undefined, grant.id, body)).statusCode).toBe(401);
    expect((await patchGrant(stranger.token, grant.id, body)).statusCode).toBe(404);
    const notConnected = await patchGrant(token, grant.id, body);
    expect(notConnected.statusCode).toBe(422);
    expect(json(notConnected).detail[0]).toMatchObject({
      loc: ['body', 'properties', 'account_id'],
      msg: 'OAuth account does not exist.',
    });
    // Another customer's connected account is not this customer's.
    fake.discordAccount = { id: '555', name: 'theirs' };
    await connect(stranger.token, 'discord');
    expect(
      (await patchGrant(token, grant.id, { benefit_type: 'discord', properties: { account_id: '555' } })).statusCode,
    ).toBe(422);
    const mismatch = await patchGrant(token, grant.id, {
      benefit_type: 'github_repository',
      properties: { account_id: '1' },
    });
    expect(mismatch.statusCode).toBe(422);
    expect(json(mismatch).detail[0].loc).toEqual(['body', 'benefit_type']);
    expect((await patchGrant(token, grant.id, { benefit_type: 'discord', properties: {} })).statusCode).toBe(422);
    expect((await patchGrant(token, grant.id, { benefit_type: 'nope' })).statusCode).toBe(422);
    const unchanged = await waitForGrant(server, purchase.customerId, benefit.id, () => true);
    expect(unchanged.properties).toEqual(grant.properties);

    await server.runtime.database.db
      .updateTable('benefit_grants')
      .set({ revoked_at: new Date(), granted_at: null })
      .where('id', '=', grant.id)
      .execute();
    const revoked = await patchGrant(token, grant.id, body);
    expect(revoked.statusCode).toBe(403);
    expect(json(revoked).detail).toBe('Cannot update a revoked benefit grant.');
  });

  it('a Discord failure leaves the grant waiting with the error shown, then the retry delivers it', async () => {
    const { benefit, purchase, grant, token } = await discordPurchase();
    fake.discordAccount = { id: '666', name: 'unlucky' };
    await connect(token, 'discord');
    fake.failNext(/^PUT \/discord\/api\/v10\/guilds\/.*\/members\/666$/, 502);
    const response = await patchGrant(token, grant.id, { benefit_type: 'discord', properties: { account_id: '666' } });
    expect(response.statusCode).toBe(200);
    const failed = await waitForGrant(server, purchase.customerId, benefit.id, (g) =>
      Boolean((g.error as { message?: string } | null)?.message?.includes('502')),
    );
    expect(failed.granted_at).toBeNull();
    const shown = json(
      await server.inject({
        method: 'GET',
        url: `/v1/customer-portal/benefit-grants/${grant.id}`,
        headers: bearer(token),
      }),
    );
    expect(shown.error.message).toBe('Discord answered 502');
    await waitForGrant(server, purchase.customerId, benefit.id, (g) => g.granted_at !== null && g.error === null);
    expect(fake.members.get(GUILD)!.get('666')!.has('role-member')).toBe(true);
  });

  it("refreshes the customer's expired Discord token before adding them", async () => {
    const { benefit, purchase, grant, token } = await discordPurchase();
    fake.discordAccount = { id: '777', name: 'stale' };
    fake.tokenLifetimeSeconds = 0;
    await connect(token, 'discord');
    fake.tokenLifetimeSeconds = 604_800;
    await patchGrant(token, grant.id, { benefit_type: 'discord', properties: { account_id: '777' } });
    await waitForGrant(server, purchase.customerId, benefit.id, (g) => g.granted_at !== null);
    expect(
      fake.calls.some(
        (c) =>
          c.path === '/discord/api/oauth2/token' && (c.body as { grant_type?: string }).grant_type === 'refresh_token',
      ),
    ).toBe(true);
  });

  it('invites the chosen GitHub account with the permission, and the revoke deletes the invitation', async () => {
    const benefit = await typedBenefitFactory(server, acme.organization.id, 'github_repository', {
      repository_owner: 'acme',
      repository_name: 'private-repo',
      permission: 'maintain',
    });
    const purchase = await purchaseFactory(server, acme, [benefit.id]);
    const grant = await waitForGrant(server, purchase.customerId, benefit.id, (g) => g.error !== null);
    const token = await sessionFor(purchase.customerId);
    await connect(token, 'github');
    expect((await me(token)).oauth_accounts).toEqual({
      'github:583231': { account_id: '583231', account_username: 'octocat' },
    });
    const response = await patchGrant(token, grant.id, {
      benefit_type: 'github_repository',
      properties: { account_id: '583231' },
    });
    expect(response.statusCode).toBe(200);
    await waitForGrant(server, purchase.customerId, benefit.id, (g) => g.granted_at !== null);
    expect(fake.invitations.get('acme/private-repo')).toContainEqual(
      expect.objectContaining({ login: 'octocat', permission: 'maintain' }),
    );
    const deleted = await server.inject({
      method: 'DELETE',
      url: `/v1/benefits/${benefit.id}`,
      headers: bearer(acme.token),
    });
    expect(deleted.statusCode).toBe(204);
    await waitForGrant(server, purchase.customerId, benefit.id, (g) => g.revoked_at !== null);
    expect(fake.invitations.get('acme/private-repo')!.some((i) => i.login === 'octocat')).toBe(false);
  });
});

describe("the seller's Discord server, roles and repositories", { timeout: 90_000 }, () => {
  it('adds the bot to a server: a guild token for the benefit, the roles, then a Discord benefit', async () => {
    const user = await userFactory(server);
    const created = await server.inject({
      method: 'POST',
      url: '/v1/organizations/',
      headers: user.headers,
      payload: { name: 'Bot Shop', slug: `bot-shop-${Date.now()}` },
    });
    expect(created.statusCode, created.body).toBe(201);
    const organization = json(created);
    const authorize = await server.inject({
      method: 'GET',
      url: `/v1/integrations/discord/bot/authorize?organization_id=${organization.id}`,
      headers: user.headers,
    });
    expect(authorize.statusCode, authorize.body).toBe(200);
    const provider = new URL(json(authorize).url);
    expect(provider.searchParams.get('scope')).toBe('bot');
    expect(provider.searchParams.get('code_challenge_method')).toBe('S256');
    const atProvider = await fetch(provider, { redirect: 'manual' });
    const callback = new URL(atProvider.headers.get('location')!);
    const bounced = await server.inject({ method: 'GET', url: `${callback.pathname}${callback.search}` });
    const page = new URL(bounced.headers.location as string);
    expect(page.pathname).toBe(`/dashboard/${organization.slug}/benefits`);
    const body = { state: page.searchParams.get('connect_state'), code: page.searchParams.get('code') };
    // Another organization's token is not the user who started it.
    const stranger = await server.inject({
      method: 'POST',
      url: '/v1/integrations/discord/bot/callback',
      headers: bearer(acme.token),
      payload: body,
    });
    expect(stranger.statusCode).toBe(401);
    const done = await server.inject({
      method: 'POST',
      url: '/v1/integrations/discord/bot/callback',
      headers: user.headers,
      payload: body,
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(json(done)).toMatchObject({ guild_id: GUILD, guild_name: `Guild ${GUILD}` });
    const guildToken = json(done).guild_token;

    const lookup = await server.inject({
      method: 'GET',
      url: `/v1/integrations/discord/guild/lookup?guild_token=${encodeURIComponent(guildToken)}`,
      headers: user.headers,
    });
    expect(lookup.statusCode).toBe(200);
    // The bot's own role (the fake puts it on top) is shown, never given; Member is below it.
    expect(json(lookup).roles).toEqual([
      { id: 'role-tessera-bot', name: 'Tessera', position: 2, color: 0, is_bot: true, manageable: false },
      { id: 'role-member', name: 'Member', position: 1, color: 0, is_bot: false, manageable: true },
    ]);
    const badToken = await server.inject({
      method: 'GET',
      url: '/v1/integrations/discord/guild/lookup?guild_token=forged',
      headers: user.headers,
    });
    expect(badToken.statusCode).toBe(422);

    const benefit = await server.inject({
      method: 'POST',
      url: '/v1/benefits/',
      headers: user.headers,
      payload: {
        type: 'discord',
        description: 'Discord role',
        organization_id: organization.id,
        properties: { guild_token: guildToken, role_id: 'role-member' },
      },
    });
    expect(benefit.statusCode, benefit.body).toBe(201);
    expect(json(benefit).properties.guild_id).toBe(GUILD);
  });

  it('lists the repositories of the server token, with the auth matrix', async () => {
    const url = '/v1/integrations/github/repositories';
    expect((await server.inject({ method: 'GET', url })).statusCode).toBe(401);
    const noScope = await tokenFactory(server, acme.organization.id, ['orders:read']);
    expect((await server.inject({ method: 'GET', url, headers: bearer(noScope) })).statusCode).toBe(403);
    const listed = await server.inject({ method: 'GET', url, headers: bearer(acme.token) });
    expect(listed.statusCode).toBe(200);
    expect(json(listed)).toEqual({
      items: [{ repository_owner: 'acme', repository_name: 'private-repo', private: true }],
    });
  });
});

describe('integrations.clean_states', { timeout: 90_000 }, () => {
  it('drops the authorizations that ended more than a day ago, and keeps the others', async () => {
    const { token } = await discordPurchase();
    await startConnect(token, 'discord');
    const count = async () =>
      Number(
        (
          await server.runtime.database.db
            .selectFrom('oauth_connect_states')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    await cleanConnectStatesJob.handle(server.context(), {});
    expect(await count()).toBe(before);
    (server.clock as ManualClock).advance(25 * 3600 * 1000 + 10 * 60 * 1000);
    await cleanConnectStatesJob.handle(server.context(), {});
    expect(await count()).toBe(0);
  });
});

/** A guild with roles above and below the bot's: Discord lets the bot give only those below its highest role. */
const HIERARCHY = [
  { id: GUILD, name: '@everyone', position: 0 },
  { id: 'role-member', name: 'Member', position: 1 },
  { id: 'role-moderator', name: 'Moderator', position: 2 },
  { id: 'role-other-bot', name: 'Other bot', position: 3, managed: true, tags: { bot_id: 'someone-else' } },
  { id: 'role-bot', name: 'Tessera', position: 4, managed: true, tags: { bot_id: 'discord-client' } },
  { id: 'role-admin', name: 'Admin', position: 5 },
];

const benefitCall = (method: 'POST' | 'PATCH', url: string, payload: object) =>
  server.inject({ method, url, headers: bearer(acme.token), payload });

describe("Discord's role hierarchy", { timeout: 90_000 }, () => {
  beforeEach(() => {
    fake.roles.set(GUILD, HIERARCHY);
    fake.botRoles.delete(GUILD);
  });
  const guildToken = () => signGuildToken(server.runtime.config.secret, GUILD, new Date());

  it('the role picker says which roles the bot can give: below its highest role, never managed ones', async () => {
    const lookup = await server.inject({
      method: 'GET',
      url: `/v1/integrations/discord/guild/lookup?guild_token=${encodeURIComponent(guildToken())}`,
      headers: bearer(acme.token),
    });
    expect(lookup.statusCode, lookup.body).toBe(200);
    expect(
      json(lookup).roles.map((r: { id: string; manageable: boolean; is_bot: boolean }) => [
        r.id,
        r.manageable,
        r.is_bot,
      ]),
    ).toEqual([
      ['role-admin', false, false],
      ['role-bot', false, true],
      ['role-moderator', true, false],
      ['role-member', true, false],
    ]);
    // A role the seller gave the bot raises what it can give.
    fake.botRoles.set(GUILD, ['role-admin']);
    fake.roles.set(GUILD, [...HIERARCHY, { id: 'role-vip', name: 'VIP', position: 4 }]);
    const raised = await server.inject({
      method: 'GET',
      url: `/v1/integrations/discord/guild/lookup?guild_token=${encodeURIComponent(guildToken())}`,
      headers: bearer(acme.token),
    });
    expect(json(raised).roles.find((r: { id: string }) => r.id === 'role-vip').manageable).toBe(true);
  });

  it('refuses a benefit with a role the bot cannot give (422 at the role), on create and on update', async () => {
    for (const role of ['role-admin', 'role-bot', 'role-other-bot', GUILD, 'role-unknown']) {
      const refused = await benefitCall('POST', '/v1/benefits/', {
        type: 'discord',
        description: `Refused ${role}`,
        properties: { guild_token: guildToken(), role_id: role },
      });
      expect(refused.statusCode, `${role}: ${refused.body}`).toBe(422);
      expect(json(refused).detail.map((d: { loc: unknown }) => d.loc)).toEqual([['body', 'properties', 'role_id']]);
    }
    const admin = await benefitCall('POST', '/v1/benefits/', {
      type: 'discord',
      description: 'Admin role',
      properties: { guild_token: guildToken(), role_id: 'role-admin' },
    });
    expect(json(admin).detail[0].msg).toContain("move the bot's role above it");
    const created = await benefitCall('POST', '/v1/benefits/', {
      type: 'discord',
      description: 'Moderator role',
      properties: { guild_token: guildToken(), role_id: 'role-moderator' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const benefit = json(created);
    const update = await benefitCall('PATCH', `/v1/benefits/${benefit.id}`, {
      type: 'discord',
      properties: { guild_token: benefit.properties.guild_token, role_id: 'role-admin' },
    });
    expect(update.statusCode).toBe(422);
    expect(json(update).detail[0].loc).toEqual(['body', 'properties', 'role_id']);
    const after = json(
      await server.inject({ method: 'GET', url: `/v1/benefits/${benefit.id}`, headers: bearer(acme.token) }),
    );
    expect(after.properties.role_id).toBe('role-moderator');
    // Discord unreachable at save time: a clear 400, nothing saved, never a 500.
    fake.failNext(/^GET \/discord\/api\/v10\/guilds\/[^/]+$/, 503);
    const unavailable = await benefitCall('PATCH', `/v1/benefits/${benefit.id}`, {
      type: 'discord',
      properties: { guild_token: benefit.properties.guild_token, role_id: 'role-member' },
    });
    expect(unavailable.statusCode).toBe(400);
  });

  it('a grant Discord refuses anyway (50013) is a failed grant with what to do, not retried; fixed, it is delivered', async () => {
    // The benefit was saved while the bot could give Moderator; then the seller moved the bot's role down.
    const benefit = await typedBenefitFactory(server, acme.organization.id, 'discord', {
      guild_id: GUILD,
      role_id: 'role-moderator',
      guild_token: 'stored-token',
    });
    const purchase = await purchaseFactory(server, acme, [benefit.id]);
    const grant = await waitForGrant(server, purchase.customerId, benefit.id, (g) => g.error !== null);
    const token = await sessionFor(purchase.customerId);
    fake.discordAccount = { id: '5013', name: 'refused' };
    await connect(token, 'discord');
    fake.roles.set(
      GUILD,
      HIERARCHY.map((role) =>
        role.id === 'role-bot'
          ? { ...role, position: 2 }
          : role.id === 'role-moderator'
            ? { ...role, position: 3 }
            : role,
      ),
    );
    const calls = () => fake.calls.filter((c) => c.method === 'PUT' && c.path.endsWith('/members/5013')).length;
    const before = calls();
    expect(
      (await patchGrant(token, grant.id, { benefit_type: 'discord', properties: { account_id: '5013' } })).statusCode,
    ).toBe(200);
    const failed = await waitForGrant(server, purchase.customerId, benefit.id, (g) =>
      Boolean((g.error as { message?: string } | null)?.message === DISCORD_ROLE_REFUSED),
    );
    expect(failed.granted_at).toBeNull();
    expect(failed.error).toMatchObject({ type: 'BenefitRemoteError' });
    expect(calls() - before).toBe(1);
    // The seller sees it on the benefit's grants.
    const grants = json(
      await server.inject({ method: 'GET', url: `/v1/benefits/${benefit.id}/grants`, headers: bearer(acme.token) }),
    );
    expect(grants.items[0].error.message).toBe(DISCORD_ROLE_REFUSED);
    // A refusal is not retried by the queue: the job that recorded it completed, none is waiting.
    const waiting = async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from pgboss.job
          where name = 'benefit_grants.update' and data->>'grant_id' = ${grant.id}
          and state in ('created', 'retry', 'active')`.execute(server.runtime.database.db)
      ).rows[0]!.n;
    await expect.poll(waiting, { timeout: 15_000 }).toBe(0);
    expect(calls() - before).toBe(1);
    // The seller moves the bot's role back up; the customer chooses the account again and it is delivered.
    fake.roles.set(GUILD, HIERARCHY);
    expect(
      (await patchGrant(token, grant.id, { benefit_type: 'discord', properties: { account_id: '5013' } })).statusCode,
    ).toBe(200);
    await waitForGrant(server, purchase.customerId, benefit.id, (g) => g.granted_at !== null && g.error === null);
    expect([...fake.members.get(GUILD)!.get('5013')!]).toEqual(['role-moderator']);
  });
});

describe('a benefit changed by the seller reaches its grants', { timeout: 90_000 }, () => {
  beforeEach(() => {
    fake.roles.set(GUILD, HIERARCHY);
  });

  it('Discord: the customers get the new role and lose the old one', async () => {
    const benefit = await typedBenefitFactory(server, acme.organization.id, 'discord', {
      guild_id: GUILD,
      role_id: 'role-member',
      guild_token: 'stored-token',
    });
    const purchase = await purchaseFactory(server, acme, [benefit.id]);
    const grant = await waitForGrant(server, purchase.customerId, benefit.id, (g) => g.error !== null);
    const token = await sessionFor(purchase.customerId);
    fake.discordAccount = { id: '7001', name: 'mover' };
    await connect(token, 'discord');
    await patchGrant(token, grant.id, { benefit_type: 'discord', properties: { account_id: '7001' } });
    await waitForGrant(server, purchase.customerId, benefit.id, (g) => g.granted_at !== null && !g.error);
    expect([...fake.members.get(GUILD)!.get('7001')!]).toEqual(['role-member']);

    const changed = await benefitCall('PATCH', `/v1/benefits/${benefit.id}`, {
      type: 'discord',
      properties: { guild_token: 'stored-token', role_id: 'role-moderator' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const updated = await waitForGrant(
      server,
      purchase.customerId,
      benefit.id,
      (g) => (g.properties as { role_id?: string }).role_id === 'role-moderator',
    );
    expect(updated).toMatchObject({ error: null, revoked_at: null });
    expect([...fake.members.get(GUILD)!.get('7001')!]).toEqual(['role-moderator']);
  });

  it('GitHub: a new repository invites the customer there and removes them from the old one; a new permission re-invites', async () => {
    fake.repositories = [
      { owner: 'acme', name: 'private-repo', private: true },
      { owner: 'acme', name: 'next-repo', private: true },
    ];
    const benefit = await typedBenefitFactory(server, acme.organization.id, 'github_repository', {
      repository_owner: 'acme',
      repository_name: 'private-repo',
      permission: 'pull',
    });
    const purchase = await purchaseFactory(server, acme, [benefit.id]);
    const grant = await waitForGrant(server, purchase.customerId, benefit.id, (g) => g.error !== null);
    const token = await sessionFor(purchase.customerId);
    fake.githubAccount = { id: '9001', name: 'mover-gh' };
    await connect(token, 'github');
    await patchGrant(token, grant.id, { benefit_type: 'github_repository', properties: { account_id: '9001' } });
    await waitForGrant(server, purchase.customerId, benefit.id, (g) => g.granted_at !== null && !g.error);
    const invited = (repo: string) => fake.invitations.get(`acme/${repo}`)?.find((i) => i.login === 'mover-gh');
    expect(invited('private-repo')).toMatchObject({ permission: 'pull' });

    const permission = await benefitCall('PATCH', `/v1/benefits/${benefit.id}`, {
      type: 'github_repository',
      properties: { repository_owner: 'acme', repository_name: 'private-repo', permission: 'push' },
    });
    expect(permission.statusCode, permission.body).toBe(200);
    await waitForGrant(
      server,
      purchase.customerId,
      benefit.id,
      (g) => (g.properties as { permission?: string }).permission === 'push',
    );
    expect(invited('private-repo')).toMatchObject({ permission: 'push' });

    const moved = await benefitCall('PATCH', `/v1/benefits/${benefit.id}`, {
      type: 'github_repository',
      properties: { repository_owner: 'acme', repository_name: 'next-repo', permission: 'push' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await waitForGrant(
      server,
      purchase.customerId,
      benefit.id,
      (g) => (g.properties as { repository_name?: string }).repository_name === 'next-repo',
    );
    expect(invited('next-repo')).toMatchObject({ permission: 'push' });
    expect(invited('private-repo')).toBeUndefined();
  });
});
