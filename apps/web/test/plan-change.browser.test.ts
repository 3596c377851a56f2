import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRANTABLE_SCOPES } from '../../api/src/platform/auth/scopes.js';
import { systemClock } from '../../api/src/platform/clock.js';
import { discountFactory } from '../../api/test/factories/discounts.js';
import { tokenFactory } from '../../api/test/factories/organizations.js';
import { productFactory } from '../../api/test/factories/products.js';
import { subscriptionFactory } from '../../api/test/factories/subscriptions.js';
import { bearer, json, startTestServer, type TestServer } from '../../api/test/harness.js';
import { definitions, hasChromium, launchBrowser, openPage, screenshot, signUp } from './browser.js';

/**
 * Money shown is money charged: the portal's subscription says what the next charge is and what a
 * discount that ends leaves ("first payment $9.00, then $12.00 / month"), and both plan-change dialogs
 * (portal and dashboard) show what the change charges now and at the next renewal before it is
 * confirmed. Subscriptions are minutes old, so the unused time of the period rounds to all of it.
 */
describe.skipIf(!hasChromium)('plan changes previewed in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let organization: { id: string; slug: string };
  let orgToken: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ listen: true, clock: systemClock }), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the seller previews a product change in the dashboard before confirming it', async () => {
    const seller = await openPage(browser, server.url, 30_000);
    try {
      await signUp(seller.page, 'seller-plans@example.com', 'correct horse battery staple', 'Seller Plans');
      organization = await server.runtime.database.db
        .selectFrom('organizations')
        .select(['id', 'slug'])
        .where('name', '=', 'Seller Plans')
        .executeTakeFirstOrThrow();
      orgToken = await tokenFactory(server, organization.id, GRANTABLE_SCOPES);
      const studio = await productFactory(server, organization.id, {
        name: 'Studio plan',
        recurring_interval: 'month',
        prices: [{ amount_type: 'fixed', price_amount: 1200 }],
      });
      await productFactory(server, organization.id, {
        name: 'Team plan',
        recurring_interval: 'month',
        prices: [{ amount_type: 'fixed', price_amount: 3000 }],
      });
      const subscription = await subscriptionFactory(server, organization.id, { productId: studio.product.id });
      const page = seller.page;
      await page.goto(`/dashboard/${organization.slug}/subscriptions/${subscription.id}`);
      await page.getByRole('heading', { name: 'Studio plan' }).waitFor();
      await page.getByRole('button', { name: 'Change product' }).click();
      const dialog = page.getByRole('dialog', { name: 'Change product' });
      await dialog.getByLabel('New product').click();
      await page.getByRole('option', { name: /^Team plan/ }).click();
      const preview = dialog.getByRole('region', { name: 'What will be charged' });
      // Prorate (the default): the unused $12.00 credited and $30.00 for the period join the renewal.
      await preview.getByText('Nothing is charged now.').waitFor();
      await preview.getByText(/^Next renewal on .+: \$48\.00$/).waitFor();
      await dialog.getByLabel('Proration').click();
      await page.getByRole('option', { name: /^Invoice now/ }).click();
      await preview.getByText('Charged now: $18.00').waitFor();
      await preview.getByText(/^Next renewal on .+: \$30\.00$/).waitFor();
      await screenshot(page, 'dashboard-change-product-preview');
      await dialog.getByRole('button', { name: 'Change product' }).click();
      await page.getByText('Subscription moved to Team plan').waitFor();
      const orders = await server.inject({
        method: 'GET',
        url: `/v1/orders/?customer_id=${subscription.customer_id}&sorting=created_at`,
        headers: bearer(orgToken),
      });
      expect(json(orders).items.map((order: { total_amount: number }) => order.total_amount)).toEqual([1200, 1800]);
    } finally {
      await seller.context.close();
    }
  });

  it('the buyer sees the next charge, the price after a once discount, and previews a plan change', async () => {
    const studio = await productFactory(server, organization.id, {
      name: 'Solo plan',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 1200 }],
    });
    const discount = await discountFactory(server, organization.id, { type: 'fixed', duration: 'once', amount: 300 });
    const subscription = await subscriptionFactory(server, organization.id, {
      productId: studio.product.id,
      discountId: discount.id,
    });
    const session = await server.inject({
      method: 'POST',
      url: '/v1/customer-sessions/',
      headers: bearer(orgToken),
      payload: { customer_id: subscription.customer_id },
    });
    const buyer = await openPage(browser, server.url, 30_000);
    try {
      const page = buyer.page;
      await page.goto(`/portal/${organization.slug}?customer_session_token=${json(session).token}`);
      await page.goto(`/portal/${organization.slug}/subscriptions/${subscription.id}`);
      await page.getByRole('heading', { name: 'Solo plan' }).waitFor();
      await page.getByText('Next charge').waitFor();
      let terms = await definitions(page);
      expect(terms.Price).toBe('first payment $9.00, then $12.00 / month');
      expect(terms['Next charge']).toMatch(/^\$12\.00 on /);

      await page.getByRole('button', { name: 'Change plan' }).click();
      const dialog = page.getByRole('dialog', { name: 'Change plan' });
      await dialog.getByLabel('New plan').click();
      await page.getByRole('option', { name: /^Team plan/ }).click();
      const preview = dialog.getByRole('region', { name: 'What will be charged' });
      // The $9.00 paid credited back, $27.00 for the period at the once discount, then $30.00.
      await preview.getByText('Nothing is charged now.').waitFor();
      await preview.getByText(/^Next renewal on .+: \$48\.00$/).waitFor();
      await screenshot(page, 'portal-change-plan-preview');
      await dialog.getByRole('button', { name: 'Change plan' }).click();
      await page.getByText('You are now on Team plan').waitFor();
      await page.getByRole('heading', { name: 'Team plan' }).waitFor();
      await page.getByText(/^\$48\.00 on /).waitFor();
      terms = await definitions(page);
      expect(terms['Next charge']).toMatch(/^\$48\.00 on /);
    } finally {
      await buyer.context.close();
    }
  });
});
