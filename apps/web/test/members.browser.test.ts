import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { startTestServer, type TestServer } from '../../api/test/harness.js';
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
 * Teams in a real browser: the owner invites a teammate from the Members page, the teammate opens the
 * link of the email (read from the local outbox), creates their account and joins; the owner removes
 * them and their open dashboard loses the organization on its next request.
 */
const SLOW = { timeout: 20_000 };

describe.skipIf(!hasChromium)('members in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let owner: Page;
  let teammate: Page;
  const suffix = Date.now().toString(36);
  const teammateEmail = `teammate-${suffix}@example.com`;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      // The browser expires the session cookie by the real time, so the server runs on it too.
      startTestServer({ listen: true, clock: systemClock }),
      launchBrowser(),
    ]);
    ({ page: owner } = await openPage(browser, server.url, 20_000));
    ({ page: teammate } = await openPage(browser, server.url, 20_000));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The path of the accept link in the last invitation emailed to this address (the local outbox). */
  async function invitationPath(email: string): Promise<string> {
    const rows = await server.runtime.database.db
      .selectFrom('emails')
      .select(['text_body', 'to_addresses'])
      .where('template', '=', 'organization_invite')
      .orderBy('created_at', 'desc')
      .execute();
    const sent = rows.find((row) => row.to_addresses.includes(email));
    if (!sent) throw new Error(`no invitation emailed to ${email}`);
    return new URL(/https?:\/\/\S+\/invite\/\S+/.exec(sent.text_body)![0]).pathname;
  }

  it('the owner invites a teammate from the Members page', async () => {
    await signUp(owner, `owner-${suffix}@example.com`, 'correct horse battery staple', 'Team Co');
    await dashboardLink(owner, 'Members').click();
    await owner.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    const members = owner.getByRole('table', { name: 'Members' });
    await members.getByText(`owner-${suffix}@example.com (you)`).waitFor();
    await members.getByText('Owner', { exact: true }).waitFor();

    await owner.getByLabel('Email address').fill(teammateEmail);
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    const invites = owner.getByRole('table', { name: 'Pending invitations' });
    await invites.getByText(teammateEmail).waitFor(SLOW);
    await invites.getByText('Pending').waitFor();
    await screenshot(owner, 'members');
    await expectNoSeriousA11yViolations(owner, 'members page');
  });

  it('inviting a member again is refused in words next to the field', async () => {
    await owner.getByLabel('Email address').fill(`owner-${suffix}@example.com`);
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText('This person is already a member of the organization.').waitFor(SLOW);
    await owner.getByLabel('Email address').fill('');
  });

  it('the teammate opens the emailed link, creates an account and joins', async () => {
    const path = await invitationPath(teammateEmail);
    await teammate.goto(path);
    await teammate.getByRole('heading', { name: 'Join Team Co' }).waitFor(SLOW);
    await expectNoSeriousA11yViolations(teammate, 'invitation page, signed out');
    await teammate.getByRole('link', { name: 'Create an account' }).click();
    await teammate.getByRole('heading', { name: 'Create your account' }).waitFor(SLOW);
    await teammate.getByLabel('Email').fill(teammateEmail);
    await teammate.getByLabel('Password').fill('another horse battery staple');
    await teammate.getByRole('button', { name: 'Create account' }).click();

    // Back on the invitation, signed in now.
    await teammate.getByText(`Signed in as ${teammateEmail}.`).waitFor(SLOW);
    await screenshot(teammate, 'invitation');
    await expectNoSeriousA11yViolations(teammate, 'invitation page, signed in');
    await teammate.getByRole('button', { name: 'Accept the invitation' }).click();
    await dashboardLink(teammate, 'Products').waitFor(SLOW);
    expect(new URL(teammate.url()).pathname).toMatch(/^\/dashboard\/team-co/);
    await dashboardLink(teammate, 'Members').click();
    const members = teammate.getByRole('table', { name: 'Members' });
    await members.getByText(`owner-${suffix}@example.com`).waitFor(SLOW);
    await members.getByText(`${teammateEmail} (you)`).waitFor();

    // The link worked once.
    const again = await teammate.context().newPage();
    await again.goto(path);
    await again.getByText('This invitation was already used.').waitFor(SLOW);
    await again.close();
  });

  it('the owner makes the teammate an owner and back; the last owner cannot step down', async () => {
    await owner.reload();
    const teammateRole = owner.getByRole('combobox', { name: `Role of ${teammateEmail}` });
    await teammateRole.click();
    await owner.getByRole('option', { name: 'Owner' }).click();
    await owner.getByText(`${teammateEmail} is now owner`).waitFor(SLOW);
    // As an owner, the teammate now gets the role pickers too.
    await teammate.reload();
    await teammate.getByRole('combobox', { name: `Role of owner-${suffix}@example.com` }).waitFor(SLOW);
    await screenshot(owner, 'members-roles');
    await expectNoSeriousA11yViolations(owner, 'members page with role pickers');

    await teammateRole.click();
    await owner.getByRole('option', { name: 'Member' }).click();
    await owner.getByText(`${teammateEmail} is now member`).waitFor(SLOW);
    await teammate.reload();
    await teammate.getByRole('table', { name: 'Members' }).getByText(`owner-${suffix}@example.com`).waitFor(SLOW);
    await expect(teammate.getByRole('combobox', { name: /^Role of / }).count()).resolves.toBe(0);

    // The owner is the last one: stepping down is refused in words, and the role stays.
    await owner.getByRole('combobox', { name: `Role of owner-${suffix}@example.com` }).click();
    await owner.getByRole('option', { name: 'Member' }).click();
    await owner
      .getByText('The last owner of an organization cannot be demoted: make another member owner first.')
      .waitFor(SLOW);
    await owner.reload();
    await owner
      .getByRole('combobox', { name: `Role of owner-${suffix}@example.com` })
      .getByText('Owner')
      .waitFor(SLOW);
  });

  it('the owner removes the teammate, whose open dashboard loses the organization at once', async () => {
    await owner.reload();
    const row = owner.getByRole('row').filter({ hasText: teammateEmail });
    await row.getByText('Member', { exact: true }).waitFor(SLOW);
    await row.getByRole('button', { name: `Remove ${teammateEmail}` }).click();
    await owner.getByRole('dialog').getByRole('button', { name: 'Remove member' }).click();
    await owner.getByText(`${teammateEmail} removed`).waitFor(SLOW);
    await expect(owner.getByRole('row').filter({ hasText: teammateEmail }).count()).resolves.toBe(0);

    // The teammate's next request is refused; the dashboard says they are no longer a member.
    await dashboardLink(teammate, 'Customers').click();
    await teammate.getByRole('heading', { name: 'Organization not found' }).waitFor(SLOW);
    await screenshot(teammate, 'member-removed');
    await teammate.reload();
    await teammate.getByRole('heading', { name: 'Organization not found' }).waitFor(SLOW);
  });

  it('the last member cannot leave', async () => {
    await owner.getByRole('button', { name: 'Leave organization' }).click();
    await owner.getByRole('dialog').getByRole('button', { name: 'Leave organization' }).click();
    await owner.getByText('The last member of an organization cannot leave or be removed.').waitFor(SLOW);
  });
});
