import { Polar } from '@polar-sh/sdk';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchaseFactory, typedBenefitFactory, waitForGrant } from '../factories/benefit-grants.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { startTestServer, type TestServer } from '../harness.js';
import { startFakeProviders, type FakeProviders } from '../support/fake-discord-github.js';

/**
 * `customerPortal.benefitGrants.update` of `@polar-sh/sdk@0.33.2`: the customer chooses the connected
 * account of a Discord grant (connected through the local fake of Discord), then a grant of a type that
 * takes no properties; every answer passes the SDK's validation.
 */
let server: TestServer;
let fake: FakeProviders;
let acme: OrganizationFixture;
let polar: Polar;
const GUILD = '290926798626357250';

beforeAll(async () => {
  fake = await startFakeProviders();
  server = await startTestServer({ listen: true, config: fake.config });
  acme = await organizationFactory(server, { name: 'Acme' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
});
afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

async function connectDiscord(session: string): Promise<void> {
  const headers = { authorization: `Bearer ${session}` };
  const authorize = await fetch(`${server.url}/v1/customer-portal/oauth-accounts/authorize?platform=discord`, {
    headers,
  });
  const atProvider = await fetch(((await authorize.json()) as { url: string }).url, { redirect: 'manual' });
  const callback = new URL(atProvider.headers.get('location')!);
  const bounced = await fetch(`${server.url}${callback.pathname}${callback.search}`, { redirect: 'manual' });
  const page = new URL(bounced.headers.get('location')!);
  const done = await fetch(`${server.url}/v1/customer-portal/oauth-accounts/callback`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ state: page.searchParams.get('connect_state'), code: page.searchParams.get('code') }),
  });
  expect(done.status).toBe(200);
}

describe('customerPortal.benefitGrants.update through @polar-sh/sdk', () => {
  it("sets a Discord grant's account, and answers a grant of another type as it is", async () => {
    fake.roles.set(GUILD, [{ id: 'role-member', name: 'Member', position: 1 }]);
    const discord = await typedBenefitFactory(server, acme.organization.id, 'discord', {
      guild_id: GUILD,
      role_id: 'role-member',
      guild_token: 'stored-token',
    });
    const custom = await typedBenefitFactory(server, acme.organization.id, 'custom');
    const purchase = await purchaseFactory(server, acme, [discord.id, custom.id]);
    const pending = await waitForGrant(server, purchase.customerId, discord.id, (g) => g.error !== null);
    const customGrant = await waitForGrant(server, purchase.customerId, custom.id, (g) => g.granted_at !== null);
    const session = (await polar.customerSessions.create({ customerId: purchase.customerId })).token;
    const security = { customerSession: session };
    await connectDiscord(session);

    const updated = await polar.customerPortal.benefitGrants.update(security, {
      id: pending.id,
      customerBenefitGrantUpdate: { benefitType: 'discord', properties: { accountId: fake.discordAccount.id } },
    });
    expect(updated).toMatchObject({
      id: pending.id,
      benefit: { type: 'discord' },
      properties: { accountId: fake.discordAccount.id },
      customer: {
        oauthAccounts: {
          [`discord:${fake.discordAccount.id}`]: { accountId: fake.discordAccount.id, accountUsername: 'nelly' },
        },
      },
    });
    await waitForGrant(server, purchase.customerId, discord.id, (g) => g.granted_at !== null);
    const read = await polar.customerPortal.benefitGrants.get(security, { id: pending.id });
    expect(read.isGranted).toBe(true);

    const same = await polar.customerPortal.benefitGrants.update(security, {
      id: customGrant.id,
      customerBenefitGrantUpdate: { benefitType: 'custom' },
    });
    expect(same).toMatchObject({ id: customGrant.id, isGranted: true });
    await expect(
      polar.customerPortal.benefitGrants.update(security, {
        id: pending.id,
        customerBenefitGrantUpdate: { benefitType: 'discord', properties: { accountId: 'not-connected' } },
      }),
    ).rejects.toBeInstanceOf(HTTPValidationError);
  });
});
