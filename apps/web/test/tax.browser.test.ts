import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { organizationFactory, uniqueSlug } from '../../api/test/factories/organizations.js';
import { startTestServer, type TestServer } from '../../api/test/harness.js';
import { dashboardLink, hasChromium, launchBrowser, openPage, screenshot, signUp } from './browser.js';

/**
 * Tax in a real browser against the real server (docs/tax.md): the hosted checkout's summary follows
 * the buyer's country, and a seller registers a rate in Settings → Tax and reads the tax report.
 */
const POLL = { timeout: 10_000 };

describe.skipIf(!hasChromium)('tax in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let token: string;

  async function api(method: 'POST' | 'PATCH', path: string, body: object): Promise<any> {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  }

  function summaryValue(label: string) {
    return page
      .getByRole('region', { name: 'Order summary' })
      .locator('dt')
      .filter({ hasText: new RegExp(`^${label}$`) })
      .locator('xpath=following-sibling::dd')
      .textContent();
  }

  async function chooseCountry(name: string) {
    await page.getByLabel('Country').click();
    await page.getByRole('option', { name, exact: true }).click();
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      // The browser expires the seller's session cookie by the real time, so the server runs on it too.
      startTestServer({ listen: true, clock: systemClock }),
      launchBrowser(),
    ]);
    ({ token } = await organizationFactory(server, { name: 'Maison', slug: uniqueSlug('maison') }));
    await api('PATCH', '/v1/tax-settings/', { home_country: 'FR' });
    await api('POST', '/v1/tax-registrations/', { country: 'FR', rate_basis_points: 2000, label: 'VAT' });
    await api('POST', '/v1/tax-registrations/', { country: 'DE', rate_basis_points: 1900, label: 'MwSt' });
    ({ page } = await openPage(browser, server.url));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the hosted checkout updates the tax as the buyer changes country', async () => {
    const product = await api('POST', '/v1/products/', {
      name: 'Ebook',
      recurring_interval: null,
      prices: [{ amount_type: 'fixed', price_amount: 1000, price_currency: 'eur' }],
    });
    const checkout = await api('POST', '/v1/checkouts/', { products: [product.id] });
    await page.goto(new URL(checkout.url as string).pathname);
    await page.getByRole('heading', { name: 'Ebook' }).waitFor();
    expect(await summaryValue('Taxes')).toBe('Calculated from your billing address');
    expect(await summaryValue('Total')).toBe('€10.00');

    await chooseCountry('France');
    await expect.poll(() => summaryValue('Taxes'), POLL).toBe('€2.00');
    expect(await summaryValue('Total')).toBe('€12.00');
    await screenshot(page, 'tax-checkout-france');

    await chooseCountry('Germany');
    await expect.poll(() => summaryValue('Taxes'), POLL).toBe('€1.90');
    expect(await summaryValue('Total')).toBe('€11.90');

    await chooseCountry('Japan');
    await expect.poll(() => summaryValue('Taxes'), POLL).toBe('€0.00');
    expect(await summaryValue('Total')).toBe('€10.00');
  });

  it('a seller registers a rate in Settings → Tax and opens the tax report', async () => {
    // Signing up hashes a password: slow on a busy machine.
    const { page: seller } = await openPage(browser, server.url, 30_000);
    await signUp(seller, 'seller@example.com', 'correct horse battery staple', 'Boutique');
    await dashboardLink(seller, 'Tax').click();
    await seller.getByRole('heading', { name: 'Tax', exact: true }).waitFor();
    await seller.getByText('No registrations yet: no tax is collected.').waitFor();

    await seller.getByLabel('Country', { exact: true }).click();
    await seller.getByRole('option', { name: 'France', exact: true }).click();
    await seller.getByLabel('Rate (%)').fill('20');
    await seller.getByRole('button', { name: 'Add registration' }).click();
    const table = seller.getByRole('table', { name: 'Tax registrations' });
    await table.getByRole('cell', { name: 'FR', exact: true }).waitFor();
    await expect.poll(() => table.getByLabel('Rate in FR (%)').inputValue(), POLL).toBe('20');

    // A second registration for one place is refused at its field.
    await seller.getByLabel('Country', { exact: true }).click();
    await seller.getByRole('option', { name: 'France', exact: true }).click();
    await seller.getByLabel('Rate (%)').fill('5.5');
    await seller.getByRole('button', { name: 'Add registration' }).click();
    await seller.getByText('already has a registration for this place', { exact: false }).first().waitFor();
    await screenshot(seller, 'tax-settings');

    await dashboardLink(seller, 'Tax report').click();
    await seller.getByRole('heading', { name: 'Tax report' }).waitFor();
    await seller.getByText('No taxed sales in this period.').waitFor();
    const csv = await seller.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    expect(csv).toMatch(/^\/v1\/tax-reports\/csv\?organization_id=.+&start_date=\d{4}-\d{2}-\d{2}&end_date=/);
    await screenshot(seller, 'tax-report');
  }, 90_000);
});
