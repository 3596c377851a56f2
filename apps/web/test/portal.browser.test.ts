import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { purchaseFactory, storedPropertiesFor, waitForGrant } from '../../api/test/factories/benefit-grants.js';
import { benefitFactory } from '../../api/test/factories/benefits.js';
import { organizationFactory, type OrganizationFixture } from '../../api/test/factories/organizations.js';
import { productFactory } from '../../api/test/factories/products.js';
import { bearer, json, startTestServer, type TestServer } from '../../api/test/harness.js';
import {
  expectNoSeriousA11yViolations,
  definitions,
  hasChromium,
  launchBrowser,
  openPage,
  screenshot,
} from './browser.js';

/**
 * The customer portal in a real browser against the real server. A customer buys a monthly plan with a
 * license key and a note through a real checkout; the seller opens a customer session for them
 * (POST /v1/customer-sessions/), and the customer follows its `customer_portal_url`.
 */
const SLUG = 'acme-portal';
const NOTE = 'Welcome aboard';

describe.skipIf(!hasChromium)('customer portal in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let org: OrganizationFixture;
  let customerId: string;
  let otherSubscriptionId: string;
  let licenseKey: { key: string; display_key: string };

  async function api(method: 'POST' | 'GET' | 'PATCH', url: string, payload?: object) {
    const response = await server.inject({ method, url, headers: bearer(org.token), payload });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return json(response);
  }

  /** The portal link the seller hands out, relative to the test server. */
  async function portalLink(forCustomerId: string): Promise<string> {
    const session = await api('POST', '/v1/customer-sessions/', { customer_id: forCustomerId });
    const url = new URL(session.customer_portal_url);
    return `${url.pathname}${url.search}`;
  }

  async function seed() {
    org = await organizationFactory(server, { name: 'Acme Software', slug: SLUG });
    const organizationId = org.organization.id;
    const keys = await benefitFactory(server, organizationId, {
      type: 'license_keys',
      description: 'Desktop app license',
      properties: await storedPropertiesFor(server, organizationId, 'license_keys'),
    });
    const note = await benefitFactory(server, organizationId, {
      type: 'custom',
      description: 'Community invite',
      properties: { note: NOTE },
    });

    const purchase = await purchaseFactory(server, org, [keys.id, note.id], {
      recurring: true,
      email: 'ada@example.com',
    });
    customerId = purchase.customerId;
    await api('PATCH', `/v1/products/${purchase.productId}`, { name: 'Pro plan' });
    await productFactory(server, organizationId, { name: 'Team plan', recurring_interval: 'month' });
    for (const benefit of [keys, note])
      await waitForGrant(server, customerId, benefit.id, (grant) => grant.granted_at !== null);
    const keyList = await api('GET', `/v1/license-keys/?organization_id=${organizationId}`);
    licenseKey = keyList.items[0];

    const other = await purchaseFactory(server, org, [], { recurring: true, email: 'bob@example.com' });
    otherSubscriptionId = other.subscriptionId!;
  }

  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Customer portal' }).getByRole('link', { name, exact: true });

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      // Checkout, grants and session expiry run on the real time, as in production.
      startTestServer({ listen: true, clock: systemClock }),
      launchBrowser(),
    ]);
    await seed();
    ({ context, page } = await openPage(browser, server.url));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('opens from the customer portal link, keeps the session and takes the token out of the address', async () => {
    const link = await portalLink(customerId);
    expect(link).toMatch(new RegExp(`^/portal/${SLUG}\\?customer_session_token=polar_cst_`));
    await page.goto(link);
    await page.getByRole('heading', { name: 'Welcome, Buyer' }).waitFor();
    expect(page.url()).not.toContain('customer_session_token');
    expect(new URL(page.url()).pathname).toBe(`/portal/${SLUG}`);
    // Evaluated in the page (this file is typed for Node, without the DOM's globals).
    const kept = await page.evaluate(`sessionStorage.getItem('tessera.customer-portal.${SLUG}.session-token')`);
    expect(kept).toMatch(/^polar_cst_/);
    expect(link).toContain(kept);
    await expect(page.getByRole('banner').textContent()).resolves.toContain('Acme Software');
  });

  it('shows the active subscription and the recent order on the overview', async () => {
    const subscriptions = page.getByRole('table', { name: 'Active subscriptions' });
    expect(await subscriptions.getByRole('row').nth(1).textContent()).toMatch(/Pro plan\$10\.00 \/ monthActive/);
    const orders = page.getByRole('table', { name: 'Recent orders' });
    expect(await orders.getByRole('row').nth(1).textContent()).toMatch(/Pro plan.*Subscription started.*Paid\$10\.00/);
    await expectNoSeriousA11yViolations(page, 'portal-overview');
    await screenshot(page, 'portal-overview');
  });

  it('lists the orders and shows one with its items, amounts and billing address', async () => {
    await nav('Orders').click();
    await page.getByRole('heading', { name: 'Orders', exact: true }).waitFor();
    const table = page.getByRole('table', { name: 'Orders' });
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(await page.getByRole('navigation', { name: 'Pagination' }).textContent()).toContain('1 result');
    await table.getByRole('link', { name: 'Pro plan' }).click();
    await page.getByRole('heading', { name: 'Order of Pro plan' }).waitFor();
    const terms = await definitions(page);
    expect(terms).toMatchObject({
      Subtotal: '$10.00',
      Tax: '$0.00',
      Total: '$10.00',
      Status: 'Paid',
      Reason: 'Subscription started',
      Product: 'Pro plan',
      Subscription: '$10.00 / month',
      Name: 'Buyer',
    });
    expect(terms.Address).toContain('Paris');
    const items = page.getByRole('table', { name: 'Items' });
    expect(await items.getByRole('row').nth(1).textContent()).toContain('$10.00');
    await expectNoSeriousA11yViolations(page, 'portal-order');
    await screenshot(page, 'portal-order');
  });

  it('cancels the subscription at period end with a reason, then resumes it', async () => {
    await nav('Subscriptions').click();
    await page.getByRole('table', { name: 'Subscriptions' }).getByRole('link', { name: 'Pro plan' }).click();
    await page.getByRole('heading', { name: 'Pro plan' }).waitFor();
    await page.getByText(/^Renews on /).waitFor();
    const orders = page.getByRole('table', { name: 'Orders of this subscription' });
    expect(await orders.getByRole('row').nth(1).textContent()).toMatch(/Subscription started.*Paid/);

    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel your subscription' });
    await dialog.getByLabel('Why are you canceling?').click();
    await page.getByRole('option', { name: 'Too expensive' }).click();
    await dialog.getByLabel('Anything else to tell us?').fill('Budget cut for next quarter');
    await dialog.getByRole('button', { name: 'Cancel at period end' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('it will not renew').waitFor();
    const terms = await definitions(page);
    expect(terms).toMatchObject({ Reason: 'Too expensive', Comment: 'Budget cut for next quarter' });
    expect(terms.Status).toMatch(/^Ends /);
    await expect(page.getByRole('button', { name: 'Cancel subscription' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Change plan' }).count()).resolves.toBe(0);
    await expectNoSeriousA11yViolations(page, 'portal-subscription-canceled');
    await screenshot(page, 'portal-subscription-canceled');

    await page.getByRole('button', { name: 'Resume subscription' }).click();
    await page.getByText(/^Renews on /).waitFor();
    expect((await definitions(page)).Status).toBe('Active');
    await expect(page.getByRole('button', { name: 'Resume subscription' }).count()).resolves.toBe(0);
  });

  it('offers the organization’s other recurring plans', async () => {
    await page.getByRole('button', { name: 'Change plan' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change plan' });
    await dialog.getByRole('button', { name: 'Change plan' }).click();
    await dialog.getByText('Choose a plan.').waitFor();
    await dialog.getByLabel('New plan').click();
    await page.getByRole('option', { name: /^Team plan · \$10\.00 \/ month$/ }).waitFor();
    await expect(page.getByRole('option', { name: /^Pro plan/ }).count()).resolves.toBe(0);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('shows the license key with its limits, and the seller’s note', async () => {
    await nav('Benefits').click();
    await page.getByRole('heading', { name: 'License keys' }).waitFor();
    const keyCard = page.getByRole('region', { name: 'Desktop app license' });
    await keyCard.getByText(licenseKey.display_key, { exact: true }).waitFor();
    expect(await keyCard.textContent()).not.toContain(licenseKey.key);
    await keyCard.getByRole('button', { name: 'Show key' }).click();
    await keyCard.getByText(licenseKey.key, { exact: true }).waitFor();
    await keyCard.getByRole('button', { name: 'Copy key' }).waitFor();
    const terms = await definitions(page);
    expect(terms).toMatchObject({ Status: 'Active', Activations: '0 of 3', Usage: '0 of 10' });
    expect(terms.Expires).toMatch(/\d{4}/);
    await keyCard.getByText('This key is not activated on any device yet.').waitFor();

    await page.getByRole('heading', { name: 'Notes from the seller' }).waitFor();
    const noteCard = page.getByRole('region', { name: 'Community invite' });
    await noteCard.getByText(NOTE, { exact: true }).waitFor();
    await expectNoSeriousA11yViolations(page, 'portal-benefits');
    await screenshot(page, 'portal-benefits');
  });

  it('edits the profile, with the API’s complaints next to their fields', async () => {
    await nav('Profile').click();
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe('ada@example.com');
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Tax ID (optional)').fill('not a tax id');
    await page.getByRole('button', { name: 'Save profile' }).click();
    const taxId = page.getByLabel('Tax ID (optional)');
    await expect.poll(() => taxId.getAttribute('aria-invalid')).toBe('true');
    const described = await taxId.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described!.split(' ').pop()}"]`).textContent()).toBe('Invalid tax ID.');
    await expectNoSeriousA11yViolations(page, 'portal-profile-error');
    await screenshot(page, 'portal-profile-error');

    await taxId.fill('');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Your profile is saved').waitFor();
    await nav('Overview').click();
    await page.getByRole('heading', { name: 'Welcome, Ada Lovelace' }).waitFor();
  });

  it('does not show another customer’s subscription', async () => {
    await page.goto(`/portal/${SLUG}/subscriptions/${otherSubscriptionId}`);
    await page.getByRole('heading', { name: 'Subscription not found' }).waitFor();
    expect(await page.textContent('main')).not.toContain('bob@example.com');
    await expectNoSeriousA11yViolations(page, 'portal-not-found');
    await screenshot(page, 'portal-not-found');
  });

  it('signs out and forgets the session', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'You have signed out' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'This link has expired' }).waitFor();
    await expect(page.getByRole('navigation', { name: 'Customer portal' }).count()).resolves.toBe(0);
  });

  it('says the link has expired for an unknown or expired token', async () => {
    const fresh = await context.browser()!.newContext({ baseURL: server.url });
    const other = await fresh.newPage();
    await other.goto(`/portal/${SLUG}?customer_session_token=polar_cst_not_a_real_token`);
    await other.getByRole('heading', { name: 'This link has expired' }).waitFor();
    expect(await other.textContent('main')).toContain('Ask Acme Software for a new link');
    expect(other.url()).not.toContain('customer_session_token');

    const link = await portalLink(customerId);
    await server.runtime.database.db
      .updateTable('customer_sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    await other.goto(link);
    await other.getByRole('heading', { name: 'This link has expired' }).waitFor();
    await screenshot(other, 'portal-expired');
    await fresh.close();
  });

  it('sends the older /{slug}/portal address to the portal, session included', async () => {
    const link = await portalLink(customerId);
    await page.goto(link.replace(`/portal/${SLUG}`, `/${SLUG}/portal`));
    await page.getByRole('heading', { name: 'Welcome, Ada Lovelace' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/portal/${SLUG}`);
    expect(page.url()).not.toContain('customer_session_token');
  });

  it('changes to another plan (last: the benefits of the old plan go with it)', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await nav('Subscriptions').click();
    await page.getByRole('table', { name: 'Subscriptions' }).getByRole('link', { name: 'Pro plan' }).click();
    await page.getByRole('heading', { name: 'Pro plan' }).waitFor();
    await page.getByRole('button', { name: 'Change plan' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change plan' });
    await dialog.getByLabel('New plan').click();
    await page.getByRole('option', { name: /^Team plan/ }).click();
    await dialog.getByRole('button', { name: 'Change plan' }).click();
    await page.getByText('You are now on Team plan').waitFor();
    await page.getByRole('heading', { name: 'Team plan' }).waitFor();
    const subscription = await server.runtime.database.db
      .selectFrom('subscriptions')
      .innerJoin('products', 'products.id', 'subscriptions.product_id')
      .select('products.name')
      .where('subscriptions.customer_id', '=', customerId)
      .executeTakeFirstOrThrow();
    expect(subscription.name).toBe('Team plan');
  });

  it('fits a phone screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await nav('Subscriptions').click();
    await page.getByRole('table', { name: 'Subscriptions' }).waitFor();
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoSeriousA11yViolations(page, 'portal-phone');
    await screenshot(page, 'portal-phone');
  });
});
