import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../src/platform/clock.js';
import { INVITE_LIMITS, INVITE_TTL_MS } from '../src/modules/organization-members/organization-members.service.js';
import { tokenFactory, uniqueSlug } from './factories/organizations.js';
import { plainHeaders, WebhookReceiver, webhookEndpointFactory } from './factories/webhooks.js';
import { userFactory, type UserFixture } from './factories/users.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';
import { issueTokens, REDIRECT_URI, registerClient } from './support/oauth2.js';

/** Teams of sellers: members, invitations by email, and a removed member losing access at once. */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

interface Team {
  owner: UserFixture;
  organizationId: string;
  slug: string;
}

async function teamFactory(name = 'Acme'): Promise<Team> {
  const owner = await userFactory(server);
  const slug = uniqueSlug(name.toLowerCase());
  const created = await server.inject({
    method: 'POST',
    url: '/v1/organizations/',
    headers: owner.headers,
    payload: { name, slug },
  });
  expect(created.statusCode).toBe(201);
  return { owner, organizationId: json(created).id, slug };
}

const invite = (team: Team, email: string, headers: Record<string, string> = team.owner.headers) =>
  server.inject({
    method: 'POST',
    url: `/v1/organizations/${team.organizationId}/invites`,
    headers,
    payload: { email },
  });

const members = (organizationId: string, headers: Record<string, string>) =>
  server.inject({ method: 'GET', url: `/v1/organizations/${organizationId}/members`, headers });

const accept = (token: string, headers: Record<string, string>) =>
  server.inject({ method: 'POST', url: `/v1/organization-invites/${token}/accept`, headers });

const remove = (organizationId: string, userId: string, headers: Record<string, string>) =>
  server.inject({ method: 'DELETE', url: `/v1/organizations/${organizationId}/members/${userId}`, headers });

const changeRole = (organizationId: string, userId: string, payload: unknown, headers: Record<string, string>) =>
  server.inject({
    method: 'PATCH',
    url: `/v1/organizations/${organizationId}/members/${userId}`,
    headers,
    payload: payload as Record<string, unknown>,
  });

const leave = (organizationId: string, headers: Record<string, string>) =>
  server.inject({ method: 'POST', url: `/v1/organizations/${organizationId}/leave`, headers });

/** The link of the last invitation emailed to this address, read from the outbox. */
async function invitationToken(email: string): Promise<string> {
  const rows = await server.runtime.database.db
    .selectFrom('emails')
    .selectAll()
    .where('template', '=', 'organization_invite')
    .orderBy('created_at')
    .execute();
  const sent = rows.filter((row) => row.to_addresses.includes(email)).at(-1);
  if (!sent) throw new Error(`no invitation emailed to ${email}`);
  return /\/invite\/(polar_inv_[0-9A-Za-z]+)/.exec(sent.text_body)![1]!;
}

/** Invites a new user (signed up with the invited address) and accepts; answers them. */
async function joinedMember(team: Team): Promise<UserFixture> {
  const user = await userFactory(server);
  expect((await invite(team, user.email)).statusCode).toBe(201);
  const answer = await accept(await invitationToken(user.email), user.headers);
  expect(answer.statusCode).toBe(200);
  return user;
}

async function tableCount(table: 'user_organizations' | 'organization_invites', organizationId: string) {
  const row = await server.runtime.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('GET /v1/organizations/{id}/members', () => {
  it('lists the creator as owner, with the join date', async () => {
    const team = await teamFactory();
    const answer = await members(team.organizationId, team.owner.headers);
    expect(answer.statusCode).toBe(200);
    expect(json(answer)).toEqual({
      items: [{ user_id: team.owner.id, email: team.owner.email, role: 'owner', created_at: expect.any(String) }],
      pagination: { total_count: 1, max_page: 1 },
    });
  });

  it('takes an organization token with organizations:read, not one without (403), nor none (401)', async () => {
    const team = await teamFactory();
    const reader = await tokenFactory(server, team.organizationId, ['organizations:read']);
    expect((await members(team.organizationId, bearer(reader))).statusCode).toBe(200);
    const other = await tokenFactory(server, team.organizationId, ['products:read']);
    const forbidden = await members(team.organizationId, bearer(other));
    expect(forbidden.statusCode).toBe(403);
    expect(json(forbidden).error).toBe('insufficient_scope');
    expect((await members(team.organizationId, {})).statusCode).toBe(401);
  });

  it("is a 404 for another organization's members", async () => {
    const a = await teamFactory('Alpha');
    const b = await teamFactory('Bravo');
    const answer = await members(a.organizationId, b.owner.headers);
    expect(answer.statusCode).toBe(404);
    expect(json(answer).error).toBe('ResourceNotFound');
    const bToken = await tokenFactory(server, b.organizationId, ['organizations:read']);
    expect((await members(a.organizationId, bearer(bToken))).statusCode).toBe(404);
  });
});

describe('POST /v1/organizations/{id}/invites', () => {
  it('emails a single-use link through the outbox, and the invitee joins as a member', async () => {
    const team = await teamFactory('Acme');
    const invitee = await userFactory(server);
    const answer = await invite(team, invitee.email);
    expect(answer.statusCode).toBe(201);
    const created = json(answer);
    expect(created).toMatchObject({
      organization_id: team.organizationId,
      email: invitee.email,
      invited_by_user_id: team.owner.id,
      status: 'pending',
    });
    expect(new Date(created.expires_at).getTime() - new Date(created.created_at).getTime()).toBe(INVITE_TTL_MS);

    const [email] = await server.runtime.database.db
      .selectFrom('emails')
      .selectAll()
      .where('template', '=', 'organization_invite')
      .where('organization_id', '=', team.organizationId)
      .execute();
    expect(email).toMatchObject({ subject: 'You are invited to join Acme', to_addresses: [invitee.email] });
    expect(email!.text_body).toContain(`${team.owner.email} invited you`);
    const token = await invitationToken(invitee.email);
    expect(email!.text_body).toContain(`${server.config.baseUrl}/invite/${token}`);

    const preview = await server.inject({ method: 'GET', url: `/v1/organization-invites/${token}` });
    expect(preview.statusCode).toBe(200);
    expect(json(preview)).toEqual({
      email: invitee.email,
      expires_at: created.expires_at,
      organization_name: 'Acme',
      organization_slug: team.slug,
    });

    // Not a member before accepting.
    expect((await members(team.organizationId, invitee.headers)).statusCode).toBe(404);
    const accepted = await accept(token, invitee.headers);
    expect(accepted.statusCode).toBe(200);
    expect(json(accepted)).toMatchObject({ id: team.organizationId, slug: team.slug });

    const listed = json(await members(team.organizationId, invitee.headers));
    // Both joined at the same instant of the test's frozen clock: their order is the tie-break's (user id).
    const roles = listed.items.map((m: { email: string; role: string }) => [m.email, m.role]);
    expect(roles.sort()).toEqual(
      [
        [team.owner.email, 'owner'],
        [invitee.email, 'member'],
      ].sort(),
    );
    const organizations = json(
      await server.inject({ method: 'GET', url: '/v1/organizations/', headers: invitee.headers }),
    );
    expect(organizations.items.map((o: { id: string }) => o.id)).toEqual([team.organizationId]);
    // The invitation is no longer open.
    const open = json(
      await server.inject({
        method: 'GET',
        url: `/v1/organizations/${team.organizationId}/invites`,
        headers: team.owner.headers,
      }),
    );
    expect(open.items).toEqual([]);
  });

  it('refuses an address that is already a member (422), and changes nothing', async () => {
    const team = await teamFactory();
    const member = await joinedMember(team);
    const invitesBefore = await tableCount('organization_invites', team.organizationId);
    for (const email of [member.email.toUpperCase(), team.owner.email]) {
      const answer = await invite(team, email);
      expect(answer.statusCode).toBe(422);
      expect(json(answer).detail).toEqual([
        expect.objectContaining({
          loc: ['body', 'email'],
          msg: 'This person is already a member of the organization.',
        }),
      ]);
    }
    expect(await tableCount('organization_invites', team.organizationId)).toBe(invitesBefore);
  });

  it('refuses a body without a valid email (422), and needs organizations:write', async () => {
    const team = await teamFactory();
    const bad = await invite(team, 'not an email');
    expect(bad.statusCode).toBe(422);
    expect(json(bad).detail[0].loc).toEqual(['body', 'email']);
    const reader = await tokenFactory(server, team.organizationId, ['organizations:read']);
    expect((await invite(team, 'x@example.com', bearer(reader))).statusCode).toBe(403);
    expect((await invite(team, 'x@example.com', {})).statusCode).toBe(401);
    expect(await tableCount('organization_invites', team.organizationId)).toBe(0);
  });

  it('is a 404 for another organization, and invites nobody there', async () => {
    const a = await teamFactory('Alpha');
    const b = await teamFactory('Bravo');
    expect((await invite(a, 'someone@example.com', b.owner.headers)).statusCode).toBe(404);
    const bToken = await tokenFactory(server, b.organizationId, ['organizations:write']);
    expect((await invite(a, 'someone@example.com', bearer(bToken))).statusCode).toBe(404);
    expect(await tableCount('organization_invites', a.organizationId)).toBe(0);
  });

  it('a new invitation of the same address replaces the earlier one: the old link stops working', async () => {
    const team = await teamFactory();
    const invitee = await userFactory(server);
    await invite(team, invitee.email);
    const first = await invitationToken(invitee.email);
    // A second later, so the outbox orders the two emails.
    (server.clock as ManualClock).advance(1000);
    await invite(team, invitee.email);
    const second = await invitationToken(invitee.email);
    expect(second).not.toBe(first);
    const old = await accept(first, invitee.headers);
    expect(old.statusCode).toBe(410);
    expect(json(old)).toEqual({ error: 'ResourceUnavailable', detail: 'This invitation was withdrawn.' });
    expect((await accept(second, invitee.headers)).statusCode).toBe(200);
  });
});

describe('accepting an invitation', () => {
  it('works once: the used link is a 410 with a clear reason', async () => {
    const team = await teamFactory();
    const invitee = await userFactory(server);
    await invite(team, invitee.email);
    const token = await invitationToken(invitee.email);
    expect((await accept(token, invitee.headers)).statusCode).toBe(200);
    const again = await accept(token, invitee.headers);
    expect(again.statusCode).toBe(410);
    expect(json(again)).toEqual({ error: 'ResourceUnavailable', detail: 'This invitation was already used.' });
    const preview = await server.inject({ method: 'GET', url: `/v1/organization-invites/${token}` });
    expect(preview.statusCode).toBe(410);
  });

  it('expires after seven days (410), and nobody joins', async () => {
    const team = await teamFactory();
    const invitee = await userFactory(server);
    await invite(team, invitee.email);
    const token = await invitationToken(invitee.email);
    (server.clock as ManualClock).advance(INVITE_TTL_MS);
    const late = await accept(token, invitee.headers);
    expect(late.statusCode).toBe(410);
    expect(json(late).detail).toBe('This invitation has expired: ask a member of the organization for a new one.');
    const open = await server.inject({
      method: 'GET',
      url: `/v1/organizations/${team.organizationId}/invites`,
      headers: team.owner.headers,
    });
    expect(json(open).items.map((i: { status: string }) => i.status)).toEqual(['expired']);
    expect((await members(team.organizationId, invitee.headers)).statusCode).toBe(404);
    expect(await tableCount('user_organizations', team.organizationId)).toBe(1);
  });

  it('needs the invited address: another account gets a 403 and the link still works for the invitee', async () => {
    const team = await teamFactory();
    const invitee = await userFactory(server);
    const stranger = await userFactory(server);
    await invite(team, invitee.email);
    const token = await invitationToken(invitee.email);
    const refused = await accept(token, stranger.headers);
    expect(refused.statusCode).toBe(403);
    expect(json(refused)).toEqual({
      error: 'NotPermitted',
      detail: `This invitation was sent to ${invitee.email}: sign in with that address to accept it.`,
    });
    expect((await members(team.organizationId, stranger.headers)).statusCode).toBe(404);
    expect((await accept(token, invitee.headers)).statusCode).toBe(200);
  });

  it('signing up with the invited address, then accepting, joins', async () => {
    const team = await teamFactory();
    const address = `new-${Date.now()}@example.com`;
    await invite(team, address);
    const token = await invitationToken(address);
    const newcomer = await userFactory(server, { email: address });
    expect((await accept(token, newcomer.headers)).statusCode).toBe(200);
    expect((await members(team.organizationId, newcomer.headers)).statusCode).toBe(200);
  });

  it('needs a signed-in user (401); an unknown link is a 404', async () => {
    const team = await teamFactory();
    const invitee = await userFactory(server);
    await invite(team, invitee.email);
    const token = await invitationToken(invitee.email);
    expect((await accept(token, {})).statusCode).toBe(401);
    const orgToken = await tokenFactory(server, team.organizationId, ['organizations:write']);
    expect((await accept(token, bearer(orgToken))).statusCode).toBe(401);
    expect((await accept('polar_inv_unknown', invitee.headers)).statusCode).toBe(404);
    expect((await server.inject({ method: 'GET', url: '/v1/organization-invites/polar_inv_unknown' })).statusCode).toBe(
      404,
    );
    expect(await tableCount('user_organizations', team.organizationId)).toBe(1);
  });
});

describe('DELETE /v1/organizations/{id}/invites/{invite_id}', () => {
  it('withdraws an open invitation: the link stops working', async () => {
    const team = await teamFactory();
    const invitee = await userFactory(server);
    const created = json(await invite(team, invitee.email));
    const token = await invitationToken(invitee.email);
    const revoked = await server.inject({
      method: 'DELETE',
      url: `/v1/organizations/${team.organizationId}/invites/${created.id}`,
      headers: team.owner.headers,
    });
    expect(revoked.statusCode).toBe(204);
    expect((await accept(token, invitee.headers)).statusCode).toBe(410);
    const again = await server.inject({
      method: 'DELETE',
      url: `/v1/organizations/${team.organizationId}/invites/${created.id}`,
      headers: team.owner.headers,
    });
    expect(again.statusCode).toBe(404);
  });
});

describe('removing and leaving', () => {
  it('a removed member loses access at once: dashboard session and OAuth user token alike', async () => {
    const team = await teamFactory();
    const member = await joinedMember(team);
    const client = await registerClient(server, member);
    const tokens = await issueTokens(server, member, client, { scope: 'organizations:read products:read' });
    const oauth = bearer(tokens.access_token);
    const reads = [
      `/v1/organizations/${team.organizationId}`,
      `/v1/organizations/${team.organizationId}/members`,
      `/v1/products/?organization_id=${team.organizationId}`,
    ];
    for (const url of reads) {
      expect((await server.inject({ method: 'GET', url, headers: member.headers })).statusCode).toBe(200);
      expect((await server.inject({ method: 'GET', url, headers: oauth })).statusCode).toBe(200);
    }

    expect((await remove(team.organizationId, member.id, team.owner.headers)).statusCode).toBe(204);

    for (const headers of [member.headers, oauth]) {
      expect((await server.inject({ method: 'GET', url: reads[0]!, headers })).statusCode).toBe(404);
      expect((await server.inject({ method: 'GET', url: reads[1]!, headers })).statusCode).toBe(404);
      const organizations = json(await server.inject({ method: 'GET', url: '/v1/organizations/', headers }));
      expect(organizations.items).toEqual([]);
    }
    const products = json(await server.inject({ method: 'GET', url: reads[2]!, headers: member.headers }));
    expect(products.items).toEqual([]);
    // A create naming the organization is refused as the reference does (not a member: 422 at organization_id).
    const create = await server.inject({
      method: 'POST',
      url: '/v1/products/',
      headers: member.headers,
      payload: {
        organization_id: team.organizationId,
        name: 'Sneaky',
        recurring_interval: null,
        prices: [{ amount_type: 'fixed', price_amount: 100, price_currency: 'usd' }],
      },
    });
    expect(create.statusCode).toBe(422);
    expect(json(create).detail[0].loc).toEqual(['body', 'organization_id']);
    expect((await invite(team, 'friend@example.com', member.headers)).statusCode).toBe(404);
    expect((await leave(team.organizationId, member.headers)).statusCode).toBe(404);
  });

  it('the OAuth2 consent page stops offering the organization to a removed member', async () => {
    const team = await teamFactory();
    const member = await joinedMember(team);
    const client = await registerClient(server, member);
    const consent = () =>
      server.inject({
        method: 'GET',
        url: `/v1/oauth2/authorize?${new URLSearchParams({
          client_id: client.client_id,
          redirect_uri: REDIRECT_URI,
          response_type: 'code',
          scope: 'openid products:read',
          sub_type: 'organization',
        })}`,
        headers: { cookie: member.cookie },
      });
    const before = await consent();
    expect(before.statusCode).toBe(200);
    expect(json(before).organizations.map((o: { id: string }) => o.id)).toEqual([team.organizationId]);
    expect((await remove(team.organizationId, member.id, team.owner.headers)).statusCode).toBe(204);
    expect(json(await consent()).organizations).toEqual([]);
  });

  it('the last member can neither leave nor be removed', async () => {
    const team = await teamFactory();
    const left = await leave(team.organizationId, team.owner.headers);
    expect(left.statusCode).toBe(403);
    expect(json(left)).toEqual({
      error: 'NotPermitted',
      detail: 'The last member of an organization cannot leave or be removed.',
    });
    expect((await remove(team.organizationId, team.owner.id, team.owner.headers)).statusCode).toBe(403);
    const orgToken = await tokenFactory(server, team.organizationId, ['organizations:write']);
    expect((await remove(team.organizationId, team.owner.id, bearer(orgToken))).statusCode).toBe(403);
    expect(await tableCount('user_organizations', team.organizationId)).toBe(1);
  });

  it('a member leaves; only an owner removes an owner; the last owner leaving makes the next member owner', async () => {
    const team = await teamFactory();
    const first = await joinedMember(team);
    const second = await joinedMember(team);
    const refused = await remove(team.organizationId, team.owner.id, first.headers);
    expect(refused.statusCode).toBe(403);
    expect(json(refused).detail).toBe('Only an owner can remove an owner.');
    const orgToken = await tokenFactory(server, team.organizationId, ['organizations:write']);
    expect((await remove(team.organizationId, team.owner.id, bearer(orgToken))).statusCode).toBe(403);

    expect((await leave(team.organizationId, second.headers)).statusCode).toBe(204);
    expect((await members(team.organizationId, second.headers)).statusCode).toBe(404);

    expect((await leave(team.organizationId, team.owner.headers)).statusCode).toBe(204);
    const listed = json(await members(team.organizationId, first.headers));
    expect(listed.items).toEqual([expect.objectContaining({ user_id: first.id, role: 'owner' })]);
  });

  it('an organization token removes a member; an unknown member is a 404', async () => {
    const team = await teamFactory();
    const member = await joinedMember(team);
    const orgToken = await tokenFactory(server, team.organizationId, ['organizations:write']);
    const reader = await tokenFactory(server, team.organizationId, ['organizations:read']);
    expect((await remove(team.organizationId, member.id, bearer(reader))).statusCode).toBe(403);
    expect((await remove(team.organizationId, member.id, {})).statusCode).toBe(401);
    expect((await remove(team.organizationId, member.id, bearer(orgToken))).statusCode).toBe(204);
    expect((await remove(team.organizationId, member.id, bearer(orgToken))).statusCode).toBe(404);
    expect((await remove(team.organizationId, 'not-a-uuid', bearer(orgToken))).statusCode).toBe(422);
  });

  it("is a 404 for another organization's member, and removes nobody", async () => {
    const a = await teamFactory('Alpha');
    const member = await joinedMember(a);
    const b = await teamFactory('Bravo');
    expect((await remove(a.organizationId, member.id, b.owner.headers)).statusCode).toBe(404);
    expect((await leave(a.organizationId, b.owner.headers)).statusCode).toBe(404);
    expect(await tableCount('user_organizations', a.organizationId)).toBe(2);
  });
});

describe('PATCH /v1/organizations/{id}/members/{user_id}', () => {
  const roles = async (team: Team) =>
    Object.fromEntries(
      json(await members(team.organizationId, team.owner.headers)).items.map((m: { email: string; role: string }) => [
        m.email,
        m.role,
      ]),
    );

  it('an owner makes a member owner and back; the answer is the member', async () => {
    const team = await teamFactory();
    const member = await joinedMember(team);
    const promoted = await changeRole(team.organizationId, member.id, { role: 'owner' }, team.owner.headers);
    expect(promoted.statusCode).toBe(200);
    expect(json(promoted)).toEqual({
      user_id: member.id,
      email: member.email,
      role: 'owner',
      created_at: expect.any(String),
    });
    expect(await roles(team)).toEqual({ [team.owner.email]: 'owner', [member.email]: 'owner' });
    // Unchanged role: answered as it is.
    expect((await changeRole(team.organizationId, member.id, { role: 'owner' }, team.owner.headers)).statusCode).toBe(
      200,
    );
    // The new owner demotes the creator, then steps down is refused: they are the last owner now.
    expect(json(await changeRole(team.organizationId, team.owner.id, { role: 'member' }, member.headers)).role).toBe(
      'member',
    );
    const last = await changeRole(team.organizationId, member.id, { role: 'member' }, member.headers);
    expect(last.statusCode).toBe(403);
    expect(json(last)).toEqual({
      error: 'NotPermitted',
      detail: 'The last owner of an organization cannot be demoted: make another member owner first.',
    });
    expect(await roles(team)).toEqual({ [team.owner.email]: 'member', [member.email]: 'owner' });
  });

  it('only an owner changes roles: a member and an organization token get 403, and nothing changes', async () => {
    const team = await teamFactory();
    const member = await joinedMember(team);
    const other = await joinedMember(team);
    const byMember = await changeRole(team.organizationId, other.id, { role: 'owner' }, member.headers);
    expect(byMember.statusCode).toBe(403);
    expect(json(byMember)).toEqual({ error: 'NotPermitted', detail: 'Only an owner can change the role of a member.' });
    expect((await changeRole(team.organizationId, member.id, { role: 'owner' }, member.headers)).statusCode).toBe(403);
    const orgToken = await tokenFactory(server, team.organizationId, ['organizations:write']);
    expect((await changeRole(team.organizationId, other.id, { role: 'owner' }, bearer(orgToken))).statusCode).toBe(403);
    expect(await roles(team)).toEqual({
      [team.owner.email]: 'owner',
      [member.email]: 'member',
      [other.email]: 'member',
    });
  });

  it('auth matrix: no token 401, missing scope 403, another organization 404, bad body 422; nothing changes', async () => {
    const a = await teamFactory('Alpha');
    const member = await joinedMember(a);
    const b = await teamFactory('Bravo');
    expect((await changeRole(a.organizationId, member.id, { role: 'owner' }, {})).statusCode).toBe(401);
    const reader = await tokenFactory(server, a.organizationId, ['organizations:read']);
    const forbidden = await changeRole(a.organizationId, member.id, { role: 'owner' }, bearer(reader));
    expect(forbidden.statusCode).toBe(403);
    expect(json(forbidden).error).toBe('insufficient_scope');
    const foreign = await changeRole(a.organizationId, member.id, { role: 'owner' }, b.owner.headers);
    expect(foreign.statusCode).toBe(404);
    expect(json(foreign).error).toBe('ResourceNotFound');
    const bToken = await tokenFactory(server, b.organizationId, ['organizations:write']);
    expect((await changeRole(a.organizationId, member.id, { role: 'owner' }, bearer(bToken))).statusCode).toBe(404);
    // A member of B is not a member of A.
    expect((await changeRole(b.organizationId, member.id, { role: 'owner' }, b.owner.headers)).statusCode).toBe(404);
    for (const body of [{ role: 'admin' }, {}, { role: null }]) {
      const bad = await changeRole(a.organizationId, member.id, body, a.owner.headers);
      expect(bad.statusCode).toBe(422);
      expect(json(bad).error).toBe('RequestValidationError');
      expect(json(bad).detail[0].loc).toEqual(['body', 'role']);
    }
    expect((await changeRole(a.organizationId, 'not-a-uuid', { role: 'owner' }, a.owner.headers)).statusCode).toBe(422);
    expect(await roles(a)).toEqual({ [a.owner.email]: 'owner', [member.email]: 'member' });
  });
});

describe('invitation rate limit', () => {
  const sendMany = async (team: Team, count: number, headers: Record<string, string>, tag: string) => {
    const statuses = [];
    for (let i = 0; i < count; i++) statuses.push((await invite(team, `${tag}-${i}@example.com`, headers)).statusCode);
    return statuses;
  };

  it('per inviter and per organization, by the sliding hour: 429 with Retry-After, nobody invited', async () => {
    const team = await teamFactory();
    const clock = server.clock as ManualClock;
    expect(await sendMany(team, INVITE_LIMITS.perInviter, team.owner.headers, 'first')).toEqual(
      Array(INVITE_LIMITS.perInviter).fill(201),
    );
    clock.advance(10 * 60_000);
    const refused = await invite(team, 'one-too-many@example.com');
    expect(refused.statusCode).toBe(429);
    expect(json(refused)).toEqual({
      error: 'TooManyRequests',
      detail: 'Too many invitations: you sent 10 in the last hour. Try again in 50 minutes.',
    });
    expect(refused.headers['retry-after']).toBe(String(50 * 60));

    // The organization's other credentials have room until the organization's own limit.
    const orgToken = await tokenFactory(server, team.organizationId, ['organizations:write']);
    const rest = INVITE_LIMITS.perOrganization - INVITE_LIMITS.perInviter;
    expect(await sendMany(team, rest, bearer(orgToken), 'token')).toEqual(Array(rest).fill(201));
    const full = await invite(team, 'org-full@example.com', bearer(orgToken));
    expect(full.statusCode).toBe(429);
    expect(json(full).detail).toBe(
      'Too many invitations: this organization sent 20 in the last hour. Try again in 50 minutes.',
    );
    expect(Number(full.headers['retry-after'])).toBe(50 * 60);
    expect(await tableCount('organization_invites', team.organizationId)).toBe(INVITE_LIMITS.perOrganization);
    const emails = await server.runtime.database.db
      .selectFrom('emails')
      .select('to_addresses')
      .where('template', '=', 'organization_invite')
      .execute();
    expect(emails.filter((row) => row.to_addresses.includes('org-full@example.com'))).toHaveLength(0);

    // Once the first invitations are an hour old, there is room again.
    clock.advance(50 * 60_000);
    expect((await invite(team, 'next-hour@example.com')).statusCode).toBe(201);
  });

  it("is the organization's own: another organization invites freely", async () => {
    const a = await teamFactory('Alpha');
    const b = await teamFactory('Bravo');
    await sendMany(a, INVITE_LIMITS.perInviter, a.owner.headers, 'a');
    expect((await invite(a, 'a-more@example.com')).statusCode).toBe(429);
    expect((await invite(b, 'b-first@example.com')).statusCode).toBe(201);
  });
});

describe('organization.member_removed webhook', () => {
  let receiver: WebhookReceiver;
  const SECRET = 'whsec_members_secret';
  const POLL = { timeout: 20_000, interval: 50 };
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
  });
  afterAll(() => receiver?.stop());

  /** The organization's member_removed events that arrived, in arrival order. */
  const removedEvents = (organizationId: string) =>
    receiver
      .ofType('organization.member_removed')
      .map((r) => ({ raw: r, event: JSON.parse(r.body) as { type: string; data: Record<string, unknown> } }))
      .filter(({ event }) => event.data.organization_id === organizationId);

  it('is delivered, signed, to subscribed endpoints when a member is removed or leaves', async () => {
    const team = await teamFactory();
    const endpoint = await webhookEndpointFactory(server, team.organizationId, {
      url: `${receiver.url}/members`,
      secret: SECRET,
      events: ['organization.member_removed'],
    });
    const removed = await joinedMember(team);
    const leaving = await joinedMember(team);
    expect((await remove(team.organizationId, removed.id, team.owner.headers)).statusCode).toBe(204);
    expect((await leave(team.organizationId, leaving.headers)).statusCode).toBe(204);

    await expect.poll(() => removedEvents(team.organizationId).length, POLL).toBe(2);
    expect(removedEvents(team.organizationId).map(({ event }) => event)).toEqual([
      {
        type: 'organization.member_removed',
        data: {
          organization_id: team.organizationId,
          user_id: removed.id,
          email: removed.email,
          role: 'member',
          joined_at: expect.any(String),
          reason: 'removed',
          removed_by_user_id: team.owner.id,
          removed_at: expect.any(String),
        },
      },
      expect.objectContaining({
        type: 'organization.member_removed',
        data: expect.objectContaining({ user_id: leaving.id, reason: 'left', removed_by_user_id: leaving.id }),
      }),
    ]);
    const request = removedEvents(team.organizationId)[0]!.raw;
    // Standard Webhooks signature (the shared clock ran ahead in earlier tests, so the timestamp is not checked).
    const headers = plainHeaders(request.headers);
    const signed = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${request.body}`;
    const expected = createHmac('sha256', Buffer.from(SECRET, 'utf8')).update(signed).digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
    const deliveries = await server.runtime.database.db
      .selectFrom('webhook_endpoint_events')
      .select(['type', 'status'])
      .where('endpoint_id', '=', endpoint.id)
      .execute();
    expect(deliveries).toHaveLength(2);
  });

  it('is not sent to endpoints that did not subscribe to it, nor written when the removal is refused', async () => {
    const team = await teamFactory();
    const other = await webhookEndpointFactory(server, team.organizationId, {
      url: `${receiver.url}/spec-only`,
    });
    const subscribed = await webhookEndpointFactory(server, team.organizationId, {
      url: `${receiver.url}/subscribed`,
      events: ['organization.member_removed'],
    });
    // The last member cannot leave: no removal, no event.
    expect((await leave(team.organizationId, team.owner.headers)).statusCode).toBe(403);
    const member = await joinedMember(team);
    expect((await remove(team.organizationId, member.id, team.owner.headers)).statusCode).toBe(204);
    const count = async (endpointId: string) =>
      (
        await server.runtime.database.db
          .selectFrom('webhook_endpoint_events')
          .select('type')
          .where('endpoint_id', '=', endpointId)
          .execute()
      ).map((row) => row.type);
    await expect.poll(() => removedEvents(team.organizationId).length, POLL).toBe(1);
    expect(await count(subscribed.id)).toEqual(['organization.member_removed']);
    expect(await count(other.id)).not.toContain('organization.member_removed');
  });
});
