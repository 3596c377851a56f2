/// <reference lib="dom" />
// Functions passed to page.evaluate run in the browser.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../api/src/platform/clock.js';
import { organizationFactory, uniqueSlug } from '../../api/test/factories/organizations.js';
import { bearer, startTestServer, type TestServer } from '../../api/test/harness.js';
import { hasChromium, launchBrowser, openPage } from './browser.js';
import { apiJson } from './purchases.js';

/**
 * The checkout form's details a buyer trips on: where the focus goes after a discount code, the Pay
 * button's focus ring, and a declined card told alone (not with "some details are missing").
 */
const POLL = { timeout: 10_000 };

describe.skipIf(!hasChromium)('checkout form details in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let token: string;
  let product: { id: string };

  const api = (method: 'POST' | 'GET', path: string, body?: object) =>
    apiJson(server, method, path, bearer(token), body);

  async function openCheckout() {
    const checkout = await api('POST', '/v1/checkouts/', { products: [product.id] });
    await page.goto(new URL(checkout.url).pathname);
    await page.getByRole('heading', { name: 'Ebook' }).waitFor();
  }

  const focused = () =>
    page.evaluate(
      () =>
        document.activeElement?.getAttribute('aria-label') ??
        document.activeElement?.id ??
        document.activeElement?.tagName,
    );

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startTestServer({ listen: true, clock: new ManualClock() }),
      launchBrowser(),
    ]);
    ({ token } = await organizationFactory(server, { name: 'Form Co', slug: uniqueSlug('form') }));
    product = await api('POST', '/v1/products/', {
      name: 'Ebook',
      recurring_interval: null,
      prices: [{ amount_type: 'fixed', price_amount: 2500, price_currency: 'usd' }],
    });
    await api('POST', '/v1/discounts/', {
      name: 'Launch',
      code: 'LAUNCH20',
      type: 'percentage',
      basis_points: 2000,
      duration: 'once',
    });
    ({ page } = await openPage(browser, server.url));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('keeps the focus on the discount after a code is applied, and on the field after it is removed', async () => {
    await openCheckout();
    const code = page.getByLabel('Discount code');
    await code.fill('launch20');
    await code.press('Enter');
    await page.getByLabel('Discount applied').waitFor();
    await expect.poll(focused, POLL).toBe('Discount applied');
    await page.getByRole('button', { name: 'Remove discount' }).click();
    await page.getByLabel('Discount code').waitFor();
    await expect
      .poll(() => page.getByLabel('Discount code').evaluate((el) => el === document.activeElement), POLL)
      .toBe(true);
  });

  it('draws a strong focus ring on the Pay button', async () => {
    await openCheckout();
    const pay = page.getByRole('button', { name: 'Pay $25.00' });
    await pay.focus();
    // Keyboard focus (focus-visible): a press of Shift+Tab then Tab lands on it again.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const outline = await pay.evaluate((el) => {
      const style = getComputedStyle(el);
      return { width: parseFloat(style.outlineWidth), style: style.outlineStyle, color: style.outlineColor };
    });
    expect(outline.style).toBe('solid');
    expect(outline.width).toBeGreaterThanOrEqual(3);
  });

  it('says the street and city are needed as soon as a US ZIP code is typed', async () => {
    await openCheckout();
    await page.getByLabel('Country').click();
    await page.getByRole('option', { name: 'United States', exact: true }).click();
    await page.getByLabel('Street address (optional)').waitFor();
    await page.getByLabel('ZIP', { exact: false }).or(page.getByLabel('Postal code (optional)')).fill('94105');
    await page.getByLabel('Street address', { exact: true }).waitFor();
    await page.getByLabel('City', { exact: true }).waitFor();
    expect(await page.getByLabel('Street address (optional)').count()).toBe(0);
  });

  it('tells a declined card alone, without "some details are missing"', async () => {
    await openCheckout();
    await page.getByLabel('Email').fill('declined@example.com');
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await page.getByLabel('Country').click();
    await page.getByRole('option', { name: 'France', exact: true }).click();
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByLabel('Expiry date').fill('12 / 34');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: 'Pay $25.00' }).click();
    await page.getByRole('alert').filter({ hasText: 'The payment failed' }).waitFor();
    expect(await page.getByText('Some details are missing', { exact: false }).count()).toBe(0);
  });
});
