import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { CARDS } from '../../api/test/factories/checkouts.js';
import { userFactory, type UserFixture } from '../../api/test/factories/users.js';
import { bearer, startTestServer, type TestServer } from '../../api/test/harness.js';
import {
  expectNoSeriousA11yViolations,
  dashboardLink,
  definitions,
  hasChromium,
  launchBrowser,
  openPage,
  screenshot,
} from './browser.js';
import { apiJson, purchase } from './purchases.js';

/**
 * The seller's sales pages (orders, subscriptions, payments, a customer) in a real browser against the
 * real server. The shop is seeded through the API as an integration would: an organization and its
 * token, products, and purchases through checkout create + confirm with the simulated processor's cards.
 */
const SLUG = 'acme-sales';
const ADA = 'ada@example.com';
const BOB = 'bob@example.com';

describe.skipIf(!hasChromium)('sales pages in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let seller: UserFixture;

  const api = (method: 'POST' | 'GET', url: string, headers: Record<string, string>, payload?: object) =>
    apiJson(server, method, url, headers, payload);
  const buy = (token: string, productId: string, email: string, card?: string) =>
    purchase(server, token, productId, { email, name: email === ADA ? 'Ada Lovelace' : 'Bob Builder' }, card);

  async function seed() {
    seller = await userFactory(server, { email: 'seller@example.com' });
    const organization = await api('POST', '/v1/organizations/', seller.headers, { name: 'Acme Sales', slug: SLUG });
    const { token } = await api('POST', '/v1/organization-access-tokens/', seller.headers, {
      organization_id: organization.id,
      comment: 'shop backend',
      scopes: ['products:read', 'products:write', 'checkouts:read', 'checkouts:write'],
    });
    const product = (name: string, amount: number, interval: 'month' | null) =>
      api('POST', '/v1/products/', bearer(token), {
        name,
        recurring_interval: interval,
        prices: [{ amount_type: 'fixed', price_amount: amount, price_currency: 'usd' }],
      });
    const pro = await product('Pro plan', 2500, 'month');
    await product('Team plan', 4900, 'month');
    const ebook = await product('Field guide', 1500, null);
    expect(await buy(token, pro.id, ADA)).toBe(200);
    expect(await buy(token, ebook.id, ADA)).toBe(200);
    expect(await buy(token, pro.id, BOB)).toBe(200);
    // Declined: recorded as a failed payment, with no order.
    expect(await buy(token, ebook.id, BOB, CARDS.declined)).toBeGreaterThanOrEqual(400);
  }

  const nav = (name: string) => dashboardLink(page, name);

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      // The browser expires the session cookie by the real time, so the server runs on it too.
      startTestServer({ listen: true, clock: systemClock }),
      launchBrowser(),
    ]);
    await seed();
    ({ page } = await openPage(browser, server.url));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signs in a member of the organization', async () => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(seller.email);
    await page.getByLabel('Password').fill(seller.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/dashboard/${SLUG}/overview`);
  });

  it('lists the orders with the revenue of the last 30 days, and filters them by customer', async () => {
    await nav('Orders').click();
    await page.getByRole('heading', { name: 'Orders', exact: true }).waitFor();
    const table = page.getByRole('table', { name: 'Orders' });
    await expect.poll(() => table.getByRole('row').count()).toBe(4);
    const ebookRow = table.getByRole('row').filter({ hasText: 'Field guide' });
    expect(await ebookRow.textContent()).toContain(ADA);
    expect(await ebookRow.textContent()).toContain('$15.00');
    await expect(ebookRow.getByText('Purchase').isVisible()).resolves.toBe(true);

    const chart = page.getByRole('figure', { name: /Revenue per day, last 30 days: \$65\.00/ });
    await chart.waitFor();
    expect(await chart.textContent()).toContain('Computed from the orders listed for this period');
    const today = await chart.getByRole('table', { name: 'Revenue per day' }).getByRole('row').last().textContent();
    expect(today).toContain('$65.00');
    await expectNoSeriousA11yViolations(page, 'orders');
    await screenshot(page, 'orders');

    const picker = page.getByRole('combobox', { name: 'Customer', exact: true });
    await picker.fill('bob');
    await page.getByRole('option', { name: /bob@example\.com/ }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(await table.getByRole('row').nth(1).textContent()).toContain(BOB);
    await picker.fill('');
    await expect.poll(() => table.getByRole('row').count()).toBe(4);
  });

  it('shows an order with its amounts, billing details and invoice', async () => {
    const table = page.getByRole('table', { name: 'Orders' });
    await table.getByRole('row').filter({ hasText: 'Field guide' }).getByRole('link').first().click();
    await page.getByRole('heading', { name: 'Order of Field guide' }).waitFor();
    const terms = await definitions(page);
    expect(terms).toMatchObject({
      Subtotal: '$15.00',
      'Net amount': '$15.00',
      Tax: '$0.00',
      Total: '$15.00',
      Refunded: '$0.00',
      Status: 'Paid',
      Reason: 'Purchase',
      Customer: ADA,
      Subscription: 'One-time purchase',
      Name: 'Ada Lovelace',
    });
    expect(terms.Address).toContain('Paris');
    const items = page.getByRole('table', { name: 'Items' });
    expect(await items.getByRole('row').nth(1).textContent()).toContain('$15.00');
    const payments = page.getByRole('table', { name: 'Payments' });
    expect(await payments.getByRole('row').nth(1).textContent()).toMatch(/Succeeded.*Visa •••• 4242/);

    // Generating and downloading the PDF is invoices.browser.test.ts.
    await page.getByRole('button', { name: 'Download invoice' }).waitFor();
    await expectNoSeriousA11yViolations(page, 'order');
    await screenshot(page, 'order');
  });

  it('cancels a subscription at period end with a reason, then resumes it', async () => {
    await nav('Subscriptions').click();
    const table = page.getByRole('table', { name: 'Subscriptions' });
    await expect.poll(() => table.getByRole('row').count(), { timeout: 10_000 }).toBe(3);
    await table.getByRole('row').filter({ hasText: ADA }).getByRole('link', { name: 'Pro plan' }).click();
    await page.getByRole('heading', { name: 'Pro plan' }).waitFor();
    expect(await definitions(page)).toMatchObject({ Amount: '$25.00 / month', Customer: `${ADA}(Ada Lovelace)` });
    const orders = page.getByRole('table', { name: 'Orders of this subscription' });
    expect(await orders.getByRole('row').nth(1).textContent()).toMatch(/New subscription.*Paid.*\$25\.00/);

    await page.getByRole('button', { name: 'Cancel at period end' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel at the end of the period' });
    await dialog.getByLabel('Reason').click();
    await page.getByRole('option', { name: 'Too expensive' }).click();
    await dialog.getByLabel('Comment').fill('Budget cut for next quarter');
    await dialog.getByRole('button', { name: 'Cancel at period end' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('it will not renew').waitFor();
    expect(await definitions(page)).toMatchObject({
      'Cancellation reason': 'Too expensive',
      Comment: 'Budget cut for next quarter',
    });
    expect((await definitions(page)).Status).toMatch(/^Cancels /);
    await expect(page.getByRole('button', { name: 'Cancel at period end' }).count()).resolves.toBe(0);
    await expectNoSeriousA11yViolations(page, 'subscription-canceling');
    await screenshot(page, 'subscription-canceling');

    await page.getByRole('button', { name: 'Resume subscription' }).click();
    await page.getByText(/^Renews on /).waitFor();
    expect((await definitions(page)).Status).toMatch(/^Active/);
    expect(await definitions(page)).not.toHaveProperty('Cancellation reason');
  });

  it('moves a subscription to another product, invoicing the difference now', async () => {
    await page.getByRole('button', { name: 'Change product' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change product' });
    await dialog.getByRole('button', { name: 'Change product' }).click();
    await dialog.getByText('Choose a product.').waitFor();
    await dialog.getByLabel('New product').click();
    await expect(page.getByRole('option', { name: 'Pro plan' }).count()).resolves.toBe(0);
    await page.getByRole('option', { name: 'Team plan' }).click();
    await dialog.getByLabel('Proration').click();
    await page.getByRole('option', { name: /^Invoice now/ }).click();
    await dialog.getByRole('button', { name: 'Change product' }).click();
    await page.getByRole('heading', { name: 'Team plan' }).waitFor();
    expect((await definitions(page)).Amount).toBe('$49.00 / month');
    const orders = page.getByRole('table', { name: 'Orders of this subscription' });
    await expect.poll(() => orders.getByRole('row').count()).toBe(3);
    // The difference is charged by the billing job (each minute): the order is pending until then.
    expect(await orders.getByRole('row').nth(1).textContent()).toMatch(/Subscription change(Pending|Paid)\$\d+\.\d\d/);
  });

  it('revokes a subscription after confirmation', async () => {
    await page.getByRole('link', { name: '← Subscriptions' }).click();
    const table = page.getByRole('table', { name: 'Subscriptions' });
    await table.getByRole('row').filter({ hasText: BOB }).getByRole('link', { name: 'Pro plan' }).click();
    await page.getByRole('heading', { name: 'Pro plan' }).waitFor();

    await page.getByRole('button', { name: 'Revoke now' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this subscription now?' });
    await dialog.getByRole('button', { name: 'Revoke subscription' }).click();
    await page.getByText(/^Ended on /).waitFor();
    const terms = await definitions(page);
    expect(terms.Status).toMatch(/^Canceled/);
    expect(terms).toHaveProperty('Ended');
    await expect(page.getByRole('button', { name: 'Revoke now' }).count()).resolves.toBe(0);
    await expectNoSeriousA11yViolations(page, 'subscription-revoked');
    await screenshot(page, 'subscription-revoked');

    await page.getByRole('link', { name: '← Subscriptions' }).click();
    await page.getByLabel('Status').click();
    await page.getByRole('option', { name: 'Active' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(await table.getByRole('row').nth(1).textContent()).toContain(ADA);
  });

  it('lists the payments with their method and decline reason', async () => {
    await nav('Payments').click();
    const table = page.getByRole('table', { name: 'Payments' });
    // Four at checkout; the product change adds its own once the billing job has charged it.
    await expect.poll(() => table.getByRole('row').count()).toBeGreaterThanOrEqual(5);
    const failed = table.getByRole('row').filter({ hasText: 'Failed' });
    expect(await failed.textContent()).toMatch(/\$15\.00Failed.*Your card was declined\./);
    expect(await failed.getByRole('link').count()).toBe(0);
    await expect.poll(() => table.getByRole('row').filter({ hasText: 'Succeeded' }).count()).toBeGreaterThanOrEqual(3);
    await expectNoSeriousA11yViolations(page, 'payments');
    await screenshot(page, 'payments');

    await page.getByLabel('Customer email').fill(BOB);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    await page.getByLabel('Status').click();
    await page.getByRole('option', { name: 'Failed' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await page.getByLabel('Status').click();
    await page.getByRole('option', { name: 'Pending' }).click();
    await page.getByRole('heading', { name: 'No matching payments' }).waitFor();
  });

  it('shows what a customer has and their orders and subscriptions', async () => {
    await nav('Customers').click();
    await page.getByRole('table', { name: 'Customers' }).getByRole('link', { name: ADA }).click();
    await page.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();

    const state = page.getByRole('region', { name: 'Current state' });
    await state.getByRole('link', { name: 'Team plan' }).waitFor();
    expect(await state.textContent()).toContain('$49.00 / month');
    expect(await state.textContent()).toContain('No benefit granted.');

    const orders = page.getByRole('region', { name: 'Orders' }).getByRole('table', { name: 'Orders' });
    await expect.poll(() => orders.getByRole('row').count()).toBe(4);
    expect(await orders.textContent()).not.toContain(BOB);
    const subscriptions = page.getByRole('table', { name: 'Subscriptions' });
    await expect.poll(() => subscriptions.getByRole('row').count()).toBe(2);
    await expectNoSeriousA11yViolations(page, 'customer');
    await screenshot(page, 'customer');

    await state.getByRole('link', { name: 'Team plan' }).click();
    await page.getByRole('heading', { name: 'Team plan' }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(new RegExp(`^/dashboard/${SLUG}/subscriptions/`));
  });
});
