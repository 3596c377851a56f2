import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRANTABLE_SCOPES } from '../../api/src/platform/auth/scopes.js';
import { systemClock } from '../../api/src/platform/clock.js';
import { purchaseFactory, waitForGrant } from '../../api/test/factories/benefit-grants.js';
import { tokenFactory } from '../../api/test/factories/organizations.js';
import { startTestServer, type TestServer } from '../../api/test/harness.js';
import { startFakeProviders, type FakeProviders } from '../../api/test/support/fake-discord-github.js';
import {
  dashboardLink,
  expectNoSeriousA11yViolations,
  hasChromium,
  launchBrowser,
  openPage,
  screenshot,
  signUp,
} from './browser.js';

/**
 * The seller's Discord and GitHub benefit forms in a real browser: the Discord server is connected by
 * adding the bot through "Discord" (the local fake, which approves at once and sends the browser back),
 * the role is picked among those the bot can give (Discord's role hierarchy), and a GitHub repository
 * benefit picks its repository and permission from what the server's token reaches.
 */
const SLUG = 'bot-works';
const GUILD = '290926798626357250';
const HIERARCHY = [
  { id: GUILD, name: '@everyone', position: 0 },
  { id: 'role-member', name: 'Member', position: 1 },
  { id: 'role-moderator', name: 'Moderator', position: 2 },
  { id: 'role-bot', name: 'Tessera', position: 4, managed: true, tags: { bot_id: 'discord-client' } },
  { id: 'role-admin', name: 'Admin', position: 5 },
];

describe.skipIf(!hasChromium)("the seller's Discord and GitHub benefit forms", () => {
  let server: TestServer;
  let fake: FakeProviders;
  let browser: Browser;
  let page: Page;

  const benefits = async () =>
    server.runtime.database.db
      .selectFrom('benefits')
      .innerJoin('organizations', 'organizations.id', 'benefits.organization_id')
      .select(['benefits.type', 'benefits.description', 'benefits.properties'])
      .where('organizations.slug', '=', SLUG)
      .orderBy('benefits.created_at')
      .execute();
  /** A Radix select is opened by its label, its option picked from the list it shows. */
  async function choose(scope: Locator, label: string, option: string) {
    await scope.getByLabel(label, { exact: true }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  beforeAll(async () => {
    fake = await startFakeProviders();
    [server, browser] = await Promise.all([
      // The browser expires the session cookie by the real time, so the server runs on it too.
      startTestServer({ listen: true, clock: systemClock, config: fake.config }),
      launchBrowser(),
    ]);
    // Discord sends the browser back to BASE_URL: the port this test server listens on.
    server.config.baseUrl = server.url;
    fake.roles.set(GUILD, HIERARCHY);
    fake.repositories = [
      { owner: 'acme', name: 'private-repo', private: true },
      { owner: 'acme', name: 'docs', private: false },
    ];
    ({ page } = await openPage(browser, server.url, 45_000));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  it('connects the bot to a Discord server and gives a role it can manage', async () => {
    await signUp(page, 'grace@example.com', 'correct horse battery', 'Bot Works');
    await dashboardLink(page, 'Benefits').click();
    await page.getByRole('heading', { name: 'No benefits yet' }).waitFor();
    await page.getByRole('button', { name: 'New benefit' }).click();
    let dialog = page.getByRole('dialog', { name: 'New benefit' });
    await choose(dialog, 'Benefit type', 'Discord');
    await dialog.getByRole('button', { name: 'Connect a Discord server' }).click();

    // Through "Discord" and back: the form opens again with the server filled in.
    dialog = page.getByRole('dialog', { name: 'New benefit' });
    await dialog.getByLabel('Discord server').waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe(`/dashboard/${SLUG}/benefits`);
    expect(page.url()).not.toContain('code=');
    await expect.poll(() => dialog.getByLabel('Discord server').inputValue()).toBe(`Guild ${GUILD}`);
    expect(fake.calls.some((c) => c.path === '/discord/oauth2/authorize')).toBe(true);

    // The roles above the bot's are shown but cannot be chosen, and the hint says what to do.
    await dialog.getByText("move the bot's role above it in the server's settings (Roles)").waitFor();
    await dialog.getByLabel('Role', { exact: true }).click();
    const admin = page.getByRole('option', { name: "Admin (above the bot's role)" });
    await admin.waitFor();
    expect(await admin.getAttribute('aria-disabled')).toBe('true');
    expect(await page.getByRole('option').allTextContents()).toEqual([
      "Admin (above the bot's role)",
      'Moderator',
      'Member',
    ]);
    await expectNoSeriousA11yViolations(page, 'benefit-discord-roles');
    await screenshot(page, 'benefit-discord-roles');
    await page.getByRole('option', { name: 'Moderator', exact: true }).click();
    await dialog.getByLabel('Description').fill('Moderators');

    // Meanwhile the seller moved the bot's role below Moderator: the server refuses it at the role.
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
    await dialog.getByRole('button', { name: 'Create benefit' }).click();
    await dialog.getByText('The bot cannot give the role "Moderator"').waitFor();
    expect(await benefits()).toEqual([]);

    // Moved back up, the same form saves it.
    fake.roles.set(GUILD, HIERARCHY);
    await dialog.getByRole('button', { name: 'Create benefit' }).click();
    await page.getByRole('table', { name: 'Benefits' }).getByRole('row').filter({ hasText: 'Moderators' }).waitFor();
    const [saved] = await benefits();
    expect(saved).toMatchObject({
      type: 'discord',
      description: 'Moderators',
      properties: { guild_id: GUILD, role_id: 'role-moderator' },
    });
    await screenshot(page, 'benefit-discord-saved');
  }, 240_000);

  it('creates a GitHub repository benefit from the repositories the token reaches, with a permission', async () => {
    await page.getByRole('button', { name: 'New benefit' }).click();
    const dialog = page.getByRole('dialog', { name: 'New benefit' });
    await choose(dialog, 'Benefit type', 'GitHub repository');
    await dialog.getByLabel('Description').fill('Source access');
    await choose(dialog, 'Repository', 'acme/private-repo (private)');
    await expect.poll(() => dialog.getByLabel('Repository owner').inputValue()).toBe('acme');
    expect(await dialog.getByLabel('Repository name').inputValue()).toBe('private-repo');
    await choose(dialog, 'Permission', 'Maintain');
    await expectNoSeriousA11yViolations(page, 'benefit-github');
    await screenshot(page, 'benefit-github');
    await dialog.getByRole('button', { name: 'Create benefit' }).click();
    await page.getByRole('table', { name: 'Benefits' }).getByRole('row').filter({ hasText: 'Source access' }).waitFor();
    const github = (await benefits()).find((b) => b.type === 'github_repository');
    expect(github?.properties).toMatchObject({
      repository_owner: 'acme',
      repository_name: 'private-repo',
      permission: 'maintain',
    });
  }, 120_000);

  it("shows the seller a Discord benefit's customers still waiting for access, with the reason", async () => {
    const organization = await server.runtime.database.db
      .selectFrom('organizations')
      .selectAll()
      .where('slug', '=', SLUG)
      .executeTakeFirstOrThrow();
    const token = await tokenFactory(server, organization.id, GRANTABLE_SCOPES);
    const benefit = await server.runtime.database.db
      .selectFrom('benefits')
      .select('id')
      .where('organization_id', '=', organization.id)
      .where('type', '=', 'discord')
      .executeTakeFirstOrThrow();
    const purchase = await purchaseFactory(server, { organization, token }, [benefit.id], {
      email: 'waiting@example.com',
    });
    await waitForGrant(server, purchase.customerId, benefit.id, (grant) => grant.error !== null);

    await page.getByRole('button', { name: 'Edit Moderators' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Moderators' });
    const waiting = dialog.getByRole('region', { name: 'Customers waiting for access (1)' });
    await waiting.waitFor();
    expect(await waiting.textContent()).toContain(
      'waiting@example.com: The customer needs to connect their Discord account',
    );
    await expectNoSeriousA11yViolations(page, 'benefit-discord-waiting');
    await screenshot(page, 'benefit-discord-waiting');
  }, 120_000);
});
