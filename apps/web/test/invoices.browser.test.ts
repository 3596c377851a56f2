import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { purchaseFactory } from '../../api/test/factories/benefit-grants.js';
import { organizationFactory, tokenFactory, type OrganizationFixture } from '../../api/test/factories/organizations.js';
import { GRANTABLE_SCOPES } from '../../api/src/platform/auth/scopes.js';
import { bearer, json, startTestServer, type TestServer } from '../../api/test/harness.js';
import { hasChromium, launchBrowser, openPage, screenshot, signUp } from './browser.js';

/**
 * A customer downloads the invoice of an order from the customer portal, and a seller from the
 * dashboard: the first click asks for it, the page says it is being generated while the worker renders
 * the PDF, then the browser downloads it through the signed link. Before that the customer corrects the
 * billing details it is issued to. The server's base URL is its real address, so the link the API signs
 * is the one the browser follows.
 */
const SLUG = 'acme-invoices';

/** A free local port (the server's BASE_URL must name it before it listens). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe.skipIf(!hasChromium)('invoices in the customer portal', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let org: OrganizationFixture;
  let orderId: string;
  let customerId: string;

  async function api(method: 'POST' | 'GET', url: string, payload?: object) {
    const response = await server.inject({ method, url, headers: bearer(org.token), payload });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return json(response);
  }

  beforeAll(async () => {
    const port = await freePort();
    [server, browser] = await Promise.all([
      startTestServer({
        listen: true,
        clock: systemClock,
        config: { port, baseUrl: `http://127.0.0.1:${port}` },
      }),
      launchBrowser(),
    ]);
    org = await organizationFactory(server, { name: 'Acme Invoices', slug: SLUG });
    const purchase = await purchaseFactory(server, org, [], { email: 'ada@example.com' });
    orderId = purchase.orderId;
    customerId = purchase.customerId;
    ({ context, page } = await openPage(browser, server.url, 30_000));
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
  });

  it('generates the invoice on the first click, then downloads the PDF', async () => {
    const session = await api('POST', '/v1/customer-sessions/', { customer_id: customerId });
    const link = new URL(session.customer_portal_url);
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByRole('heading', { name: 'Welcome, Buyer' }).waitFor();
    await page.goto(`/portal/${SLUG}/orders/${orderId}`);
    await page.getByRole('heading', { name: /^Order of / }).waitFor();

    // The invoice is issued to the billing details of the order, which the customer may correct first.
    await page.getByRole('button', { name: 'Edit billing details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Billing details' });
    await dialog.getByLabel('Billing name').fill('Ada Lovelace Ltd');
    await dialog.getByLabel('Street address').fill('5 avenue Anatole France');
    await dialog.getByRole('button', { name: 'Save billing details' }).click();
    await dialog.waitFor({ state: 'detached' });
    const billedTo = page.getByRole('heading', { name: 'Billed to' }).locator('..');
    await expect.poll(() => billedTo.textContent()).toContain('Ada Lovelace Ltd');
    expect(await billedTo.textContent()).toContain('5 avenue Anatole France');

    const invoice = page.getByRole('heading', { name: 'Invoice' }).locator('..');
    expect(await invoice.textContent()).toContain('Your invoice is issued to the billing name and address');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download invoice' }).click();
    await page.getByText('The invoice is being generated.').waitFor();
    await screenshot(page, 'portal-invoice-generating');
    const download = await downloading;

    const order = await api('GET', `/v1/orders/${orderId}`);
    expect(order.is_invoice_generated).toBe(true);
    const number = (
      await server.runtime.database.db
        .selectFrom('orders')
        .select('invoice_number')
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow()
    ).invoice_number;
    expect(download.suggestedFilename()).toBe(`Invoice-${number}.pdf`);
    const text = execFileSync('pdftotext', ['-layout', (await download.path())!, '-']).toString('utf8');
    expect(text).toContain(number);
    expect(text).toContain('Acme Invoices');
    expect(text).toContain('Ada Lovelace Ltd');
    expect(text).toContain('5 avenue Anatole France');
    expect(text).toContain(order.items[0].label);
    expect(text).toMatch(/Total\s+\$10\.00/);

    // Once it exists, the button downloads it straight away (a fresh link each time).
    await page.getByText('The invoice is being generated.').waitFor({ state: 'detached' });
    expect(await invoice.textContent()).not.toContain('Your invoice is issued');
    // Frozen now: the invoice says what it says.
    expect(await page.getByRole('button', { name: 'Edit billing details' }).count()).toBe(0);
    const again = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download invoice' }).click();
    expect((await again).suggestedFilename()).toBe(`Invoice-${number}.pdf`);
    await screenshot(page, 'portal-invoice-downloaded');
  });

  it('lets the seller generate and download an invoice from the dashboard order page', async () => {
    const seller = await openPage(browser, server.url, 30_000);
    try {
      await signUp(seller.page, 'seller-invoices@example.com', 'correct horse battery staple', 'Seller Invoices');
      const organization = await server.runtime.database.db
        .selectFrom('organizations')
        .selectAll()
        .where('name', '=', 'Seller Invoices')
        .executeTakeFirstOrThrow();
      const own = { organization, token: await tokenFactory(server, organization.id, GRANTABLE_SCOPES) };
      const purchase = await purchaseFactory(server, own, [], { email: 'grace@example.com' });
      await seller.page.goto(`/dashboard/${organization.slug}/orders/${purchase.orderId}`);
      await seller.page.getByRole('heading', { name: /^Order of / }).waitFor();
      const downloading = seller.page.waitForEvent('download');
      await seller.page.getByRole('button', { name: 'Download invoice' }).click();
      const download = await downloading;
      const number = (
        await server.runtime.database.db
          .selectFrom('orders')
          .select('invoice_number')
          .where('id', '=', purchase.orderId)
          .executeTakeFirstOrThrow()
      ).invoice_number;
      expect(number).toMatch(new RegExp(`^${organization.customer_invoice_prefix}-0001$`));
      expect(download.suggestedFilename()).toBe(`Invoice-${number}.pdf`);
      const text = execFileSync('pdftotext', ['-layout', (await download.path())!, '-']).toString('utf8');
      expect(text).toContain(number);
      expect(text).toContain('Seller Invoices');
      await screenshot(seller.page, 'dashboard-invoice-downloaded');
    } finally {
      await seller.context.close();
    }
  });
});
