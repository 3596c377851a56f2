import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { purchaseFactory, waitForGrant } from '../../api/test/factories/benefit-grants.js';
import { benefitFactory } from '../../api/test/factories/benefits.js';
import { organizationFactory, type OrganizationFixture } from '../../api/test/factories/organizations.js';
import { bearer, json, startTestServer, type TestServer } from '../../api/test/harness.js';
import { startFakeProviders, type FakeProviders } from '../../api/test/support/fake-discord-github.js';
import { expectNoSeriousA11yViolations, hasChromium, launchBrowser, openPage, screenshot } from './browser.js';

/**
 * A buyer of a Discord benefit connects their Discord account in the portal — the browser really goes to
 * "Discord" (the local fake, which approves at once) and back — chooses it, and gets the role.
 */
const SLUG = 'acme-discord';
const GUILD = '290926798626357250';

describe.skipIf(!hasChromium)('connecting Discord in the customer portal', () => {
  let server: TestServer;
  let fake: FakeProviders;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let org: OrganizationFixture;
  let customerId: string;
  let benefitId: string;

  beforeAll(async () => {
    fake = await startFakeProviders();
    [server, browser] = await Promise.all([
      startTestServer({ listen: true, clock: systemClock, config: fake.config }),
      launchBrowser(),
    ]);
    // Discord sends the browser back to BASE_URL: the port this test server listens on.
    server.config.baseUrl = server.url;
    fake.roles.set(GUILD, [{ id: 'role-member', name: 'Member', position: 1 }]);
    org = await organizationFactory(server, { name: 'Acme Community', slug: SLUG });
    const benefit = await benefitFactory(server, org.organization.id, {
      type: 'discord',
      description: 'Members role',
      properties: { guild_id: GUILD, role_id: 'role-member', guild_token: 'stored-token' },
    });
    benefitId = benefit.id;
    const purchase = await purchaseFactory(server, org, [benefit.id], { email: 'nelly@example.com' });
    customerId = purchase.customerId;
    await waitForGrant(server, customerId, benefit.id, (grant) => grant.error !== null);
    ({ context, page } = await openPage(browser, server.url, 45_000));
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  it('connects the account through Discord, chooses it, and the role is given', async () => {
    const session = await server.inject({
      method: 'POST',
      url: '/v1/customer-sessions/',
      headers: bearer(org.token),
      payload: { customer_id: customerId },
    });
    const link = new URL(json(session).customer_portal_url);
    await page.goto(`${link.pathname}/benefits${link.search}`);
    const card = page.getByRole('region', { name: 'Members role' }).or(page.locator('[aria-labelledby^="benefit-"]'));
    await page.getByText('Access is given to a Discord account: connect yours below.').waitFor();
    await expectNoSeriousA11yViolations(page, 'portal-discord-to-connect');

    await page.getByRole('button', { name: 'Connect Discord' }).click();
    await page.getByText('Your Discord account is connected').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/portal/${SLUG}/benefits`);
    expect(page.url()).not.toContain('code=');
    await page.getByText('Choose the Discord account that should get access.').waitFor();

    await page.getByRole('button', { name: 'Give access to this account' }).click();
    await page.getByText('Your Discord account has the role in the server.').waitFor({ timeout: 30_000 });
    expect([...fake.members.get(GUILD)!.get(fake.discordAccount.id)!]).toEqual(['role-member']);
    const grant = await waitForGrant(server, customerId, benefitId, (g) => g.granted_at !== null);
    expect(grant.properties).toMatchObject({ account_id: fake.discordAccount.id, guild_id: GUILD });
    expect(await card.first().textContent()).toContain('Active');
    await expectNoSeriousA11yViolations(page, 'portal-discord-granted');
    await screenshot(page, 'portal-discord-granted');
  }, 240_000);
});
