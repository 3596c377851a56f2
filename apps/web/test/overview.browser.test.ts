/// <reference lib="dom" />
// Functions passed to page.evaluate run in the browser.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { CARDS } from '../../api/test/factories/checkouts.js';
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
 * The seller's overview (metrics of GET /v1/metrics/) in a real browser against the real server, over
 * sales made through the API today: two subscriptions to Pro (monthly $25.00), a Field guide ($15.00),
 * a checkout whose card is declined, and a 14-day free trial of the Team plan. Every figure is checked as the page shows it.
 */
const SLUG = 'acme-overview';
const ADA = 'ada@example.com';
const BOB = 'bob@example.com';

describe.skipIf(!hasChromium)('the overview in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let seller: UserFixture;

  const api = (method: 'POST' | 'GET', url: string, headers: Record<string, string>, payload?: object) =>
    apiJson(server, method, url, headers, payload);
  const buy = (token: string, productId: string, email: string, card?: string) =>
    purchase(server, token, productId, { email, name: email === ADA ? 'Ada Lovelace' : 'Bob Builder' }, card);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ listen: true, clock: systemClock }), launchBrowser()]);
    seller = await userFactory(server, { email: 'seller@example.com' });
    const organization = await api('POST', '/v1/organizations/', seller.headers, { name: 'Acme Overview', slug: SLUG });
    const { token } = await api('POST', '/v1/organization-access-tokens/', seller.headers, {
      organization_id: organization.id,
      comment: 'shop backend',
      scopes: ['products:read', 'products:write', 'checkouts:read', 'checkouts:write'],
    });
    const product = (name: string, amount: number, interval: 'month' | null, trial = {}) =>
      api('POST', '/v1/products/', bearer(token), {
        name,
        recurring_interval: interval,
        prices: [{ amount_type: 'fixed', price_amount: amount, price_currency: 'usd' }],
        ...trial,
      });
    const pro = await product('Pro plan', 2500, 'month');
    const guide = await product('Field guide', 1500, null);
    expect(await buy(token, pro.id, ADA)).toBe(200);
    expect(await buy(token, guide.id, ADA)).toBe(200);
    expect(await buy(token, pro.id, BOB)).toBe(200);
    expect(await buy(token, guide.id, BOB, CARDS.declined)).toBeGreaterThanOrEqual(400);
    // A free trial: a subscription, but neither paying nor MRR until it converts.
    const team = await product('Team plan', 4000, 'month', { trial_interval: 'day', trial_interval_count: 14 });
    expect(await buy(token, team.id, 'cy@example.com')).toBe(200);
    ({ page } = await openPage(browser, server.url));
    await page.goto('/login');
    await page.getByLabel('Email').fill(seller.email);
    await page.getByLabel('Password').fill(seller.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await dashboardLink(page, 'Overview').waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const card = (name: string) => page.getByRole('listitem', { name, exact: true });

  it('shows the last 30 days: headline figures, their change, and the charts', async () => {
    await dashboardLink(page, 'Overview').click();
    await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
    await card('Revenue').getByText('$65.00', { exact: true }).waitFor();
    // Nothing was sold in the 30 days before: every change is "new" (or 0% where both are 0).
    expect(await card('Revenue').textContent()).toContain('new vs previous $0.00');
    expect(await card('Orders').getByTestId('headline-value').textContent()).toBe('3');
    expect(await card('MRR').getByTestId('headline-value').textContent()).toBe('$50.00');
    expect(await card('Active subscriptions').getByTestId('headline-value').textContent()).toBe('2');
    // Four of five checkouts succeeded (the trial's included).
    expect(await card('Checkout conversion').getByTestId('headline-value').textContent()).toBe('80%');
    expect(await card('Active trials').getByTestId('headline-value').textContent()).toBe('1');
    expect(await card('Active trials').textContent()).toContain('new vs previous 0');
    expect(await card('Trial conversions').getByTestId('headline-value').textContent()).toBe('0');

    const revenue = page.getByRole('figure', { name: /^Revenue per day: \$65\.00/ });
    const rows = revenue.getByRole('table', { name: 'Revenue per day' }).getByRole('row');
    expect(await rows.count()).toBe(31);
    expect(await rows.last().textContent()).toContain('$65.00');
    await page.getByRole('figure', { name: /^Monthly recurring revenue per day: \$50\.00/ }).waitFor();
    await page.getByRole('figure', { name: /^Active subscriptions per day: 2/ }).waitFor();
    await page.getByRole('figure', { name: /^Checkout conversion per day: 80%/ }).waitFor();
    const orders = page.getByRole('table', { name: 'Orders per day' }).getByRole('row');
    expect(await orders.last().textContent()).toContain('3');

    const recent = page.getByRole('region', { name: 'Recent orders' });
    await expect.poll(() => recent.getByRole('listitem').count(), { timeout: 10_000 }).toBe(3);
    const subscriptions = page.getByRole('region', { name: 'Recent subscriptions' });
    await expect.poll(() => subscriptions.getByRole('listitem').count(), { timeout: 10_000 }).toBe(3);
    expect(await subscriptions.textContent()).toContain('$25.00 / month');
    await expectNoSeriousA11yViolations(page, 'overview');
    await screenshot(page, 'overview');
  });

  it('filters by product and changes the interval', async () => {
    await page.getByRole('combobox', { name: 'Product' }).click();
    await page.getByRole('option', { name: 'Field guide' }).click();
    await card('Revenue').getByText('$15.00', { exact: true }).waitFor();
    expect(await card('Orders').getByTestId('headline-value').textContent()).toBe('1');
    expect(await card('MRR').getByTestId('headline-value').textContent()).toBe('$0.00');
    expect(await card('Active trials').getByTestId('headline-value').textContent()).toBe('0');

    await page.getByRole('combobox', { name: 'Product' }).click();
    await page.getByRole('option', { name: 'All products' }).click();
    await page.getByRole('combobox', { name: 'Interval' }).click();
    await page.getByRole('option', { name: 'Month' }).click();
    await page.getByRole('figure', { name: /^Revenue per month: \$65\.00/ }).waitFor();
    expect(await card('Revenue').getByTestId('headline-value').textContent()).toBe('$65.00');
  });

  it('exports the periods as CSV', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const chunks: Buffer[] = [];
    for await (const chunk of (await download.createReadStream()) as AsyncIterable<Buffer>) chunks.push(chunk);
    const lines = Buffer.concat(chunks).toString('utf8').trim().split('\n');
    expect(lines[0]).toMatch(/^timestamp,orders,revenue,/);
    const header = lines[0]!.split(',');
    const totals = lines.slice(1).map((line) => line.split(','));
    const sum = (slug: string) => totals.reduce((all, cells) => all + Number(cells[header.indexOf(slug)]), 0);
    expect(sum('revenue')).toBe(6500);
    expect(sum('orders')).toBe(3);
    expect(sum('new_trials')).toBe(1);
  });

  it('fits a 390 px wide screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page
      .getByRole('button', { name: 'Open menu' })
      .or(page.getByRole('heading', { name: 'Overview' }))
      .first()
      .waitFor();
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await card('Revenue').isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page, 'overview at 390 px');
    await screenshot(page, 'mobile/overview');
  });
});
