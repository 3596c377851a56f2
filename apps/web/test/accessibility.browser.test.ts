import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { userFactory, type UserFixture } from '../../api/test/factories/users.js';
import { bearer, startTestServer, type TestServer } from '../../api/test/harness.js';
import {
  dashboardLink,
  expectNoSeriousA11yViolations,
  hasChromium,
  launchBrowser,
  openPage,
  screenshot,
} from './browser.js';
import { apiJson, purchase } from './purchases.js';

/**
 * The page states an accessibility review found wanting, checked with axe (no serious or critical
 * finding), and the checkout and the portal on a phone (390 × 844): what stays in sight, what says it
 * scrolls. Phone screenshots go to test/artifacts/mobile/.
 */
const SLUG = 'acme-a11y';
const ADA = 'ada@example.com';
const PHONE = { width: 390, height: 844 };

describe.skipIf(!hasChromium)('accessibility and phone screens in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let phone: Page;
  let seller: UserFixture;
  let token: string;
  let organizationId: string;
  let proId: string;
  let adaId: string;

  const api = (method: 'POST' | 'GET', url: string, headers: Record<string, string>, payload?: object) =>
    apiJson(server, method, url, headers, payload);

  async function buy(productId: string, email: string) {
    expect(await purchase(server, token, productId, { email, name: 'Ada Lovelace' })).toBe(200);
  }

  async function checkoutPath(productId: string): Promise<string> {
    const checkout = await api('POST', '/v1/checkouts/', bearer(token), { products: [productId] });
    return `/checkout/${checkout.client_secret}`;
  }

  async function portalPath(): Promise<string> {
    const session = await api('POST', '/v1/customer-sessions/', bearer(token), { customer_id: adaId });
    const url = new URL(session.customer_portal_url);
    return `${url.pathname}${url.search}`;
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      // The browser expires the session cookie by the real time, so the server runs on it too.
      startTestServer({ listen: true, clock: systemClock }),
      launchBrowser(),
    ]);
    seller = await userFactory(server, { email: 'seller@example.com' });
    const organization = await api('POST', '/v1/organizations/', seller.headers, { name: 'Acme A11y', slug: SLUG });
    organizationId = organization.id;
    await api('POST', '/v1/organizations/', seller.headers, { name: 'Second Shop', slug: 'second-shop' });
    ({ token } = await api('POST', '/v1/organization-access-tokens/', seller.headers, {
      organization_id: organizationId,
      comment: 'shop backend',
      scopes: [
        'products:read',
        'products:write',
        'checkouts:read',
        'checkouts:write',
        'customer_sessions:write',
        'customers:read',
      ],
    }));
    const product = (name: string, amount: number, interval: 'month' | null) =>
      api('POST', '/v1/products/', bearer(token), {
        name,
        recurring_interval: interval,
        prices: [{ amount_type: 'fixed', price_amount: amount, price_currency: 'usd' }],
      });
    proId = (await product('Pro plan with a rather long name', 2500, 'month')).id;
    const ebook = await product('Field guide', 1500, null);
    await buy(proId, ADA);
    await buy(ebook.id, ADA);
    const customers = await api('GET', `/v1/customers/?organization_id=${organizationId}`, bearer(token));
    adaId = customers.items[0].id;
    ({ page } = await openPage(browser, server.url));
    phone = await (await browser.newContext({ baseURL: server.url, viewport: PHONE })).newPage();
    phone.setDefaultTimeout(10_000);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  describe('dashboard', () => {
    it('signs in and has no serious finding on the products page', async () => {
      await page.goto('/login');
      await page.getByLabel('Email').fill(seller.email);
      await page.getByLabel('Password').fill(seller.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname !== '/login');
      await page.goto(`/dashboard/${SLUG}/products`);
      await page.getByRole('table', { name: 'Products' }).waitFor();
      await expectNoSeriousA11yViolations(page, 'products');
    });

    it('opens the organization switcher without hiding focusable content from screen readers', async () => {
      await page.getByRole('button', { name: /Switch organization/ }).click();
      await page.getByRole('menuitem', { name: 'Second Shop' }).waitFor();
      // A modal menu put aria-hidden on the page around it while its links stayed focusable.
      expect(await page.locator('[aria-hidden="true"] a, [aria-hidden="true"] button').count()).toBe(0);
      await expectNoSeriousA11yViolations(page, 'organization switcher open');
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('menu').count()).toBe(0);
    });

    it('names the test clock buttons by what they show, in a labelled group', async () => {
      await dashboardLink(page, 'Settings').click();
      const group = page.getByRole('group', { name: 'Move the clock forward' });
      await group.waitFor();
      const names = await group
        .getByRole('button')
        .evaluateAll((buttons) => buttons.map((button) => (button as unknown as { textContent: string }).textContent));
      expect(names).toEqual(['+1 day', '+1 week', '+31 days', '+1 year']);
      await expect(group.getByRole('button', { name: '+1 week', exact: true }).isVisible()).resolves.toBe(true);
      await expectNoSeriousA11yViolations(page, 'settings with the test clock');
    });

    it('gives each list of the customer page its own pager landmark', async () => {
      await page.goto(`/dashboard/${SLUG}/customers/${adaId}`);
      await page.getByRole('table', { name: 'Orders' }).waitFor();
      await page.getByRole('table', { name: 'Subscriptions' }).waitFor();
      const pagers = await page
        .getByRole('navigation')
        .evaluateAll((navs) =>
          navs.map((nav) =>
            (nav as unknown as { getAttribute(name: string): string | null }).getAttribute('aria-label'),
          ),
        );
      expect(pagers).toContain('Orders pagination');
      expect(pagers).toContain('Subscriptions pagination');
      expect(new Set(pagers).size).toBe(pagers.length);
      await expectNoSeriousA11yViolations(page, 'customer');
    });

    it('lists orders and subscriptions with no serious finding', async () => {
      await page.goto(`/dashboard/${SLUG}/orders`);
      await page.getByRole('table', { name: 'Orders' }).waitFor();
      await expectNoSeriousA11yViolations(page, 'orders');
      await page.goto(`/dashboard/${SLUG}/subscriptions`);
      await page.getByRole('table', { name: 'Subscriptions' }).waitFor();
      await expectNoSeriousA11yViolations(page, 'subscriptions');
    });

    it('says "Page not found" as the page heading at an unknown address', async () => {
      await page.goto(`/dashboard/${SLUG}/no/such/page`);
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      await expectNoSeriousA11yViolations(page, 'not found');
    });
  });

  describe('checkout and portal on a wide screen', () => {
    it('has no serious finding on the checkout form', async () => {
      await page.goto(await checkoutPath(proId));
      await page.getByRole('heading', { name: 'Pro plan with a rather long name' }).waitFor();
      // Side by side with the form: the summary is open and the phone's total bar is not shown.
      await page.getByRole('heading', { name: 'Order summary' }).waitFor();
      await expect(page.getByRole('group', { name: 'Order total' }).isVisible()).resolves.toBe(false);
      await expectNoSeriousA11yViolations(page, 'checkout');
    });

    it('has no serious finding on the portal overview and orders', async () => {
      await page.goto(await portalPath());
      await page.getByRole('heading', { name: /Welcome/ }).waitFor();
      await expectNoSeriousA11yViolations(page, 'portal overview');
      await page.getByRole('navigation', { name: 'Customer portal' }).getByRole('link', { name: 'Orders' }).click();
      const table = page.getByRole('table', { name: 'Orders' });
      await table.waitFor();
      // Wide enough: the table does not scroll, so it says nothing about scrolling.
      await expect(page.getByText(/scroll sideways/).count()).resolves.toBe(0);
      await expectNoSeriousA11yViolations(page, 'portal orders');
    });
  });

  describe('on a phone (390 × 844)', () => {
    it('folds the checkout summary behind its total, and keeps the total in sight while the buyer scrolls', async () => {
      await phone.goto(await checkoutPath(proId));
      await phone.getByRole('heading', { name: 'Pro plan with a rather long name' }).waitFor();
      // Named "Show order summary", then "Hide order summary".
      const toggle = phone.getByRole('button', { name: /order summary/ });
      expect(await toggle.textContent()).toContain('Show order summary');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await toggle.textContent()).toContain('$25.00 / month');
      await expect(phone.getByText('Subtotal').isVisible()).resolves.toBe(false);

      const bar = phone.getByRole('group', { name: 'Order total' });
      expect(await bar.textContent()).toContain('$25.00 / month');
      // Sticky at the bottom of the screen, at the top of the form as well as half-way down it.
      const barBottom = async () => {
        const box = (await bar.boundingBox())!;
        return Math.round(box.y + box.height);
      };
      expect(await barBottom()).toBe(PHONE.height);
      await phone.getByLabel('Email').scrollIntoViewIfNeeded();
      expect(await barBottom()).toBe(PHONE.height);
      await expectNoSeriousA11yViolations(phone, 'checkout on a phone');
      await screenshot(phone, 'mobile/checkout');

      await bar.getByRole('button', { name: 'View details' }).click();
      await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
      await expect(phone.getByText('Subtotal').isVisible()).resolves.toBe(true);
      await expect.poll(() => phone.getByText('Subtotal').isVisible()).toBe(true);
      await expectNoSeriousA11yViolations(phone, 'checkout on a phone, summary open');
      await screenshot(phone, 'mobile/checkout-summary-open');
    });

    it('shows every portal section in the tab bar', async () => {
      await phone.goto(await portalPath());
      await phone.getByRole('heading', { name: /Welcome/ }).waitFor();
      const profile = phone.getByRole('navigation', { name: 'Customer portal' }).getByRole('link', { name: 'Profile' });
      const box = (await profile.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      expect(await phone.evaluate('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);
      await expectNoSeriousA11yViolations(phone, 'portal overview on a phone');
      await screenshot(phone, 'mobile/portal-overview');
    });

    it('says a table scrolls sideways while its total is out of sight, and lets the keyboard scroll it', async () => {
      await phone.getByRole('navigation', { name: 'Customer portal' }).getByRole('link', { name: 'Orders' }).click();
      const region = phone.getByRole('region', { name: 'Orders, scrolls sideways' });
      await region.waitFor();
      expect(await region.getAttribute('tabindex')).toBe('0');
      await phone.getByText('More columns to the right: scroll sideways.').waitFor();
      // The shade and the line come from one measurement, taken again as the rows arrive and lay out.
      await expect.poll(() => phone.getByTestId('more-columns-shade').isVisible()).toBe(true);
      await expectNoSeriousA11yViolations(phone, 'portal orders on a phone');
      await screenshot(phone, 'mobile/portal-orders');

      await region.focus();
      for (let step = 0; step < 40; step += 1) await phone.keyboard.press('ArrowRight');
      await phone.getByText('Scroll sideways to see every column.').waitFor();
      await expect.poll(() => phone.getByTestId('more-columns-shade').count()).toBe(0);
      const total = phone.getByRole('table', { name: 'Orders' }).getByText('$15.00').first();
      const box = (await total.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    });
  });
});
