import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { typedBenefitFactory, waitForGrant } from '../../api/test/factories/benefit-grants.js';
import { ADDRESS, confirmationToken } from '../../api/test/factories/checkouts.js';
import { userFactory, type UserFixture } from '../../api/test/factories/users.js';
import { bearer, json, startTestServer, type TestServer } from '../../api/test/harness.js';
import { dashboardLink, definitions, hasChromium, launchBrowser, openPage, screenshot } from './browser.js';

/**
 * A seller refunds an order from the dashboard, in part then in full: the dialog (amount excluding tax,
 * reason, revoking the benefits of a one-time order), the order's refunded amounts and status, its
 * refunds, the Refunds page, and the refunded state in the orders list and on the customer's page. A
 * subscription order's dialog offers no revocation.
 */
const SLUG = 'acme-refunds';
const ADA = 'ada@example.com';

describe.skipIf(!hasChromium)('refunds in the dashboard', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let seller: UserFixture;
  let organizationId: string;
  let guideOrderId: string;
  let customerId: string;
  let benefitId: string;
  let subscriptionOrderId: string;

  async function api(method: 'POST' | 'GET', url: string, headers: Record<string, string>, payload?: object) {
    const response = await server.inject({ method, url, headers, payload });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return json(response);
  }

  /** A purchase as the hosted checkout makes it; answers the order. */
  async function buy(token: string, productId: string) {
    const checkout = await api('POST', '/v1/checkouts/', bearer(token), { products: [productId] });
    await api(
      'POST',
      `/v1/checkouts/client/${checkout.client_secret}/confirm`,
      {},
      {
        customer_email: ADA,
        customer_name: 'Ada Lovelace',
        customer_billing_address: ADDRESS,
        confirmation_token_id: await confirmationToken(server),
      },
    );
    return server.runtime.database.db
      .selectFrom('orders')
      .selectAll()
      .where('checkout_id', '=', checkout.id)
      .executeTakeFirstOrThrow();
  }

  async function seed() {
    seller = await userFactory(server, { email: 'seller@example.com' });
    const organization = await api('POST', '/v1/organizations/', seller.headers, { name: 'Acme Refunds', slug: SLUG });
    organizationId = organization.id;
    const { token } = await api('POST', '/v1/organization-access-tokens/', seller.headers, {
      organization_id: organization.id,
      comment: 'shop backend',
      scopes: ['products:read', 'products:write', 'checkouts:read', 'checkouts:write'],
    });
    const product = (name: string, amount: number, interval: 'month' | null) =>
      api('POST', '/v1/products/', bearer(token), {
        name,
        recurring_interval: interval,
        prices: [{ amount_type: 'fixed', price_amount: amount, price_currency: 'usd' }],
      });
    const guide = await product('Field guide', 1500, null);
    benefitId = (await typedBenefitFactory(server, organizationId, 'custom')).id;
    await api('POST', `/v1/products/${guide.id}/benefits`, seller.headers, { benefits: [benefitId] });
    const pro = await product('Pro plan', 2500, 'month');
    const guideOrder = await buy(token, guide.id);
    guideOrderId = guideOrder.id;
    customerId = guideOrder.customer_id;
    subscriptionOrderId = (await buy(token, pro.id)).id;
    await waitForGrant(server, customerId, benefitId, (grant) => grant.granted_at !== null);
  }

  const nav = (name: string) => dashboardLink(page, name);
  const dialog = () => page.getByRole('dialog', { name: 'Refund order' });

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      // The browser expires the session cookie by the real time, so the server runs on it too.
      startTestServer({ listen: true, clock: systemClock }),
      launchBrowser(),
    ]);
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
  });

  it('refunds part of a one-time order, then the rest with its benefits revoked', async () => {
    await page.goto(`/dashboard/${SLUG}/orders/${guideOrderId}`);
    await page.getByRole('heading', { name: 'Order of Field guide' }).waitFor();
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog().waitFor();
    expect(await dialog().textContent()).toContain('Up to $15.00 is left to refund, excluding tax.');
    const amount = dialog().getByLabel('Amount (USD, excluding tax)');
    expect(await amount.inputValue()).toBe('15.00');

    // The form's own checks: more than is left, or nothing.
    await amount.fill('20');
    await dialog().getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog().getByText('The amount is more than is left to refund.').waitFor();
    await amount.fill('0');
    await dialog().getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog().getByText('The amount must be more than zero.').waitFor();

    await amount.fill('5.00');
    await dialog().getByLabel('Reason', { exact: true }).click();
    await page.getByRole('option', { name: 'Duplicate', exact: true }).click();
    await dialog().getByLabel('Comment').fill('Bought twice');
    await screenshot(page, 'refund-dialog');
    await dialog().getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByText('Refunded $5.00').waitFor();
    await dialog().waitFor({ state: 'detached' });

    await expect.poll(async () => (await definitions(page)).Status).toBe('Partially refunded');
    expect((await definitions(page)).Refunded).toBe('$5.00 (tax $0.00)');
    const refunds = page.getByRole('table', { name: 'Refunds' });
    await expect.poll(() => refunds.getByRole('row').count()).toBe(2);
    expect(await refunds.getByRole('row').nth(1).textContent()).toMatch(/\$5\.00.*Succeeded.*Duplicate.*Kept/);

    // The rest, with the order's benefits revoked.
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    expect(await dialog().getByLabel('Amount (USD, excluding tax)').inputValue()).toBe('10.00');
    await dialog().getByLabel('Revoke the benefits of this order').check();
    await dialog().getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByText('Refunded $10.00').waitFor();
    await expect.poll(async () => (await definitions(page)).Status).toBe('Refunded');
    expect((await definitions(page)).Refunded).toBe('$15.00 (tax $0.00)');
    await expect.poll(() => refunds.getByRole('row').count()).toBe(3);
    expect(await page.getByRole('button', { name: 'Refund', exact: true }).isDisabled()).toBe(true);
    await screenshot(page, 'order-refunded');
    await waitForGrant(server, customerId, benefitId, (grant) => grant.revoked_at !== null);

    const order = await api('GET', `/v1/orders/${guideOrderId}`, seller.headers);
    expect(order).toMatchObject({ status: 'refunded', refunded_amount: 1500 });
  });

  it('offers no revocation for a subscription order', async () => {
    await page.goto(`/dashboard/${SLUG}/orders/${subscriptionOrderId}`);
    await page.getByRole('heading', { name: 'Order of Pro plan' }).waitFor();
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog().waitFor();
    expect(await dialog().getByLabel('Revoke the benefits of this order').count()).toBe(0);
    await dialog().getByLabel('Amount (USD, excluding tax)').fill('2.50');
    await dialog().getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByText('Refunded $2.50').waitFor();
    await expect.poll(async () => (await definitions(page)).Status).toBe('Partially refunded');
  });

  it('lists the refunds, and shows the refunded state in the orders list and on the customer page', async () => {
    await nav('Refunds').click();
    await page.getByRole('heading', { name: 'Refunds', exact: true }).waitFor();
    const table = page.getByRole('table', { name: 'Refunds' });
    await expect.poll(() => table.getByRole('row').count()).toBe(4);
    expect(await table.getByRole('row').nth(1).textContent()).toContain('$2.50');
    await screenshot(page, 'refunds');

    await nav('Orders').click();
    const orders = page.getByRole('table', { name: 'Orders' });
    await expect.poll(() => orders.getByRole('row').count()).toBe(3);
    const guide = orders.getByRole('row').filter({ hasText: 'Field guide' });
    expect(await guide.textContent()).toContain('Refunded');
    expect(await guide.textContent()).toContain('−$15.00 refunded');
    const pro = orders.getByRole('row').filter({ hasText: 'Pro plan' });
    expect(await pro.textContent()).toContain('Partially refunded');
    expect(await pro.textContent()).toContain('−$2.50 refunded');

    await page.goto(`/dashboard/${SLUG}/customers/${customerId}`);
    const customerOrders = page.getByRole('table', { name: 'Orders' });
    // The customer page loads its timeline and lists together: give them the time a page takes.
    await expect.poll(() => customerOrders.getByRole('row').count(), { timeout: 10_000 }).toBe(3);
    expect(await customerOrders.textContent()).toContain('Partially refunded');
    expect(await customerOrders.textContent()).toContain('−$15.00 refunded');
  });
});
