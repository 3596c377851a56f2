import { createServer, type AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { startTestServer, type TestServer } from '../../api/test/harness.js';
import { dashboardLink, hasChromium, launchBrowser, openPage, screenshot, signUp } from './browser.js';

/**
 * The whole journey, only through the pages a person uses: a seller signs up and sells a monthly plan with
 * license keys through a checkout link; a buyer pays with a test card; another buyer's card is declined;
 * the seller sees the order and the subscription; the customer opens the portal from the thank-you page,
 * finds the license key and cancels at the end of the period. Screenshots of each page are kept in
 * test/artifacts/journey-*.png.
 */

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

describe.skipIf(!hasChromium)('a seller, two buyers and a customer, end to end', () => {
  let server: TestServer;
  let browser: Browser;
  let seller: Page;
  let checkoutLink = '';
  let portalLink = '';

  const newPage = () => openPage(browser, server.url, 15_000);
  const shot = (page: Page, name: string) => screenshot(page, `journey-${name}`);
  const nav = (name: string) => dashboardLink(seller, name);

  beforeAll(async () => {
    // Links the server writes (checkout links, their redirects) carry BASE_URL: the server's own address.
    const port = await freePort();
    [server, browser] = await Promise.all([
      // The browser expires the dashboard cookie by the real time, so the server runs on it too.
      startTestServer({
        listen: true,
        clock: systemClock,
        config: { port, baseUrl: `http://127.0.0.1:${port}` },
      }),
      launchBrowser(),
    ]);
    seller = (await newPage()).page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the seller signs up and creates an organization', async () => {
    await signUp(seller, 'grace@example.com', 'a long enough password', 'Journey Software');
    await shot(seller, 'seller-overview-empty');
  });

  it('creates a license key benefit and a monthly product that grants it', async () => {
    await nav('Benefits').click();
    await seller.getByRole('button', { name: 'New benefit' }).click();
    const dialog = seller.getByRole('dialog', { name: 'New benefit' });
    await dialog.getByLabel('Benefit type').click();
    await seller.getByRole('option', { name: /^License keys/ }).click();
    await dialog.getByLabel('Description').fill('Desktop app license');
    await dialog.getByLabel('Key prefix').fill('JOURNEY');
    await dialog.getByRole('button', { name: 'Create benefit' }).click();
    await seller.getByRole('table', { name: 'Benefits' }).getByText('Desktop app license').waitFor();

    await nav('Products').click();
    await seller.getByRole('link', { name: 'New product' }).click();
    await seller.getByLabel('Product name').fill('Pro plan');
    await seller.getByLabel('Billing').click();
    await seller.getByRole('option', { name: 'Monthly subscription' }).click();
    await seller.getByLabel('Amount').fill('25');
    await seller
      .getByRole('group', { name: 'Benefits' })
      .getByRole('checkbox', { name: /Desktop app license/ })
      .check();
    await shot(seller, 'seller-product-form');
    await seller.getByRole('button', { name: 'Create product' }).click();
    const row = seller.getByRole('table', { name: 'Products' }).getByRole('row').filter({ hasText: 'Pro plan' });
    await row.getByText('$25.00').waitFor();
  });

  it('creates a checkout link for it', async () => {
    await nav('Checkout links').click();
    await seller.getByRole('button', { name: 'New checkout link' }).click();
    const dialog = seller.getByRole('dialog', { name: 'New checkout link' });
    await dialog.getByLabel('Label').fill('Launch');
    await dialog.getByRole('checkbox', { name: 'Pro plan' }).check();
    await dialog.getByRole('button', { name: 'Create checkout link' }).click();
    const row = seller.getByRole('table', { name: 'Checkout links' }).getByRole('row').filter({ hasText: 'Launch' });
    checkoutLink = (await row.getByRole('link', { name: 'Open Launch in a new tab' }).getAttribute('href'))!;
    expect(checkoutLink).toBe(`${server.url}/v1/checkout-links/${checkoutLink.split('/').at(-2)}/redirect`);
    await shot(seller, 'seller-checkout-links');
  });

  async function buy(page: Page, email: string, card: string) {
    await page.goto(checkoutLink);
    await page.getByRole('heading', { name: 'Pro plan' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await page.getByLabel('Country').click();
    await page.getByRole('option', { name: 'France', exact: true }).click();
    await page.getByLabel('Card number').fill(card);
    await page.getByLabel('Expiry date').fill('12 / 34');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: 'Subscribe' }).click();
  }

  it('a buyer opens the link, pays with 4242 4242 4242 4242 and is thanked', async () => {
    const { page } = await newPage();
    await buy(page, 'ada@example.com', '4242 4242 4242 4242');
    await page.getByText('Your subscription to Pro plan is active.').waitFor();
    portalLink = (await page.getByRole('link', { name: 'Open the customer portal' }).getAttribute('href'))!;
    expect(portalLink).toMatch(/^\/portal\/journey-software\?customer_session_token=polar_cst_/);
    await shot(page, 'buyer-success');
  });

  it('another buyer’s declined card is told in words, and nothing is sold', async () => {
    const { page } = await newPage();
    await buy(page, 'bob@example.com', '4000 0000 0000 0002');
    const alert = page.getByRole('alert').filter({ hasText: 'The payment failed' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Your card was declined.');
    await shot(page, 'buyer-declined');
    const subscriptions = await server.runtime.database.db
      .selectFrom('subscriptions')
      .innerJoin('customers', 'customers.id', 'subscriptions.customer_id')
      .select('customers.email')
      .execute();
    expect(subscriptions.map((row) => row.email)).toEqual(['ada@example.com']);
  });

  it('the seller sees the order and the subscription', async () => {
    await nav('Orders').click();
    const orders = seller.getByRole('table', { name: 'Orders' });
    await orders.getByRole('row').filter({ hasText: 'ada@example.com' }).getByText('$25.00').first().waitFor();
    await shot(seller, 'seller-orders');
    await nav('Subscriptions').click();
    const row = seller
      .getByRole('table', { name: 'Subscriptions' })
      .getByRole('row')
      .filter({ hasText: 'ada@example.com' });
    await row.getByText('Active').waitFor();
    await row.getByRole('link', { name: 'Pro plan' }).click();
    await seller.getByRole('heading', { name: 'Pro plan' }).waitFor();
    await shot(seller, 'seller-subscription');
  });

  it('the customer opens the portal, finds the license key and cancels at the end of the period', async () => {
    const { page } = await newPage();
    await page.goto(portalLink);
    // The portal keeps the token and takes it out of the address bar before anything else.
    await page.getByRole('heading', { name: 'Welcome, Ada Lovelace' }).waitFor();
    await expect.poll(() => page.url()).not.toContain('customer_session_token');
    const portalNav = (name: string) =>
      page.getByRole('navigation', { name: 'Customer portal' }).getByRole('link', { name, exact: true });
    await portalNav('Benefits').click();
    await page.getByRole('heading', { name: 'Benefits', exact: true }).waitFor();
    // The grant is made by a background job right after the payment: the page shows it once it is ready.
    const key = page.getByRole('region', { name: 'Desktop app license' });
    await expect
      .poll(
        async () => {
          if (await key.getByRole('button', { name: 'Show key' }).count()) return true;
          await page.reload();
          return false;
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toBe(true)
      .catch(async (error: unknown) => {
        await shot(page, 'customer-benefits-failed');
        const grants = await server.runtime.database.db.selectFrom('benefit_grants').selectAll().execute();
        throw new Error(`${String(error)}\n${JSON.stringify(grants)}`);
      });
    await key.getByRole('button', { name: 'Show key' }).click();
    await key.getByText(/^JOURNEY-/).waitFor();
    await shot(page, 'customer-benefits');

    await portalNav('Subscriptions').click();
    await page.getByRole('table', { name: 'Subscriptions' }).getByRole('link', { name: 'Pro plan' }).click();
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel your subscription' });
    await dialog.getByRole('button', { name: 'Cancel at period end' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('it will not renew').waitFor();
    await shot(page, 'customer-canceled');

    // The seller sees it too: the subscription runs to the end of its period, then stops.
    await seller.reload();
    await seller.getByText('it will not renew').waitFor();
  });

  it('the seller moves the organization’s test clock past the period: the subscription ends', async () => {
    const subscriptionPage = seller.url();
    await nav('Settings').click();
    const card = seller.getByRole('region', { name: 'Test clock' });
    await card.getByText(/^Organization time:/).waitFor();
    await card.getByRole('button', { name: '+31 days' }).click();
    await card.getByRole('status').filter({ hasText: 'Moved 31 days: 1 renewal, 0 charge attempts' }).waitFor();
    await card.getByText('(31 days ahead)').waitFor();
    await shot(seller, 'seller-test-clock');
    await seller.goto(subscriptionPage);
    await seller.getByRole('heading', { name: 'Pro plan' }).waitFor();
    await seller.getByText('Canceled', { exact: true }).first().waitFor();
  });
});
