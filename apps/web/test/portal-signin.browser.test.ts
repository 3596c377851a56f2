import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { purchaseFactory } from '../../api/test/factories/benefit-grants.js';
import { organizationFactory, type OrganizationFixture } from '../../api/test/factories/organizations.js';
import { bearer, json, startTestServer, type TestServer } from '../../api/test/harness.js';
import { dashboardLink, hasChromium, launchBrowser, openPage, screenshot, signUp } from './browser.js';

/**
 * Email-code sign-in to the customer portal in a real browser: a customer with no link opens
 * `/portal/{slug}`, asks for a code by email, reads it (here from the outbox, through the API) and is
 * in; an expired link offers the same. The seller's side: the customer email toggles and the
 * development outbox on the settings page.
 */
const SLUG = 'acme-signin';
const BUYER = 'grace@example.com';

describe.skipIf(!hasChromium)('portal email-code sign-in in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let org: OrganizationFixture;

  /** The latest sign-in code sent to `to`, read from the organization's outbox. */
  async function latestCode(to: string): Promise<string> {
    const answer = await server.inject({
      method: 'GET',
      url: `/v1/emails/?organization_id=${org.organization.id}&limit=100`,
      headers: bearer(org.token),
    });
    const email = json(answer).items.find(
      (item: { template: string; to: string[] }) => item.template === 'portal_sign_in_code' && item.to.includes(to),
    );
    return /is:\s+([A-Z0-9]{6})/.exec(email.text_body)![1]!;
  }

  async function requestCode(email: string) {
    await page.getByRole('heading', { name: 'Sign in with your email' }).waitFor();
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByText(/a code is on its way/).waitFor();
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ listen: true, clock: systemClock }), launchBrowser()]);
    org = await organizationFactory(server, { name: 'Acme Signin', slug: SLUG });
    await purchaseFactory(server, org, [], { email: BUYER });
    ({ page } = await openPage(browser, server.url));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signs a customer in with the code emailed to them, from /portal/{slug} without a link', async () => {
    await page.goto(`/portal/${SLUG}`);
    await requestCode(BUYER);
    // A wrong code is refused with a clear message, and the form stays.
    await page.getByLabel('Sign-in code').fill('ZZZZZZ');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('This code is invalid or has expired.').waitFor();

    const code = await latestCode(BUYER);
    await page.getByLabel('Sign-in code').fill(code.toLowerCase());
    await screenshot(page, 'portal-signin-code');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Welcome, Buyer' }).waitFor();
    expect(page.url()).not.toContain('customer_session_token');
    // The code works once.
    const again = await server.inject({
      method: 'POST',
      url: '/v1/customer-portal/customer-session/authenticate',
      payload: { code },
    });
    expect(again.statusCode).toBe(401);
  });

  it('an expired link offers the email-code sign-in', async () => {
    const { page: fresh, context } = await openPage(browser, server.url);
    try {
      await fresh.goto(`/portal/${SLUG}?customer_session_token=polar_cst_ThisOneHasExpiredLongAgo0123456789ab`);
      await fresh.getByRole('heading', { name: 'This link has expired' }).waitFor();
      page = fresh;
      await requestCode(BUYER);
      await fresh.getByLabel('Sign-in code').fill(await latestCode(BUYER));
      await fresh.getByRole('button', { name: 'Sign in', exact: true }).click();
      await fresh.getByRole('heading', { name: 'Welcome, Buyer' }).waitFor();
      await screenshot(fresh, 'portal-signin-after-expired');
    } finally {
      await context.close();
    }
  });

  it('the seller turns a customer email off in settings and reads the outbox', async () => {
    const { page: seller, context } = await openPage(browser, server.url);
    try {
      await signUp(seller, 'owner@acme-signin.example', 'correct horse battery staple', 'Acme Outbox');
      await dashboardLink(seller, 'Settings').click();
      await seller.getByRole('heading', { name: 'Customer emails' }).waitFor();
      const receipt = seller.getByLabel('Receipt of a purchase, with the link to its invoice');
      expect(await receipt.isChecked()).toBe(true);
      await receipt.uncheck();
      await seller.getByRole('button', { name: 'Save settings' }).click();
      await seller.getByText('Organization settings saved').waitFor();
      const organizations = await server.runtime.database.db
        .selectFrom('organizations')
        .select(['customer_email_settings'])
        .where('name', '=', 'Acme Outbox')
        .executeTakeFirstOrThrow();
      expect(organizations.customer_email_settings).toMatchObject({ order_confirmation: false });
      // Development only: the outbox card (empty for this new organization).
      await seller.getByRole('heading', { name: 'Emails outbox' }).waitFor();
      await seller.getByText('No emails yet.').waitFor();
      await screenshot(seller, 'settings-customer-emails');
    } finally {
      await context.close();
    }
  });
});
