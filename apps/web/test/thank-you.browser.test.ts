import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { storedPropertiesFor, waitForGrant } from '../../api/test/factories/benefit-grants.js';
import { benefitFactory } from '../../api/test/factories/benefits.js';
import { ADDRESS, CARDS, checkoutFactory, confirmationToken } from '../../api/test/factories/checkouts.js';
import { organizationFactory } from '../../api/test/factories/organizations.js';
import { productFactory } from '../../api/test/factories/products.js';
import { bearer, json, startTestServer, type TestServer } from '../../api/test/harness.js';
import { hasChromium, launchBrowser, openPage, screenshot } from './browser.js';

/**
 * The thank-you page says what the buyer got: the amount paid, what was bought, the next charge of a
 * subscription, the license key granted, and a link to the receipt.
 */
describe.skipIf(!hasChromium)('the thank-you page in the browser', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ listen: true, clock: systemClock }), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a subscription with a license key: amount, plan, next charge, key and receipt', async () => {
    const org = await organizationFactory(server, { name: 'Thanks Co' });
    const keys = await benefitFactory(server, org.organization.id, {
      type: 'license_keys',
      description: 'Desktop app license',
      properties: await storedPropertiesFor(server, org.organization.id, 'license_keys'),
    });
    const { product } = await productFactory(server, org.organization.id, {
      name: 'Studio plan',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 1200 }],
    });
    const attached = await server.inject({
      method: 'POST',
      url: `/v1/products/${product.id}/benefits`,
      headers: bearer(org.token),
      payload: { benefits: [keys.id] },
    });
    expect(attached.statusCode).toBe(200);
    const checkout = await checkoutFactory(server, org.organization.id, [product.id]);
    const confirmed = await server.inject({
      method: 'POST',
      url: `/v1/checkouts/client/${checkout.client_secret}/confirm`,
      payload: {
        customer_email: 'thanks-buyer@example.com',
        customer_name: 'Sam Buyer',
        customer_billing_address: ADDRESS,
        confirmation_token_id: await confirmationToken(server, CARDS.visa),
      },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const token = json(confirmed).customer_session_token as string;
    expect(token).toBeTruthy();

    const buyer = await openPage(browser, server.url, 30_000);
    try {
      const page = buyer.page;
      await page.goto(`/checkout/${checkout.client_secret}/confirmation?customer_session_token=${token}`);
      await page.getByRole('heading', { name: 'Thank you for your purchase!' }).waitFor();
      const summary = page.getByLabel('Your purchase', { exact: true });
      await summary.getByText('Next charge').waitFor();
      const text = await summary.textContent();
      expect(text).toContain('Studio plan · $12.00 / month');
      expect(text).toContain('Amount paid$12.00');
      expect(text).toMatch(/Next charge[A-Z][a-z]{2} \d{1,2}, \d{4}/);

      const customer = await server.runtime.database.db
        .selectFrom('customers')
        .select('id')
        .where('email', '=', 'thanks-buyer@example.com')
        .executeTakeFirstOrThrow();
      await waitForGrant(server, customer.id, keys.id, (grant) => grant.granted_at !== null);
      const key = await server.runtime.database.db
        .selectFrom('license_keys')
        .select('key')
        .where('customer_id', '=', customer.id)
        .executeTakeFirstOrThrow();
      await page.getByRole('region', { name: 'License keys' }).getByText(key.key, { exact: true }).waitFor();
      await screenshot(page, 'checkout-thank-you');

      await page.getByRole('link', { name: 'View your receipt' }).click();
      await page.getByRole('heading', { name: /Studio plan/ }).waitFor();
      expect(new URL(page.url()).pathname).toMatch(new RegExp(`^/portal/${org.organization.slug}/orders/`));
    } finally {
      await buyer.context.close();
    }
  });
});
