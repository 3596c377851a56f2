import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { WebhookReceiver } from '../../api/test/factories/webhooks.js';
import { userFactory, type UserFixture } from '../../api/test/factories/users.js';
import { bearer, startTestServer, type TestServer } from '../../api/test/harness.js';
import { expectNoSeriousA11yViolations, hasChromium, launchBrowser, openPage, screenshot } from './browser.js';
import { apiJson, purchase } from './purchases.js';

/**
 * What a seller reads about its business beyond the lists: a customer's timeline, lifetime value, edit
 * and delete; a subscription's history and upcoming renewal; a webhook endpoint's test event; checkout
 * links' visits and conversion. Seeded through the API, checked in a real browser with axe.
 */
const SLUG = 'acme-insights';
const ADA = 'ada@example.com';

describe.skipIf(!hasChromium)('seller insights in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let seller: UserFixture;
  let receiver: WebhookReceiver;
  let token: string;
  let customerId: string;
  let subscriptionId: string;
  let endpointId: string;

  const api = (method: 'POST' | 'GET' | 'PATCH', url: string, headers: Record<string, string>, payload?: object) =>
    apiJson(server, method, url, headers, payload);
  const path = (rest: string) => `/dashboard/${SLUG}${rest}`;

  async function seed() {
    seller = await userFactory(server, { email: 'seller@example.com' });
    const organization = await api('POST', '/v1/organizations/', seller.headers, { name: 'Acme', slug: SLUG });
    ({ token } = await api('POST', '/v1/organization-access-tokens/', seller.headers, {
      organization_id: organization.id,
      comment: 'shop backend',
      scopes: [
        'products:write',
        'checkouts:write',
        'checkout_links:write',
        'customers:read',
        'subscriptions:write',
        'webhooks:write',
      ],
    }));
    const pro = await api('POST', '/v1/products/', bearer(token), {
      name: 'Pro plan',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 2500, price_currency: 'usd' }],
    });
    expect(await purchase(server, token, pro.id, { email: ADA, name: 'Ada Lovelace' })).toBe(200);
    const subscriptions = await api('GET', '/v1/subscriptions/', bearer(token));
    subscriptionId = subscriptions.items[0].id;
    customerId = subscriptions.items[0].customer_id;
    const link = await api('POST', '/v1/checkout-links/', bearer(token), { products: [pro.id], label: 'Newsletter' });
    for (let i = 0; i < 4; i++) {
      const opened = await server.inject({ method: 'GET', url: `/v1/checkout-links/${link.client_secret}/redirect` });
      expect(opened.statusCode).toBe(307);
    }
    const endpoint = await api('POST', '/v1/webhooks/endpoints', bearer(token), {
      url: `${receiver.url}/hook`,
      format: 'raw',
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      events: ['order.paid'],
    });
    endpointId = endpoint.id;
  }

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    [server, browser] = await Promise.all([startTestServer({ listen: true, clock: systemClock }), launchBrowser()]);
    await seed();
    ({ page } = await openPage(browser, server.url));
    await page.goto('/login');
    await page.getByLabel('Email').fill(seller.email);
    await page.getByLabel('Password').fill(seller.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await receiver?.stop();
  });

  it("shows a subscription's upcoming renewal and its history with the cancellation reason", async () => {
    await page.goto(path(`/subscriptions/${subscriptionId}`));
    const renewal = page.getByText(/\$25\.00 on /);
    await renewal.waitFor();
    const history = page.getByRole('list', { name: 'History' });
    await history.getByText('Started').waitFor();
    await expectNoSeriousA11yViolations(page, 'subscription with history');

    await api('PATCH', `/v1/subscriptions/${subscriptionId}`, bearer(token), {
      cancel_at_period_end: true,
      customer_cancellation_reason: 'too_expensive',
      customer_cancellation_comment: 'Budget cuts',
    });
    await page.reload();
    await history.getByText('Canceled', { exact: true }).waitFor();
    expect(await history.textContent()).toContain('reason: Too expensive · “Budget cuts”');
    await page.getByText(/No renewal: the subscription ends on/).waitFor();
    await screenshot(page, 'subscription-history');
  });

  it("shows a customer's timeline and lifetime value, and edits the customer", async () => {
    await page.goto(path(`/customers/${customerId}`));
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await timeline.getByText('Order $25.00').waitFor();
    expect(await timeline.textContent()).toContain('Payment received: $25.00');
    expect(await timeline.textContent()).toContain('Subscription canceled');
    await page.getByText('$25.00 paid − $0.00 refunded').waitFor();
    await expectNoSeriousA11yViolations(page, 'customer with timeline');

    await page.getByRole('button', { name: 'Edit customer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit customer' });
    await dialog.getByLabel('Name').fill('Ada King');
    await dialog.getByLabel('Metadata (optional)').fill('tier: gold\nbroken line');
    await dialog.getByRole('button', { name: 'Save customer' }).click();
    await dialog.getByText('Write each line as key: value (line 2).').waitFor();
    await expectNoSeriousA11yViolations(page, 'customer edit dialog');
    await dialog.getByLabel('Metadata (optional)').fill('tier: gold');
    await dialog.getByRole('button', { name: 'Save customer' }).click();
    await page.getByRole('heading', { name: 'Ada King' }).waitFor();
    const saved = await api('GET', `/v1/customers/${customerId}`, bearer(token));
    expect(saved).toMatchObject({ name: 'Ada King', metadata: { tier: 'gold' } });
    await screenshot(page, 'customer-timeline');
  });

  it('sends a test event to a webhook endpoint and lists its delivery', async () => {
    await page.goto(path(`/settings/webhooks/${endpointId}`));
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await expect.poll(() => receiver.ofType('webhook.test').length, { timeout: 20_000 }).toBe(1);
    const deliveries = page.getByRole('table', { name: /deliveries/i });
    await expect.poll(() => deliveries.getByRole('row').count(), { timeout: 20_000 }).toBeGreaterThan(1);
    await expectNoSeriousA11yViolations(page, 'webhook endpoint test event');
  });

  it("shows checkout links' visits, checkouts and conversion", async () => {
    await page.goto(path('/checkout-links'));
    const row = page.getByRole('table', { name: 'Checkout links' }).getByRole('row').filter({ hasText: 'Newsletter' });
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    // Visits, started, completed, conversion (the purchase above went through a checkout, not the link).
    expect(cells.slice(3, 7)).toEqual(['4', '0', '0', '0%']);
    await expectNoSeriousA11yViolations(page, 'checkout links with stats');
  });

  it('deletes the customer after a confirmation', async () => {
    await page.goto(path(`/customers/${customerId}`));
    await page.getByRole('button', { name: 'Delete customer' }).click();
    const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog'));
    await confirm.getByText(/subscriptions are revoked at once/).waitFor();
    await confirm.getByRole('button', { name: 'Delete customer' }).click();
    await page.getByRole('heading', { name: 'Customers', exact: true }).waitFor();
    const gone = await server.inject({ method: 'GET', url: `/v1/customers/${customerId}`, headers: bearer(token) });
    expect(gone.statusCode).toBe(404);
  });
});
