import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { purchaseFactory, storedPropertiesFor, waitForGrant } from '../../api/test/factories/benefit-grants.js';
import { benefitFactory } from '../../api/test/factories/benefits.js';
import type { OrganizationFixture } from '../../api/test/factories/organizations.js';
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
 * What sellers expect of the dashboard: the global search palette (keyboard only), dark mode (axe on a
 * set of pages in it), checkout and portal branding set in settings with a preview and followed by the
 * hosted checkout and the portal (phone screenshots in test/artifacts/mobile/), and bulk actions on
 * products.
 */
const SLUG = 'acme-tools';
const PHONE = { width: 390, height: 844 };

describe.skipIf(!hasChromium)('seller tools in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let seller: UserFixture;
  let token: string;
  let organizationId: string;
  let proId: string;
  let adaId: string;

  const api = (method: 'POST' | 'GET' | 'PATCH', url: string, headers: Record<string, string>, payload?: object) =>
    apiJson(server, method, url, headers, payload);

  const product = async (name: string, amount: number, interval: 'month' | null) =>
    (
      await api('POST', '/v1/products/', bearer(token), {
        name,
        recurring_interval: interval,
        prices: [{ amount_type: 'fixed', price_amount: amount, price_currency: 'usd' }],
      })
    ).id as string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ listen: true, clock: systemClock }), launchBrowser()]);
    seller = await userFactory(server, { email: 'tools-seller@example.com' });
    const organization = await api('POST', '/v1/organizations/', seller.headers, { name: 'Acme Tools', slug: SLUG });
    organizationId = organization.id;
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
    proId = await product('Pro plan', 2500, 'month');
    expect(await purchase(server, token, proId, { email: 'ada.lovelace@example.com', name: 'Ada Lovelace' })).toBe(200);
    const customers = await api('GET', `/v1/customers/?organization_id=${organizationId}`, bearer(token));
    adaId = customers.items[0].id;
    ({ page } = await openPage(browser, server.url, 20_000));
    await page.goto('/login');
    await page.getByLabel('Email').fill(seller.email);
    await page.getByLabel('Password').fill(seller.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('finds a customer with Ctrl+K and the keyboard alone, and opens their page', async () => {
    await page.goto(`/dashboard/${SLUG}/products`);
    await page.getByRole('table', { name: 'Products' }).waitFor();
    await page.keyboard.press('Control+k');
    const input = page.getByRole('combobox', { name: /Search customers/ });
    await input.waitFor();
    await expect.poll(() => input.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
    await page.keyboard.type('ada.love');
    const listbox = page.getByRole('listbox', { name: 'Results' });
    await listbox.getByRole('option', { name: /Ada Lovelace/ }).waitFor();
    // The customer first, then the order of the customer found; the highlight is on the first.
    await listbox.getByRole('option', { name: /Order$/ }).waitFor();
    expect(await listbox.getByRole('option').first().getAttribute('aria-selected')).toBe('true');
    expect(await input.getAttribute('aria-activedescendant')).toBe(
      await listbox.getByRole('option').first().getAttribute('id'),
    );
    await expectNoSeriousA11yViolations(page, 'search palette');
    // Down to the order, up (wrapping) to the customer again, then Enter.
    await page.keyboard.press('ArrowDown');
    expect(await listbox.getByRole('option').nth(1).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowUp');
    // Tab stays in the dialog.
    await page.keyboard.press('Tab');
    expect(
      await page.getByRole('dialog').evaluate((dialog) => dialog.contains(dialog.ownerDocument.activeElement)),
    ).toBe(true);
    await input.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/dashboard/${SLUG}/customers/${adaId}`);
    expect(await page.getByRole('dialog').count()).toBe(0);

    // Escape closes it and gives focus back.
    await page.keyboard.press('Control+k');
    await input.waitFor();
    await page.keyboard.type('nothing-like-this');
    await page.getByText('Nothing matches “nothing-like-this”.').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  }, 120_000);

  it('switches to dark mode, keeps it across a reload, and reads at AA on a set of pages', async () => {
    // The sidebar's control (the branding settings have their own light and dark).
    const themeRadio = (name: string) => page.getByRole('complementary').getByRole('radio', { name });
    await page.goto(`/dashboard/${SLUG}/products`);
    await themeRadio('Dark').check();
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.reload();
    await page.getByRole('table', { name: 'Products' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('tessera.theme'))).toBe('dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe('rgb(248, 250, 252)');
    await expectNoSeriousA11yViolations(page, 'products, dark');
    await screenshot(page, 'dark/products');
    for (const [path, ready] of [
      ['orders', () => page.getByRole('table', { name: 'Orders' }).waitFor()],
      [`customers/${adaId}`, () => page.getByRole('table', { name: 'Orders' }).waitFor()],
      ['subscriptions', () => page.getByRole('table', { name: 'Subscriptions' }).waitFor()],
      ['settings', () => page.getByRole('heading', { name: 'Checkout and portal branding' }).waitFor()],
    ] as const) {
      await page.goto(`/dashboard/${SLUG}/${path}`);
      await ready();
      await expectNoSeriousA11yViolations(page, `${path}, dark`);
      await screenshot(page, `dark/${path.replace('/', '-')}`);
    }
    // System follows the browser's preference.
    await page.emulateMedia({ colorScheme: 'light' });
    await themeRadio('System').check();
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await themeRadio('Light').check();
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
  }, 120_000);

  it('sets the checkout branding with a live preview; the checkout and the portal follow it, also on a phone', async () => {
    await page.goto(`/dashboard/${SLUG}/settings`);
    const preview = page.getByTestId('branding-preview');
    await preview.waitFor();
    await page.getByLabel('Brand colour', { exact: true }).fill('#8b5cf6');
    await page.getByRole('radio', { name: 'Dark', exact: true }).last().check();
    // The preview follows before anything is saved, and says the colour was shaded for legibility.
    await expect.poll(() => preview.evaluate((element) => element.classList.contains('dark'))).toBe(true);
    await page.getByText(/shaded where its text would be hard to read/).waitFor();
    await expectNoSeriousA11yViolations(page, 'branding preview');
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('Branding saved.').waitFor();
    const saved = await api('GET', `/v1/organizations/${organizationId}`, seller.headers);
    expect(saved.branding_settings).toMatchObject({ brand_color: '#8b5cf6', theme: 'dark' });

    const checkout = await api('POST', '/v1/checkouts/', bearer(token), { products: [proId] });
    const phone = await (await browser.newContext({ baseURL: server.url, viewport: PHONE })).newPage();
    phone.setDefaultTimeout(20_000);
    for (const target of [page, phone]) {
      await target.goto(`/checkout/${checkout.client_secret}`);
      await target.getByRole('heading', { name: 'Pro plan' }).first().waitFor();
      expect(await target.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      const pay = target.getByRole('button', { name: 'Subscribe' });
      const fill = await pay.evaluate((button) => getComputedStyle(button).backgroundColor);
      // The violet reads at under 4.5:1 with either text colour, so the fill is a darker shade of it.
      expect(fill).not.toBe('rgb(139, 92, 246)');
      expect(fill).not.toBe('rgb(29, 78, 216)');
      await expectNoSeriousA11yViolations(target, 'branded checkout, dark');
    }
    await screenshot(phone, 'mobile/checkout-branded-dark');

    const session = await api('POST', '/v1/customer-sessions/', bearer(token), { customer_id: adaId });
    const url = new URL(session.customer_portal_url);
    for (const target of [page, phone]) {
      await target.goto(`${url.pathname}${url.search}`);
      await target.getByRole('heading', { name: /Welcome/ }).waitFor();
      expect(await target.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      await expectNoSeriousA11yViolations(target, 'branded portal, dark');
    }
    await screenshot(phone, 'mobile/portal-branded-dark');
    await phone.context().close();
  }, 180_000);

  it('archives several products at once after a confirmation, and reports the outcome', async () => {
    await product('Starter', 500, null);
    await product('Team', 5000, 'month');
    await page.goto(`/dashboard/${SLUG}/products`);
    const table = page.getByRole('table', { name: 'Products' });
    await table.getByRole('checkbox', { name: 'Select Starter' }).check();
    await table.getByRole('checkbox', { name: 'Select Team' }).check();
    await page.getByText('2 products selected').waitFor();
    await page.getByRole('button', { name: 'Archive selected…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Archive 2 products?' });
    await dialog.waitFor();
    await expectNoSeriousA11yViolations(page, 'bulk archive confirmation');
    await dialog.getByRole('button', { name: 'Archive 2 products' }).click();
    await page.getByText('2 products archived.').waitFor();
    await expect.poll(() => table.getByRole('checkbox', { name: 'Select Team' }).count()).toBe(0);
    await expect.poll(() => table.getByRole('checkbox', { name: 'Select Pro plan' }).count()).toBe(1);
    const archived = await api(
      'GET',
      `/v1/products/?organization_id=${organizationId}&is_archived=true`,
      bearer(token),
    );
    expect(archived.items.map((item: { name: string }) => item.name).sort()).toEqual(['Starter', 'Team']);
    await dashboardLink(page, 'License keys').click();
    await page.getByRole('heading', { name: 'License keys', exact: true }).waitFor();
  }, 120_000);

  it('revokes several license keys at once after a confirmation; the others keep validating', async () => {
    const keys = await benefitFactory(server, organizationId, {
      type: 'license_keys',
      description: 'Desktop app license',
      properties: await storedPropertiesFor(server, organizationId, 'license_keys'),
    });
    const org = { organization: { id: organizationId }, token } as OrganizationFixture;
    const buyers = ['kim@example.com', 'lee@example.com', 'max@example.com'];
    for (const email of buyers) {
      const { customerId } = await purchaseFactory(server, org, [keys.id], { email });
      await waitForGrant(server, customerId, keys.id, (grant) => grant.granted_at !== null);
    }
    const db = server.runtime.database.db;
    const rows = await db
      .selectFrom('license_keys')
      .innerJoin('customers', 'customers.id', 'license_keys.customer_id')
      .select(['license_keys.id', 'customers.email'])
      .where('license_keys.organization_id', '=', organizationId)
      .execute();
    expect(rows).toHaveLength(3);

    await page.goto(`/dashboard/${SLUG}/license-keys`);
    const table = page.getByRole('table', { name: 'License keys' });
    const checkboxes = table.getByRole('checkbox', { name: /^Select / });
    await expect.poll(() => checkboxes.count()).toBe(3);
    await checkboxes.nth(0).check();
    await checkboxes.nth(1).check();
    await page.getByText('2 license keys selected').waitFor();
    await page.getByRole('button', { name: 'Revoke selected…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke 2 license keys?' });
    await dialog.waitFor();
    await expectNoSeriousA11yViolations(page, 'bulk revoke confirmation');
    await dialog.getByRole('button', { name: 'Revoke 2 license keys' }).click();
    await page.getByText('2 license keys revoked.').waitFor();

    const statuses = await db
      .selectFrom('license_keys')
      .select('status')
      .where('organization_id', '=', organizationId)
      .execute();
    expect(statuses.map((row) => row.status).sort()).toEqual(['granted', 'revoked', 'revoked']);
  }, 120_000);
});
