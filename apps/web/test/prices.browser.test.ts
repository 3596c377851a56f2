import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRANTABLE_SCOPES } from '../../api/src/platform/auth/scopes.js';
import { systemClock } from '../../api/src/platform/clock.js';
import { discountFactory } from '../../api/test/factories/discounts.js';
import { tokenFactory } from '../../api/test/factories/organizations.js';
import { productFactory } from '../../api/test/factories/products.js';
import { subscriptionFactory } from '../../api/test/factories/subscriptions.js';
import { startTestServer, type TestServer } from '../../api/test/harness.js';
import { definitions, hasChromium, launchBrowser, openPage, screenshot, signUp } from './browser.js';

/**
 * Prices shown as they will be charged: a $12.00 / month plan bought with a once $3.00 discount reads
 * "first payment $9.00, then $12.00 / month" on the seller's subscription page, not "$9.00 / month".
 */
describe.skipIf(!hasChromium)('subscription prices in the browser', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ listen: true, clock: systemClock }), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a once discount: first payment at the discount, then the plan price', async () => {
    const seller = await openPage(browser, server.url, 30_000);
    try {
      await signUp(seller.page, 'seller-prices@example.com', 'correct horse battery staple', 'Seller Prices');
      const organization = await server.runtime.database.db
        .selectFrom('organizations')
        .selectAll()
        .where('name', '=', 'Seller Prices')
        .executeTakeFirstOrThrow();
      await tokenFactory(server, organization.id, GRANTABLE_SCOPES);
      const plan = await productFactory(server, organization.id, {
        name: 'Studio plan',
        recurring_interval: 'month',
        prices: [{ amount_type: 'fixed', price_amount: 1200 }],
      });
      const discount = await discountFactory(server, organization.id, { type: 'fixed', duration: 'once', amount: 300 });
      const subscription = await subscriptionFactory(server, organization.id, {
        productId: plan.product.id,
        discountId: discount.id,
      });
      expect(subscription.amount).toBe(900);
      await seller.page.goto(`/dashboard/${organization.slug}/subscriptions/${subscription.id}`);
      await seller.page.getByRole('heading', { name: 'Studio plan' }).waitFor();
      expect((await definitions(seller.page)).Amount).toBe('first payment $9.00, then $12.00 / month');
      await screenshot(seller.page, 'dashboard-subscription-once-discount');
    } finally {
      await seller.context.close();
    }
  });
});
