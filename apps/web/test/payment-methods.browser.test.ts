import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { organizationFactory, type OrganizationFixture } from '../../api/test/factories/organizations.js';
import { subscriptionFactory } from '../../api/test/factories/subscriptions.js';
import { bearer, json, startTestServer, type TestServer } from '../../api/test/harness.js';
import { hasChromium, launchBrowser, openPage, screenshot } from './browser.js';

/**
 * The portal's "Payment methods" page in a real browser against the real server: a subscriber (card
 * 4242 saved at checkout) adds a card with the checkout's card form, adds a 3-D Secure card and
 * completes the bank's check, and removes the card the checkout saved. The subscription follows the
 * default card.
 */
const SLUG = 'acme-cards';
/** Saving a card goes to the processor and back: the page may take a few seconds on a busy machine. */
const POLL = { timeout: 20_000 };

describe.skipIf(!hasChromium)('portal payment methods in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let org: OrganizationFixture;
  let subscriptionId: string;
  let customerId: string;

  async function api(method: 'POST' | 'GET', url: string, payload?: object) {
    const response = await server.inject({ method, url, headers: bearer(org.token), payload });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return json(response);
  }

  const cards = () => page.getByRole('list', { name: 'Saved cards' });
  const cardRows = async () =>
    (await cards().getByRole('listitem').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());

  async function fillCard(number: string) {
    await page.getByLabel('Card number').fill(number);
    await page.getByLabel('Expiry date').fill('12 / 34');
    await page.getByLabel('Security code').fill('123');
  }

  async function billedLast4(): Promise<string> {
    const row = await server.runtime.database.db
      .selectFrom('subscriptions')
      .innerJoin('customer_payment_methods', (join) =>
        join
          .onRef('customer_payment_methods.processor_payment_method_id', '=', 'subscriptions.payment_method_id')
          .onRef('customer_payment_methods.customer_id', '=', 'subscriptions.customer_id'),
      )
      .select('customer_payment_methods.last4')
      .where('subscriptions.id', '=', subscriptionId)
      .where('customer_payment_methods.status', '=', 'active')
      .executeTakeFirstOrThrow();
    return row.last4!;
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ listen: true, clock: systemClock }), launchBrowser()]);
    org = await organizationFactory(server, { name: 'Acme Cards', slug: SLUG });
    const subscription = await subscriptionFactory(server, org.organization.id, { email: 'ada@example.com' });
    subscriptionId = subscription.id;
    customerId = subscription.customer_id;
    ({ page } = await openPage(browser, server.url));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lists the card the checkout saved as the default', async () => {
    const session = await api('POST', '/v1/customer-sessions/', { customer_id: customerId });
    const url = new URL(session.customer_portal_url);
    await page.goto(`${url.pathname}${url.search}`);
    await page
      .getByRole('navigation', { name: 'Customer portal' })
      .getByRole('link', { name: 'Payment methods', exact: true })
      .click();
    await page.getByRole('heading', { name: 'Payment methods', exact: true }).waitFor();
    await expect
      .poll(cardRows, POLL)
      .toEqual([expect.stringMatching(/^Visa ending in 4242 ?Default ?Expires 12\/2034/)]);
  });

  it('adds a card with the card form and makes it the default the subscription is billed to', async () => {
    await page.getByRole('button', { name: 'Add a card' }).click();
    await fillCard('5555 5555 5555 4444');
    expect(await page.getByLabel('Use this card for my subscriptions from now on').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Save card' }).click();
    await expect
      .poll(cardRows, POLL)
      .toEqual([
        expect.stringMatching(/^Mastercard ending in 4444 ?Default/),
        expect.stringMatching(/^Visa ending in 4242 ?Expires/),
      ]);
    expect(await page.getByRole('button', { name: 'Save card' }).count()).toBe(0);
    expect(await billedLast4()).toBe('4444');
    await screenshot(page, 'portal-payment-methods');
  });

  it('says what is wrong with a card before sending it, and shows a declined card in words', async () => {
    await page.getByRole('button', { name: 'Add a card' }).click();
    await page.getByLabel('Card number').fill('4242 4242 4242 4241');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByText('Your card number is invalid.').waitFor();
    await fillCard('4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByText(/Your card was declined\./).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await cardRows()).toHaveLength(2);
  });

  it('saves a 3-D Secure card once the bank check is completed, without making it the default', async () => {
    await page.getByRole('button', { name: 'Add a card' }).click();
    await fillCard('4000 0025 0000 3155');
    await page.getByLabel('Use this card for my subscriptions from now on').uncheck();
    await page.getByRole('button', { name: 'Save card' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm your card' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Complete authentication' }).click();
    await expect
      .poll(cardRows, POLL)
      .toEqual([
        expect.stringMatching(/^Mastercard ending in 4444 ?Default/),
        expect.stringMatching(/^Visa ending in 3155/),
        expect.stringMatching(/^Visa ending in 4242/),
      ]);
    expect(await billedLast4()).toBe('4444');
  });

  it('makes another card the default, and removes a card', async () => {
    await cards()
      .getByRole('listitem')
      .filter({ hasText: 'ending in 3155' })
      .getByRole('button', { name: 'Make default' })
      .click();
    await expect.poll(cardRows, POLL).toContainEqual(expect.stringMatching(/^Visa ending in 3155 ?Default/));
    expect(await billedLast4()).toBe('3155');

    await page.getByRole('button', { name: 'Remove Visa ending in 4242' }).click();
    await page.getByRole('dialog', { name: 'Remove this card?' }).getByRole('button', { name: 'Remove card' }).click();
    await expect
      .poll(cardRows, POLL)
      .toEqual([
        expect.stringMatching(/^Visa ending in 3155 ?Default/),
        expect.stringMatching(/^Mastercard ending in 4444/),
      ]);
  });

  it('sends a customer whose subscription is past due from the subscription to the payment methods', async () => {
    await server.runtime.database.db
      .updateTable('subscriptions')
      .set({ status: 'past_due' })
      .where('id', '=', subscriptionId)
      .execute();
    await page.goto(`/portal/${SLUG}/subscriptions/${subscriptionId}`);
    const alert = page.getByRole('alert').filter({ hasText: 'Your last payment for this subscription failed.' });
    await alert.waitFor();
    await alert.getByRole('link', { name: 'Payment methods' }).click();
    await page.getByRole('heading', { name: 'Payment methods', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/portal/${SLUG}/payment-methods`);
  });
});
