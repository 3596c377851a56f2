import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../api/src/platform/clock.js';
import { organizationFactory, uniqueSlug } from '../../api/test/factories/organizations.js';
import { bearer, startTestServer, type TestServer } from '../../api/test/harness.js';
import { hasChromium, launchBrowser, openPage, screenshot } from './browser.js';
import { apiJson } from './purchases.js';

/**
 * The hosted checkout in a real browser against the real server (embedded database, simulated card
 * processor). The seller's catalogue is created through the API with an organization token, as an
 * integration would; the buyer then does everything on the page.
 */
const DAY_MS = 24 * 60 * 60 * 1000;
/** Amounts follow a debounced save: give them time. */
const POLL = { timeout: 10_000 };

describe.skipIf(!hasChromium)('hosted checkout in the browser', () => {
  // The buyer's session does not depend on the browser's time, so the server's clock can be moved.
  const clock = new ManualClock();
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let slug: string;
  let token: string;
  let desktop: { id: string };
  let supporter: { id: string };

  const api = (method: 'POST' | 'GET', path: string, body?: object) =>
    apiJson(server, method, path, bearer(token), body);

  async function createCheckout(
    products: string[],
    extra: object = {},
  ): Promise<{ id: string; url: string; client_secret: string }> {
    return api('POST', '/v1/checkouts/', { products, ...extra });
  }

  /** The checkout's `url` on the test server (the harness's base URL has no port). */
  function open(checkout: { url: string }, query = '') {
    return page.goto(`${new URL(checkout.url).pathname}${query}`);
  }

  const summary = () => page.getByRole('region', { name: 'Order summary' });

  /** The amount the summary shows against a label ("Total", "Net", …). */
  function summaryValue(label: string) {
    return summary()
      .locator('dt')
      .filter({ hasText: new RegExp(`^${label.replace(/[()]/g, '\\$&')}$`) })
      .locator('xpath=following-sibling::dd')
      .textContent();
  }

  async function chooseCountry(name: string) {
    await page.getByLabel('Country').click();
    await page.getByRole('option', { name, exact: true }).click();
  }

  async function fillBuyer(email: string) {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await chooseCountry('France');
  }

  async function fillCard(number: string) {
    await page.getByLabel('Card number').fill(number);
    await page.getByLabel('Expiry date').fill('12 / 34');
    await page.getByLabel('Security code').fill('123');
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ listen: true, clock }), launchBrowser()]);
    slug = uniqueSlug('acme');
    ({ token } = await organizationFactory(server, { name: 'Acme Software', slug }));
    const teamName = await api('POST', '/v1/custom-fields/', {
      type: 'text',
      slug: 'team-name',
      name: 'Team name',
      properties: { form_help_text: 'Shown on your license.' },
    });
    desktop = await api('POST', '/v1/products/', {
      name: 'Desktop license',
      description: 'A lifetime license for one seat.',
      recurring_interval: null,
      prices: [{ amount_type: 'fixed', price_amount: 2500, price_currency: 'usd' }],
      attached_custom_fields: [{ custom_field_id: teamName.id, required: true }],
    });
    supporter = await api('POST', '/v1/products/', {
      name: 'Supporter plan',
      recurring_interval: 'month',
      prices: [
        {
          amount_type: 'custom',
          price_currency: 'usd',
          minimum_amount: 500,
          maximum_amount: 10_000,
          preset_amount: 1500,
        },
      ],
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

  it('pays for a product with a test card and thanks the buyer with a link to the portal', async () => {
    const checkout = await createCheckout([desktop.id, supporter.id]);
    await open(checkout);
    await page.getByRole('heading', { name: 'Desktop license' }).waitFor();
    expect(await summaryValue('Total')).toBe('$25.00');
    await screenshot(page, 'checkout-form');
    // On a phone the order comes first, then the form, in one column.
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'checkout-form-mobile');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Paying with nothing filled in: every problem next to its field, the first one focused.
    await page.getByRole('button', { name: 'Pay $25.00' }).click();
    const email = page.getByLabel('Email');
    await expect.poll(() => email.getAttribute('aria-invalid'), POLL).toBe('true');
    await expect
      .poll(() => email.evaluate((element) => element === element.ownerDocument.activeElement), POLL)
      .toBe(true);
    await page.getByText('Enter your email address.').waitFor();
    await page.getByText('This field is required.').waitFor();
    await page.getByText('Enter your card number.').waitFor();
    await screenshot(page, 'checkout-errors');

    await fillBuyer('ada@example.com');
    await page.getByLabel('Team name').fill('Analytical Engines');
    await fillCard('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay $25.00' }).click();

    await page.getByRole('heading', { name: 'Thank you for your purchase!' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/checkout/${checkout.client_secret}/confirmation`);
    await page.getByText('Your order of Desktop license is complete.').waitFor();
    const portal = await page.getByRole('link', { name: 'Open the customer portal' }).getAttribute('href');
    expect(portal).toMatch(new RegExp(`^/portal/${slug}\\?customer_session_token=polar_cst_`));
    await screenshot(page, 'checkout-confirmation');

    // What the buyer answered reached the checkout.
    const saved = await api('GET', `/v1/checkouts/${checkout.id}`);
    expect(saved.status).toBe('succeeded');
    expect(saved.custom_field_data).toEqual({ 'team-name': 'Analytical Engines' });
  });

  it('switches to the pay-what-you-want plan, and the summary follows the amount and a discount code', async () => {
    const checkout = await createCheckout([desktop.id, supporter.id]);
    await open(checkout);
    await page.getByRole('radio', { name: /Supporter plan/ }).check();
    const amount = page.getByLabel('Name a fair price (USD)');
    await expect.poll(() => amount.inputValue(), POLL).toBe('15.00');
    await expect.poll(() => summaryValue('Total'), POLL).toBe('$15.00 / month');
    // The desktop license's question is not asked for this plan.
    expect(await page.getByLabel('Team name').count()).toBe(0);

    await amount.fill('2');
    await page.getByText('Enter at least $5.00.').waitFor();
    await amount.fill('40');
    await expect.poll(() => summaryValue('Total'), POLL).toBe('$40.00 / month');

    const code = page.getByLabel('Discount code');
    await code.fill('NOPE');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Discount does not exist.').waitFor();
    await expect.poll(() => code.getAttribute('aria-invalid'), POLL).toBe('true');

    await code.fill('launch20');
    // Enter applies the code (it does not submit the checkout).
    await code.press('Enter');
    await expect.poll(() => summaryValue('Discount (LAUNCH20)'), POLL).toBe('−$8.00');
    expect(await summaryValue('Net')).toBe('$32.00');
    expect(await summaryValue('Total due today')).toBe('$32.00');
    await page.getByText('Then $40.00 / month before taxes.').waitFor();
    await page.getByText('Applies to the first payment only.').waitFor();
    await screenshot(page, 'checkout-discount');

    await page.getByRole('button', { name: 'Remove discount' }).click();
    await expect.poll(() => summaryValue('Total'), POLL).toBe('$40.00 / month');
    expect(await summary().getByText('Discount (LAUNCH20)', { exact: true }).count()).toBe(0);

    await fillBuyer('grace@example.com');
    await fillCard('4242424242424242');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByText('Your subscription to Supporter plan is active.').waitFor();
  });

  it('says in words that a card was declined, and takes another card', async () => {
    const checkout = await createCheckout([desktop.id]);
    await open(checkout);
    await fillBuyer('bob@example.com');
    await page.getByLabel('Team name').fill('Builders');
    await fillCard('4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Pay $25.00' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The payment failed' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(
      'The payment failed: Your card was declined. Please try again with a different payment method.',
    );
    await screenshot(page, 'checkout-declined');

    await fillCard('4242 4242 4242 4242');
    expect(await alert.count()).toBe(0);
    await page.getByRole('button', { name: 'Pay $25.00' }).click();
    await page.getByRole('heading', { name: 'Thank you for your purchase!' }).waitFor();
  });

  it('3-D Secure test card: the bank’s check in a dialog, failed then completed, charged once', async () => {
    const checkout = await createCheckout([desktop.id]);
    await open(checkout);
    await fillBuyer('secure@example.com');
    await page.getByLabel('Team name').fill('Careful Co');
    await fillCard('4000 0025 0000 3155');
    await page.getByRole('button', { name: 'Pay $25.00' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm your payment' });
    await dialog.waitFor();
    await dialog.getByText('Your bank asks you to confirm this payment of $25.00.').waitFor();
    await screenshot(page, 'checkout-authentication');
    await dialog.getByRole('button', { name: 'Fail authentication' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The payment failed' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('We are unable to authenticate your payment method.');

    await page.getByRole('button', { name: 'Pay $25.00' }).click();
    await dialog.waitFor();
    // The buyer reloads the page before answering: the page offers to finish the same payment.
    await page.reload();
    await page.getByRole('heading', { name: 'Confirm your payment' }).waitFor();
    await page.getByText('Your bank is waiting for you to confirm the payment of $25.00').waitFor();
    await page.getByRole('button', { name: 'Confirm the payment' }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Complete authentication' }).click();
    await page.getByRole('heading', { name: 'Thank you for your purchase!' }).waitFor();
    const portal = await page.getByRole('link', { name: 'Open the customer portal' }).getAttribute('href');
    expect(portal).toMatch(new RegExp(`^/portal/${slug}\\?customer_session_token=polar_cst_`));
    const payments = await api('GET', `/v1/payments/?checkout_id=${checkout.id}`);
    expect(payments.items.map((payment: { status: string }) => payment.status).sort()).toEqual(['failed', 'succeeded']);
    const orders = await server.runtime.database.db
      .selectFrom('orders')
      .select('id')
      .where('checkout_id', '=', checkout.id)
      .execute();
    expect(orders).toHaveLength(1);
  });

  it('a buyer whose email is already a customer’s is told how to reach the portal, without a session', async () => {
    const checkout = await createCheckout([desktop.id]);
    await open(checkout);
    // ada@example.com bought in the first test: this buyer could be anyone typing that address.
    await fillBuyer('ada@example.com');
    await page.getByLabel('Team name').fill('Someone Else');
    await fillCard('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay $25.00' }).click();
    await page.getByRole('heading', { name: 'Thank you for your purchase!' }).waitFor();
    await page.getByText(/sign in there with your email address, and we send you a code/).waitFor();
    expect(await page.getByRole('link', { name: 'Open the customer portal' }).count()).toBe(0);
    expect(page.url()).not.toContain('customer_session_token');
    await screenshot(page, 'checkout-confirmation-known-email');

    // The owner of the address signs in to the portal with the code sent to it.
    await page.getByRole('link', { name: 'Sign in to the customer portal' }).click();
    await page.getByRole('heading', { name: 'Sign in with your email' }).waitFor();
    await page.getByLabel('Email address').fill('ada@example.com');
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByText(/a code is on its way/).waitFor();
    const email = await server.runtime.database.db
      .selectFrom('emails')
      .select('text_body')
      .where('template', '=', 'portal_sign_in_code')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    const code = /is:\s+([A-Z0-9]{6})/.exec(email.text_body)![1]!;
    await page.getByLabel('Sign-in code').fill(code.toLowerCase());
    await screenshot(page, 'portal-email-code');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // Signed in: the portal of the customer who owns the address.
    await page.getByRole('heading', { name: 'Welcome, Ada Lovelace' }).waitFor();
    expect(page.url()).not.toContain('customer_session_token');
  });

  it('tells the embedding page when it has loaded and when the buyer closes it', async () => {
    // The seller's page, served from another origin of this machine.
    let src = '';
    const shop = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(`<!doctype html><title>Shop</title>
        <script>
          window.received = [];
          addEventListener('message', (event) => window.received.push({ origin: event.origin, data: event.data }));
        </script>
        <iframe title="Checkout" src="${src}" style="width: 100%; height: 880px; border: 0"></iframe>`);
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
      const checkout = await createCheckout([desktop.id], { embed_origin: origin });
      src = `${server.url}${new URL(checkout.url).pathname}?embed=true&embed_origin=${encodeURIComponent(origin)}`;
      await page.goto(`${origin}/`);
      const received = () => page.evaluate(() => (globalThis as unknown as { received: unknown[] }).received);
      await expect
        .poll(received, POLL)
        .toEqual([{ origin: server.url, data: { type: 'POLAR_CHECKOUT', event: 'loaded' } }]);
      const frame = page.frameLocator('iframe[title="Checkout"]');
      await frame.getByRole('heading', { name: 'Desktop license' }).waitFor();
      // Minimal chrome: no header with the seller's name, a close button instead.
      expect(await frame.getByRole('banner').count()).toBe(0);
      await screenshot(page, 'checkout-embedded');
      await frame.getByRole('button', { name: 'Close checkout' }).click();
      await expect.poll(async () => (await received()).length, POLL).toBe(2);
      expect((await received())[1]).toEqual({ origin: server.url, data: { type: 'POLAR_CHECKOUT', event: 'close' } });
    } finally {
      await new Promise((resolve) => shop.close(resolve));
    }
  });

  it('shows an expired checkout without a form', async () => {
    const checkout = await createCheckout([desktop.id]);
    clock.advance(DAY_MS + 60_000);
    await open(checkout);
    await page.getByRole('heading', { name: 'This checkout has expired' }).waitFor();
    expect(await page.getByLabel('Email').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Pay/ }).count()).toBe(0);
    await screenshot(page, 'checkout-expired');
  });
});
