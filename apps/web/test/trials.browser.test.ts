import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { uniqueSlug } from '../../api/test/factories/organizations.js';
import { userFactory, type UserFixture } from '../../api/test/factories/users.js';
import { bearer, startTestServer, type TestServer } from '../../api/test/harness.js';
import {
  dashboardLink,
  definitions,
  expectNoSeriousA11yViolations,
  hasChromium,
  launchBrowser,
  openPage,
  screenshot,
} from './browser.js';
import { apiJson } from './purchases.js';

/**
 * Free trials in a real browser against the real server (docs/trials.md): the hosted checkout says what
 * the trial gives and starts it with nothing charged, the thank-you page and the portal show when it
 * ends, and a card-less trial asks for a card in the portal.
 */
/** Saving a card goes to the processor and back: the page may take a few seconds on a busy machine. */
const POLL = { timeout: 20_000 };

describe.skipIf(!hasChromium)('free trials in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let token: string;
  let seller: UserFixture;
  let withCard: { id: string };
  let cardless: { id: string };

  const api = (method: 'POST' | 'GET', path: string, body?: object) =>
    apiJson(server, method, path, bearer(token), body);

  const summary = () => page.getByRole('region', { name: 'Order summary' });

  async function startCheckout(productId: string) {
    const checkout = await api('POST', '/v1/checkouts/', { products: [productId] });
    await page.goto(new URL(checkout.url).pathname);
    return checkout as { id: string; client_secret: string };
  }

  async function fillBuyer(email: string) {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
  }

  /** The portal opened from the thank-you page, on the subscription's page. */
  async function openPortalSubscription(name: string) {
    await page.getByRole('link', { name: 'Open the customer portal' }).click();
    await page
      .getByRole('navigation', { name: 'Customer portal' })
      .getByRole('link', { name: 'Subscriptions', exact: true })
      .click();
    await page.getByRole('table', { name: 'Subscriptions' }).getByRole('link', { name }).click();
    await page.getByRole('heading', { name, exact: true }).waitFor();
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ listen: true, clock: systemClock }), launchBrowser()]);
    seller = await userFactory(server, { email: 'trials-seller@example.com' });
    const organization = await apiJson(server, 'POST', '/v1/organizations/', seller.headers, {
      name: 'Acme Trials',
      slug: uniqueSlug('acme-trials'),
    });
    ({ token } = await apiJson(server, 'POST', '/v1/organization-access-tokens/', seller.headers, {
      organization_id: organization.id,
      comment: 'shop backend',
      scopes: [
        'products:read',
        'products:write',
        'checkouts:read',
        'checkouts:write',
        'subscriptions:read',
        'payments:read',
      ],
    }));
    withCard = await api('POST', '/v1/products/', {
      name: 'Team plan',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 1200, price_currency: 'usd' }],
      trial_interval: 'day',
      trial_interval_count: 14,
    });
    cardless = await api('POST', '/v1/products/', {
      name: 'Starter plan',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 900, price_currency: 'usd' }],
      trial_interval: 'week',
      trial_interval_count: 2,
      trial_requires_payment_method: false,
    });
    ({ page } = await openPage(browser, server.url, 20_000));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('starts a trial with a card: free for 14 days, nothing due today, then the portal shows its end', async () => {
    const checkout = await startCheckout(withCard.id);
    await summary().getByText('Free for 14 days, then $12.00 / month').waitFor();
    expect((await definitions(page))['Total due today']).toBe('$0.00');
    await expectNoSeriousA11yViolations(page, 'trial checkout');
    await screenshot(page, 'trial-checkout');

    await fillBuyer('ada-trial@example.com');
    await page.getByLabel('Country').click();
    await page.getByRole('option', { name: 'France', exact: true }).click();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry date').fill('12 / 34');
    await page.getByLabel('Security code').fill('123');
    expect(await page.getByRole('button', { name: /^Pay/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Start trial' }).click();

    await page.getByRole('heading', { name: 'Your free trial has started!' }).waitFor(POLL);
    await page.getByText('Free for 14 days, then $12.00 / month. Nothing was charged today.').waitFor();
    await expect.poll(async () => (await definitions(page))['Free trial ends'] ?? '', POLL).toMatch(/\d{4}$/);
    expect((await definitions(page))['Amount paid']).toBe('Free');
    await expectNoSeriousA11yViolations(page, 'trial thank-you page');
    await screenshot(page, 'trial-confirmation');

    // The API: trialing, nothing paid, no order.
    const subscriptions = await api('GET', `/v1/subscriptions/?limit=10`);
    const started = subscriptions.items.find((s: { checkout_id: string }) => s.checkout_id === checkout.id);
    expect(started).toMatchObject({ status: 'trialing', amount: 1200 });
    const payments = await api('GET', `/v1/payments/?customer_id=${started.customer_id}`);
    expect(payments.items).toEqual([]);

    await openPortalSubscription('Team plan');
    await page.getByText(/^Free trial until .*\d{4}, then \$12\.00 \/ month\.$/).waitFor();
    const details = await definitions(page);
    expect(details['Status']).toMatch(/^Trial until .*\d{4}$/);
    expect(details['Free trial']).toMatch(/\d{4} – .*\d{4}$/);
    // A card was saved at checkout: nothing to ask.
    expect(await page.getByText(/Add a card to keep/).count()).toBe(0);
    await expectNoSeriousA11yViolations(page, 'portal trial subscription');
    await screenshot(page, 'trial-portal');
  }, 120_000);

  it('starts a card-less trial without a card form, and the portal asks for a card', async () => {
    // Another buyer, in a browser of their own.
    ({ page } = await openPage(browser, server.url, 20_000));
    await startCheckout(cardless.id);
    await summary().getByText('Free for 2 weeks, then $9.00 / month').waitFor();
    expect(await page.getByLabel('Card number').count()).toBe(0);
    await fillBuyer('grace-trial@example.com');
    await page.getByRole('button', { name: 'Start trial' }).click();

    await page.getByRole('heading', { name: 'Your free trial has started!' }).waitFor(POLL);
    await page.getByText(/No card was asked for/).waitFor();
    await expectNoSeriousA11yViolations(page, 'card-less trial thank-you page');

    await openPortalSubscription('Starter plan');
    await page.getByText('Add a card to keep Starter plan after your trial.').waitFor(POLL);
    await expectNoSeriousA11yViolations(page, 'portal card-less trial');
    await screenshot(page, 'trial-portal-cardless');
    await page.getByRole('main').getByRole('link', { name: 'Payment methods' }).click();
    await page.getByRole('heading', { name: 'Payment methods', exact: true }).waitFor();
  }, 120_000);

  it('shows the seller the trial and its end, in the list and on the subscription page', async () => {
    ({ page } = await openPage(browser, server.url, 20_000));
    await page.goto('/login');
    await page.getByLabel('Email').fill(seller.email);
    await page.getByLabel('Password').fill(seller.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor(POLL);
    await dashboardLink(page, 'Subscriptions').click();
    const row = page.getByRole('table', { name: 'Subscriptions' }).getByRole('row').filter({ hasText: 'Team plan' });
    await expect
      .poll(async () => ((await row.count()) > 0 ? row.first().textContent() : ''), POLL)
      .toMatch(/Trial until .*\d{4}/);
    await expectNoSeriousA11yViolations(page, 'dashboard subscriptions with trials');
    await row.first().getByRole('link', { name: 'Team plan' }).click();
    await page.getByText(/^Free trial until .*\d{4}; the first period is charged then\.$/).waitFor(POLL);
    expect((await definitions(page))['Free trial']).toMatch(/\d{4} – .*\d{4}$/);
    await expectNoSeriousA11yViolations(page, 'dashboard trial subscription');
    await screenshot(page, 'trial-dashboard');
  }, 120_000);
});
