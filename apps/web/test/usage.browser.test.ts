import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { userFactory, type UserFixture } from '../../api/test/factories/users.js';
import { bearer, json, startTestServer, type TestServer } from '../../api/test/harness.js';
import { dashboardLink, definitions, hasChromium, launchBrowser, openPage, screenshot } from './browser.js';

/**
 * Usage in a real browser against the real server: the seller creates a meter in the dashboard, the
 * seller's backend ingests events with an organization access token (as an integration does), the seller
 * sees the quantities, the customers of the meter and the events, and the customer sees the usage in the
 * customer portal (a session opened through the API).
 */
const SLUG = 'acme-usage';
const ADA = 'ada@example.com';
const METER = 'API calls';

describe.skipIf(!hasChromium)('usage in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let seller: UserFixture;
  let token: string;
  let customerId: string;

  async function api(method: 'POST' | 'GET' | 'PATCH', url: string, headers: Record<string, string>, payload?: object) {
    const response = await server.inject({ method, url, headers, payload });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return json(response);
  }

  async function seed() {
    seller = await userFactory(server, { email: 'seller@example.com' });
    const organization = await api('POST', '/v1/organizations/', seller.headers, { name: 'Acme Usage', slug: SLUG });
    ({ token } = await api('POST', '/v1/organization-access-tokens/', seller.headers, {
      organization_id: organization.id,
      comment: 'usage backend',
      scopes: ['customers:write', 'events:write', 'customer_sessions:write'],
    }));
    const customer = await api('POST', '/v1/customers/', bearer(token), {
      email: ADA,
      name: 'Ada Lovelace',
      external_id: 'user_ada',
    });
    customerId = customer.id;
    // Meter credit benefits need usage-based billing switched on.
    await api('PATCH', `/v1/organizations/${organization.id}`, seller.headers, {
      feature_settings: { usage_based_billing_enabled: true },
    });
  }

  /** Events sent by the seller's backend: three API calls of Ada (one by her external id) and a login. */
  async function ingest() {
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
    const answer = await api('POST', '/v1/events/ingest', bearer(token), {
      events: [
        { name: 'api_call', customer_id: customerId, timestamp: at(3), metadata: { region: 'eu-west', tokens: 120 } },
        { name: 'api_call', customer_id: customerId, timestamp: at(2), metadata: { region: 'us-east', tokens: 80 } },
        { name: 'api_call', external_customer_id: 'user_ada', timestamp: at(1), metadata: { region: 'eu-north' } },
        { name: 'login', customer_id: customerId, timestamp: at(1), metadata: { region: 'eu-west' } },
      ],
    });
    expect(answer).toMatchObject({ inserted: 4 });
  }

  const nav = (name: string) => dashboardLink(page, name);

  /** True when the page is no wider than its viewport (nothing scrolls sideways). */
  const fitsViewport = () => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      // The browser expires the session cookie by the real time, and events may not be in the future.
      startTestServer({ listen: true, clock: systemClock }),
      launchBrowser(),
    ]);
    await seed();
    ({ page } = await openPage(browser, server.url));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signs in and finds no meter yet', async () => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(seller.email);
    await page.getByLabel('Password').fill(seller.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
    await nav('Meters').click();
    await page.getByRole('heading', { name: 'Meters', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'No meters yet' }).waitFor();
  });

  it('creates a meter with the filter builder, from the keyboard, and opens it', async () => {
    await page.getByRole('button', { name: 'New meter' }).click();
    const dialog = page.getByRole('dialog', { name: 'New meter' });
    await dialog.getByLabel('Meter name').fill(METER);
    await dialog.getByLabel('Property of condition 1').fill('name');
    await dialog.getByLabel('Value of condition 1').fill('api_call');
    // A nested "any of" group: calls from Europe or from the US.
    await dialog.getByRole('button', { name: 'Add “any of” group' }).click();
    await dialog.getByLabel('Property of condition 2.1').fill('region');
    await dialog.getByLabel('Operator of condition 2.1').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('option', { name: 'contains', exact: true }).click();
    await dialog.getByLabel('Value of condition 2.1').fill('eu-');
    await dialog.getByRole('button', { name: 'Add condition to group 2' }).click();
    await dialog.getByLabel('Property of condition 2.2').fill('region');
    await dialog.getByLabel('Value of condition 2.2').fill('us-east');
    await screenshot(page, 'usage-meter-form');
    await dialog.getByRole('button', { name: 'Create meter' }).click();

    await page.getByRole('heading', { name: METER, exact: true }).waitFor();
    const terms = await definitions(page);
    expect(terms.Counts).toBe('Count of events');
    expect(terms.Filter).toBe('name = "api_call" and (region contains "eu-" or region = "us-east")');
    const chart = page.getByRole('figure', { name: /API calls, daily from .*: 0 units in total/ });
    await chart.waitFor();
    await page.getByRole('heading', { name: 'No customer usage yet' }).waitFor();
  });

  it('charts the ingested usage and lists the customer with what was consumed', async () => {
    await ingest();
    await page.reload();
    const chart = page.getByRole('figure', { name: /API calls, daily from .*: 3 units in total/ });
    await chart.waitFor();
    const today = await chart.getByRole('table').getByRole('row').last().textContent();
    expect(today).toContain('3');

    const customers = page.getByRole('table', { name: `Customers of ${METER}` });
    const row = customers.getByRole('row').filter({ hasText: ADA });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([ADA, '3', '0', '-3']);

    // Hourly over the default two days: the same three units.
    await page.getByLabel('Interval').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('option', { name: 'Hourly' }).click();
    await page.getByRole('figure', { name: /API calls, hourly from .*: 3 units in total/ }).waitFor();
    await screenshot(page, 'usage-meter');
  });

  it('refuses, in words, a new filter once the meter has counted usage', async () => {
    await page.getByRole('button', { name: 'Edit meter' }).click();
    const dialog = page.getByRole('dialog', { name: `Edit ${METER}` });
    await dialog.getByLabel('Value of condition 1').fill('api_request');
    await dialog.getByRole('button', { name: 'Save meter' }).click();
    const alert = dialog.getByRole('alert');
    await alert.getByText('What this meter counts can no longer change').waitFor();
    expect(await alert.textContent()).toContain('already aggregating events');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const terms = await definitions(page);
    expect(terms.Filter).toContain('name = "api_call"');
  });

  it('explores the events: names with occurrences, a metadata search, one event', async () => {
    await page.getByRole('link', { name: 'Events this meter counts' }).click();
    await page.getByRole('heading', { name: 'Events', exact: true }).waitFor();
    const events = page.getByRole('table', { name: 'Events' });
    await expect.poll(() => events.getByRole('row').count()).toBe(4);
    await page.getByRole('button', { name: 'Show all events' }).click();
    await expect.poll(() => events.getByRole('row').count()).toBe(5);

    const names = page.getByRole('table', { name: 'Event names' });
    const calls = names.getByRole('row').filter({ hasText: 'api_call' });
    await calls.waitFor();
    expect(await calls.getByRole('cell').nth(2).textContent()).toBe('3');

    await page.getByLabel('Metadata key').fill('region');
    await page.getByLabel('Metadata value contains').fill('eu-west');
    await expect.poll(() => events.getByRole('row').count()).toBe(3);
    expect(await events.textContent()).toContain('login');
    await screenshot(page, 'usage-events');

    await events.getByRole('row').filter({ hasText: 'api_call' }).getByRole('link').first().click();
    await page.getByRole('heading', { name: 'api_call' }).waitFor();
    const terms = await definitions(page);
    expect(terms).toMatchObject({ Name: 'api_call', Customer: ADA });
    expect(await page.getByLabel('Metadata as JSON').textContent()).toContain('"tokens": 120');
  });

  it('shows the usage on the customer page', async () => {
    await nav('Customers').click();
    await page.getByRole('link', { name: ADA }).first().click();
    const usage = page.getByRole('table', { name: 'Usage' });
    const row = usage.getByRole('row').filter({ hasText: METER });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([METER, '3', '0', '-3']);
    // The customer's current state names the meter too (and links to it), in the usage table and its card.
    await expect.poll(() => page.getByRole('link', { name: METER, exact: true }).count()).toBe(2);
  });

  it('offers the meter by name to a metered price of a new product', async () => {
    await nav('Products').click();
    await page.getByRole('link', { name: 'New product' }).click();
    await page.getByLabel('Product name').fill('Usage plan');
    const main = page.getByRole('main');
    const choose = async (label: string, option: string) => {
      await main.getByLabel(label, { exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('option', { name: option, exact: true }).click();
    };
    await choose('Billing', 'Monthly subscription');
    await choose('Price type', 'Metered (per unit)');
    await choose('Meter', METER);
    await main.getByLabel('Price per unit in cents').fill('0.5');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.getByRole('table', { name: 'Products' }).getByRole('row').filter({ hasText: 'Usage plan' }).waitFor();
    const products = await api('GET', '/v1/products/', seller.headers);
    const [price] = products.items.find((product: { name: string }) => product.name === 'Usage plan').prices;
    expect(price).toMatchObject({ amount_type: 'metered_unit', unit_amount: '0.5', meter: { name: METER } });
  });

  it('offers the meter by name to a meter credit benefit', async () => {
    await nav('Benefits').click();
    await page.getByRole('button', { name: 'New benefit' }).click();
    const dialog = page.getByRole('dialog', { name: 'New benefit' });
    const choose = async (label: string, option: string) => {
      await dialog.getByLabel(label, { exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('option', { name: option, exact: true }).click();
    };
    await choose('Benefit type', 'Meter credit');
    await dialog.getByLabel('Description').fill('Included API calls');
    await choose('Meter', METER);
    await dialog.getByLabel('Units credited').fill('1000');
    await dialog.getByRole('button', { name: 'Create benefit' }).click();
    await page
      .getByRole('table', { name: 'Benefits' })
      .getByRole('row')
      .filter({ hasText: 'Included API calls' })
      .waitFor();
  });

  it('fits a phone screen (390 px)', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav('Meters').click();
    await page.getByRole('link', { name: METER }).click();
    await page.getByRole('figure', { name: /3 units in total/ }).waitFor();
    await page.getByRole('table', { name: `Customers of ${METER}` }).waitFor();
    expect(await fitsViewport()).toBe(true);
    await screenshot(page, 'usage-meter-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('shows the customer their usage in the portal', async () => {
    const session = await api('POST', '/v1/customer-sessions/', bearer(token), { customer_id: customerId });
    const link = new URL(session.customer_portal_url);
    const { page: portal } = await openPage(browser, server.url);
    await portal.setViewportSize({ width: 390, height: 844 });
    await portal.goto(`${link.pathname}${link.search}`);
    await portal.getByRole('heading', { name: 'Welcome, Ada Lovelace' }).waitFor();
    const usageLink = portal
      .getByRole('navigation', { name: 'Customer portal' })
      .getByRole('link', { name: 'Usage', exact: true });
    await usageLink.click();
    await portal.getByRole('heading', { name: 'Usage', exact: true }).waitFor();
    const card = portal.getByRole('region', { name: METER });
    await card.waitFor();
    expect(await card.textContent()).toContain('3 units used this period.');
    const terms = await definitions(portal);
    expect(terms).toMatchObject({ 'Used this period': '3', 'Included (credited)': '0', Balance: '-3' });
    expect(await portal.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await screenshot(portal, 'usage-portal');
  });
});
