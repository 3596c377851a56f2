import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { purchaseFactory, type Purchase } from '../../api/test/factories/benefit-grants.js';
import { GRANTABLE_SCOPES } from '../../api/src/platform/auth/scopes.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from '../../api/test/factories/organizations.js';
import { bearer, json, startTestServer, type TestServer } from '../../api/test/harness.js';
import { hasChromium, launchBrowser, openPage, screenshot, signUp } from './browser.js';

/**
 * The portal session survives tabs: a page of the portal opened in a new tab (Ctrl-click "All orders")
 * restores the session from the API's HttpOnly keeper cookie instead of saying the link expired; signing
 * out forgets it for new tabs too. The seller makes a portal link from the customer page; the seller's
 * order page of a subscription order names the subscription.
 */
const SLUG = 'acme-tabs';

describe.skipIf(!hasChromium)('the portal session across tabs', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let org: OrganizationFixture;
  let purchase: Purchase;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ listen: true, clock: systemClock }), launchBrowser()]);
    org = await organizationFactory(server, { name: 'Acme Tabs', slug: SLUG });
    purchase = await purchaseFactory(server, org, []);
    ({ context, page } = await openPage(browser, server.url));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('Ctrl-click "All orders" opens a new tab that stays signed in', async () => {
    const session = await server.inject({
      method: 'POST',
      url: '/v1/customer-sessions/',
      headers: bearer(org.token),
      payload: { customer_id: purchase.customerId },
    });
    const url = new URL(json(session).customer_portal_url);
    await page.goto(`${url.pathname}${url.search}`);
    await page.getByRole('heading', { name: 'Welcome, Buyer' }).waitFor();

    const cookies = await context.cookies();
    const kept = cookies.find((cookie) => cookie.name.startsWith('tessera_portal_'));
    expect(kept).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/v1/customer-portal/customer-session/' });

    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('link', { name: 'All orders' }).click({ modifiers: ['ControlOrMeta'] }),
    ]);
    await tab.getByRole('heading', { name: 'Orders' }).waitFor();
    expect(new URL(tab.url()).pathname).toBe(`/portal/${SLUG}/orders`);
    expect(await tab.getByText('This link has expired').count()).toBe(0);
    await screenshot(tab, 'portal-new-tab-signed-in');

    // Signing out in one tab forgets the kept session: a further new tab asks to sign in.
    await tab.getByRole('button', { name: 'Sign out' }).click();
    const later = await context.newPage();
    await later.goto(`/portal/${SLUG}/orders`);
    await later.getByRole('heading', { name: 'Sign in with your email' }).waitFor();
    await later.close();
    await tab.close();
  });
  it('the seller makes a portal link from the customer page; a subscription order names its subscription', async () => {
    const seller = await openPage(browser, server.url, 30_000);
    try {
      await signUp(seller.page, 'seller-tabs@example.com', 'correct horse battery staple', 'Seller Tabs');
      const organization = await server.runtime.database.db
        .selectFrom('organizations')
        .selectAll()
        .where('name', '=', 'Seller Tabs')
        .executeTakeFirstOrThrow();
      const own = { organization, token: await tokenFactory(server, organization.id, GRANTABLE_SCOPES) };
      const bought = await purchaseFactory(server, own, [], { recurring: true, email: 'ada@example.com' });

      await seller.page.goto(`/dashboard/${organization.slug}/orders/${bought.orderId}`);
      await seller.page.getByRole('heading', { name: /^Order of / }).waitFor();
      await seller.page.getByRole('link', { name: /\/ month/ }).waitFor();
      expect(await seller.page.getByText('One-time purchase').count()).toBe(0);

      await seller.page.goto(`/dashboard/${organization.slug}/customers/${bought.customerId}`);
      await seller.page.getByRole('button', { name: 'Make a portal link' }).click();
      const email = seller.page.getByRole('link', { name: 'Email the link' });
      await email.waitFor();
      const mailto = (await email.getAttribute('href'))!;
      expect(mailto).toMatch(/^mailto:ada%40example\.com\?subject=/);
      const link = decodeURIComponent(/customer_session_token%3D(polar_cst_[A-Za-z0-9_-]+)/.exec(mailto)?.[0] ?? '');
      expect(link).toMatch(/^customer_session_token=polar_cst_/);
      await seller.page.getByRole('button', { name: 'Copy link' }).waitFor();
      await screenshot(seller.page, 'dashboard-customer-portal-link');

      const buyer = await openPage(browser, server.url);
      await buyer.page.goto(`/portal/${organization.slug}?${link}`);
      await buyer.page.getByRole('heading', { name: /^Welcome/ }).waitFor();
      await buyer.context.close();
    } finally {
      await seller.context.close();
    }
  });
});
