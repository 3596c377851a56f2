import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { CARDS, checkoutFactory, confirmationToken } from '../../api/test/factories/checkouts.js';
import { organizationFactory } from '../../api/test/factories/organizations.js';
import { productFactory } from '../../api/test/factories/products.js';
import { bearer, json, startTestServer, type TestServer } from '../../api/test/harness.js';
import { definitions, hasChromium, launchBrowser, openPage } from './browser.js';

/**
 * One address format: a US buyer's state, stored as `US-CA`, reads "California" on the order and is
 * chosen by name in the portal's profile (the same address form as the checkout's).
 */
describe.skipIf(!hasChromium)('addresses in the browser', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ listen: true, clock: systemClock }), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('names the state on the order and in the profile', async () => {
    const org = await organizationFactory(server, { name: 'Address Co' });
    const { product } = await productFactory(server, org.organization.id, {
      name: 'Field guide',
      recurring_interval: null,
      prices: [{ amount_type: 'fixed', price_amount: 1500 }],
    });
    const checkout = await checkoutFactory(server, org.organization.id, [product.id]);
    const confirmed = await server.inject({
      method: 'POST',
      url: `/v1/checkouts/client/${checkout.client_secret}/confirm`,
      payload: {
        customer_email: 'west@example.com',
        customer_name: 'Sam West',
        customer_billing_address: {
          country: 'US',
          state: 'US-CA',
          line1: '1 Market St',
          city: 'San Francisco',
          postal_code: '94105',
        },
        confirmation_token_id: await confirmationToken(server, CARDS.visa),
      },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const token = json(confirmed).customer_session_token as string;
    const orders = await server.inject({ method: 'GET', url: '/v1/orders/', headers: bearer(org.token) });
    const order = json(orders).items[0];

    const buyer = await openPage(browser, server.url, 30_000);
    try {
      const page = buyer.page;
      await page.goto(`/portal/${org.organization.slug}?customer_session_token=${token}`);
      await page.goto(`/portal/${org.organization.slug}/orders/${order.id}`);
      await page.getByText('San Francisco', { exact: false }).first().waitFor();
      const address = (await definitions(page)).Address ?? '';
      expect(address).toContain('California');
      expect(address).not.toContain('US-CA');

      await page.goto(`/portal/${org.organization.slug}/profile`);
      await page.getByRole('heading', { name: 'Profile' }).waitFor();
      const state = page.getByLabel('State (optional)');
      await state.waitFor();
      expect(await state.textContent()).toContain('California');
    } finally {
      await buyer.context.close();
    }
  });
});
