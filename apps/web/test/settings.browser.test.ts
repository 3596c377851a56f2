import { validateEvent } from '@polar-sh/sdk/webhooks';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRANTABLE_SCOPES } from '../../api/src/platform/auth/scopes.js';
import { systemClock } from '../../api/src/platform/clock.js';
import { tokenFactory } from '../../api/test/factories/organizations.js';
import { startTestServer, type TestServer } from '../../api/test/harness.js';
import { dashboardLink, hasChromium, launchBrowser, openPage, screenshot, signUp } from './browser.js';

/**
 * Settings pages in a real browser against the real server: custom fields, webhook endpoints with
 * their delivery log (to a receiver on 127.0.0.1), organization details, license keys and switching
 * organizations. The organization is created in the browser; data a person would not create from
 * these pages (products, a purchase, an activation) is made through the API with the organization's
 * token. A screenshot of each page goes to test/artifacts/.
 */
const SLOW = { timeout: 20_000 };

interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1 that records (and so counts) every request and answers 200. */
async function startReceiver(): Promise<{ url: string; received: ReceivedRequest[]; server: Server }> {
  const received: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200, { 'content-type': 'text/plain' }).end(`received #${received.length}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/tessera`, received, server };
}

function plainHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

describe.skipIf(!hasChromium)('settings pages in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let organizationId = '';
  let token = '';

  /** A call to the API as the organization's integration would make it (`asBuyer`: without its token). */
  async function api(method: string, path: string, body?: unknown, asBuyer = false): Promise<any> {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(asBuyer ? {} : { authorization: `Bearer ${token}` }),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }

  const nav = (name: string) => dashboardLink(page, name);

  beforeAll(async () => {
    [server, browser, receiver] = await Promise.all([
      // The browser expires the session cookie by the real time, so the server runs on it too.
      startTestServer({ listen: true, clock: systemClock }),
      launchBrowser(),
      startReceiver(),
    ]);
    ({ page } = await openPage(browser, server.url));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  it('signs up and creates an organization; its integration gets a token', async () => {
    await signUp(page, 'grace@example.com', 'correct horse battery', 'Nimbus Tools');
    expect(new URL(page.url()).pathname).toBe('/dashboard/nimbus-tools/overview');

    const row = await server.runtime.database.db
      .selectFrom('organizations')
      .select('id')
      .where('slug', '=', 'nimbus-tools')
      .executeTakeFirstOrThrow();
    organizationId = row.id;
    token = await tokenFactory(server, organizationId, GRANTABLE_SCOPES);
  });

  describe('custom fields', () => {
    it('refuses a field without a name, then creates a select field with two options', async () => {
      await nav('Custom fields').click();
      await page.getByRole('heading', { name: 'No custom fields yet' }).waitFor();
      await page.getByRole('button', { name: 'New custom field' }).click();
      const dialog = page.getByRole('dialog', { name: 'New custom field' });
      await dialog.getByRole('button', { name: 'Create custom field' }).click();
      await dialog.getByText('Enter a name.').waitFor();
      expect(await dialog.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');

      await dialog.getByLabel('Type', { exact: true }).click();
      await page.getByRole('option', { name: 'Select' }).click();
      await dialog.getByLabel('Name', { exact: true }).fill('Company size');
      expect(await dialog.getByLabel('Slug').inputValue()).toBe('company_size');
      await dialog.getByLabel('Label', { exact: true }).fill('How large is your team?');
      await dialog.getByLabel('Help text').fill('Used to size your onboarding.');
      await dialog.getByLabel('Option 1 label').fill('1 to 10 people');
      expect(await dialog.getByLabel('Option 1 value').inputValue()).toBe('1_to_10_people');
      await dialog.getByRole('button', { name: 'Add option' }).click();
      await dialog.getByLabel('Option 2 label').fill('More than 10');
      await dialog.getByLabel('Option 2 value').fill('large');
      await dialog.getByRole('button', { name: 'Create custom field' }).click();

      const row = page
        .getByRole('table', { name: 'Custom fields' })
        .getByRole('row')
        .filter({ hasText: 'Company size' });
      await row.waitFor();
      await expect(row.getByText('1 to 10 people, More than 10').isVisible()).resolves.toBe(true);
      const [field] = (await api('GET', `/v1/custom-fields/?organization_id=${organizationId}`)).items;
      expect(field).toMatchObject({
        type: 'select',
        slug: 'company_size',
        properties: {
          form_label: 'How large is your team?',
          form_help_text: 'Used to size your onboarding.',
          options: [
            { value: '1_to_10_people', label: '1 to 10 people' },
            { value: 'large', label: 'More than 10' },
          ],
        },
      });
    });

    it('creates a number field with bounds and edits it', async () => {
      await page.getByRole('button', { name: 'New custom field' }).click();
      const dialog = page.getByRole('dialog', { name: 'New custom field' });
      await dialog.getByLabel('Type', { exact: true }).click();
      await page.getByRole('option', { name: 'Number' }).click();
      await dialog.getByLabel('Name', { exact: true }).fill('Seats');
      await dialog.getByLabel('Minimum', { exact: true }).fill('5');
      await dialog.getByLabel('Maximum', { exact: true }).fill('2');
      await dialog.getByRole('button', { name: 'Create custom field' }).click();
      await dialog.getByText('Must be at least the minimum.').waitFor();
      await dialog.getByLabel('Maximum', { exact: true }).fill('500');
      await dialog.getByRole('button', { name: 'Create custom field' }).click();
      const table = page.getByRole('table', { name: 'Custom fields' });
      await table.getByRole('row').filter({ hasText: 'From 5 to 500' }).waitFor();

      await table.getByRole('button', { name: 'Edit Seats' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Seats' });
      await expect(edit.getByLabel('Type', { exact: true }).isDisabled()).resolves.toBe(true);
      await edit.getByLabel('Maximum', { exact: true }).fill('');
      await edit.getByLabel('Placeholder').fill('e.g. 25');
      await edit.getByRole('button', { name: 'Save custom field' }).click();
      await table.getByRole('row').filter({ hasText: 'At least 5' }).waitFor();
      await screenshot(page, 'custom-fields');
    });
  });

  describe('webhooks', () => {
    let secret = '';

    it('creates an endpoint for the loopback receiver and shows its signing secret once', async () => {
      await nav('Webhooks').click();
      await page.getByRole('heading', { name: 'No webhook endpoints yet' }).waitFor();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const dialog = page.getByRole('dialog', { name: 'New webhook endpoint' });
      await dialog.getByLabel('Endpoint URL').fill(receiver.url);
      await dialog.getByRole('button', { name: 'Create endpoint' }).click();
      await dialog.getByText('Choose at least one event.').waitFor();
      await dialog.getByRole('checkbox', { name: 'product.created' }).check();
      await dialog.getByRole('button', { name: 'Create endpoint' }).click();

      const created = page.getByRole('dialog', { name: 'Webhook endpoint created' });
      await created.getByText('Copy this signing secret now: it is shown only once.').waitFor();
      secret = (await created.getByLabel('Signing secret').textContent()) ?? '';
      expect(secret).toMatch(/^whsec_[A-Za-z0-9]{43}$/);
      await expect(created.getByRole('button', { name: 'Copy secret' }).isVisible()).resolves.toBe(true);
      await created.getByRole('button', { name: 'Done' }).click();

      const row = page
        .getByRole('table', { name: 'Webhook endpoints' })
        .getByRole('row')
        .filter({ hasText: receiver.url });
      await row.waitFor();
      await expect(row.getByText('1 event').isVisible()).resolves.toBe(true);
      await screenshot(page, 'webhooks');
      // Shown once: neither the page nor the API has it any more.
      expect(await page.content()).not.toContain(secret);
      const listed = await api('GET', `/v1/webhooks/endpoints?organization_id=${organizationId}`);
      expect(JSON.stringify(listed)).not.toContain(secret);
      expect(listed.items[0]).not.toHaveProperty('secret');
    });

    it('logs the delivery of an event with its payload and response, and redelivers it', async () => {
      await page.getByRole('link', { name: receiver.url }).click();
      await page.getByRole('heading', { name: 'Webhook endpoint' }).waitFor();
      await page.getByRole('heading', { name: 'No deliveries yet' }).waitFor();

      const product = await api('POST', '/v1/products/', {
        name: 'Nimbus Desktop',
        recurring_interval: null,
        prices: [{ amount_type: 'fixed', price_amount: 4900 }],
      });
      await expect.poll(() => receiver.received.length, SLOW).toBe(1);
      // The secret shown once is the one deliveries are signed with.
      const first = receiver.received[0]!;
      const event = validateEvent(first.body, plainHeaders(first.headers), secret);
      expect(event.type).toBe('product.created');

      const log = page.getByRole('table', { name: 'Webhook deliveries' });
      const delivery = log.getByRole('row').filter({ hasText: 'product.created' });
      await delivery.waitFor(SLOW);
      await expect(delivery.getByText('Succeeded').isVisible()).resolves.toBe(true);
      await expect(delivery.getByRole('cell', { name: '200', exact: true }).isVisible()).resolves.toBe(true);
      await delivery.getByRole('button', { name: /^Show details of product\.created/ }).click();
      const payload = page.getByRole('region', { name: 'Payload' });
      await payload.getByText(product.id, { exact: false }).waitFor();
      await expect(payload.getByText('"type": "product.created"', { exact: false }).isVisible()).resolves.toBe(true);
      await page.getByRole('region', { name: 'Response' }).getByText('received #1').waitFor();
      await screenshot(page, 'webhook-endpoint');

      await delivery.getByRole('button', { name: /^Redeliver product\.created/ }).click();
      await page.getByText('product.created queued for redelivery', { exact: false }).waitFor();
      await expect.poll(() => receiver.received.length, SLOW).toBe(2);
      expect(receiver.received[1]!.headers['webhook-id']).toBe(first.headers['webhook-id']);
      // The attempts' rows: the details shown above are a row of their own that names the type too,
      // so a count of rows with that text once saw three (two attempts and the details) when the
      // redelivery was already logged at the first look.
      const deliveries = log
        .getByRole('row')
        .filter({ has: page.getByRole('button', { name: /^Redeliver product\.created/ }) });
      await expect.poll(() => deliveries.count(), SLOW).toBe(2);
      expect(receiver.received).toHaveLength(2);
      // Newest first: the redelivery, with the receiver's second answer.
      await deliveries
        .first()
        .getByRole('button', { name: /^Show details of product\.created/ })
        .click();
      await page.getByRole('region', { name: 'Response' }).getByText('received #2').waitFor();
    });

    it('edits the events, disables and enables the endpoint, and deletes it', async () => {
      await page.getByRole('button', { name: 'Select all events' }).click();
      await page.getByRole('button', { name: 'Save endpoint' }).click();
      await page.getByText('Webhook endpoint saved').waitFor();
      const endpoints = await api('GET', `/v1/webhooks/endpoints?organization_id=${organizationId}`);
      // The spec's 27 types, the reference's 6 later ones Tessera emits and its own member_removed.
      expect(endpoints.items[0].events).toHaveLength(34);

      await page.getByRole('button', { name: 'Disable endpoint' }).click();
      await page.getByRole('button', { name: 'Enable endpoint' }).waitFor();
      expect((await api('GET', `/v1/webhooks/endpoints/${endpoints.items[0].id}`)).enabled).toBe(false);
      await page.getByRole('button', { name: 'Enable endpoint' }).click();
      await page.getByRole('button', { name: 'Disable endpoint' }).waitFor();

      await page.getByRole('button', { name: 'Delete endpoint' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete this webhook endpoint?' });
      await confirm.getByRole('button', { name: 'Delete endpoint' }).click();
      await page.getByRole('heading', { name: 'No webhook endpoints yet' }).waitFor();
      expect((await api('GET', `/v1/webhooks/endpoints?organization_id=${organizationId}`)).items).toEqual([]);
    });
  });

  describe('organization settings', () => {
    it('shows a refused email next to its field, then saves the details and subscription rules', async () => {
      await nav('Settings').click();
      await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
      await page.getByLabel('Support email').fill('not an email');
      await page.getByRole('button', { name: 'Save settings' }).click();
      const email = page.getByLabel('Support email');
      await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
      const messageId = (await email.getAttribute('aria-describedby'))!.split(' ').pop();
      expect(await page.locator(`[id="${messageId}"]`).textContent()).toMatch(/email/i);

      await page.getByLabel('Name', { exact: true }).fill('Nimbus Tools Ltd');
      await email.fill('support@nimbus.example');
      await page.getByLabel('Website').fill('https://nimbus.example');
      await page.getByRole('button', { name: 'Add social link' }).click();
      await page.getByLabel('Link 1').fill('https://github.com/nimbus');
      await page.getByLabel('Platform 1').click();
      await page.getByRole('option', { name: 'GitHub' }).click();
      await page.getByLabel('Allow customers to change their plan').check();
      await page.getByLabel('When a plan changes mid-period').click();
      await page.getByRole('option', { name: /^Invoice/ }).click();
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Organization settings saved').waitFor();
      await screenshot(page, 'settings');

      const saved = await api('GET', `/v1/organizations/${organizationId}`);
      expect(saved).toMatchObject({
        name: 'Nimbus Tools Ltd',
        email: 'support@nimbus.example',
        website: 'https://nimbus.example',
        socials: [{ platform: 'github', url: 'https://github.com/nimbus' }],
        subscription_settings: { allow_customer_updates: true, proration_behavior: 'invoice' },
      });
      await page.reload();
      expect(await page.getByLabel('Support email').inputValue()).toBe('support@nimbus.example');
      await page.getByRole('button', { name: 'Organization: Nimbus Tools Ltd. Switch organization' }).waitFor();
    });
  });

  describe('license keys', () => {
    let keyId = '';

    it('lists the key issued by a purchase, with its customer', async () => {
      await nav('License keys').click();
      await page.getByRole('heading', { name: 'No license keys yet' }).waitFor();

      const benefit = await api('POST', '/v1/benefits/', {
        type: 'license_keys',
        description: 'Nimbus license',
        properties: { prefix: 'NIMBUS', activations: { limit: 3, enable_customer_admin: true }, limit_usage: 100 },
      });
      const product = await api('POST', '/v1/products/', {
        name: 'Nimbus Pro',
        recurring_interval: null,
        prices: [{ amount_type: 'fixed', price_amount: 9900 }],
      });
      await api('POST', `/v1/products/${product.id}/benefits`, { benefits: [benefit.id] });
      const checkout = await api('POST', '/v1/checkouts/', { products: [product.id] });
      const card = await api(
        'POST',
        '/simulated-processor/confirmation-tokens',
        { card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' } },
        true,
      );
      await api(
        'POST',
        `/v1/checkouts/client/${checkout.client_secret}/confirm`,
        {
          customer_email: 'buyer@example.com',
          customer_name: 'Ada Buyer',
          customer_billing_address: { country: 'FR', line1: '1 rue de Rivoli', city: 'Paris', postal_code: '75001' },
          confirmation_token_id: card.id,
        },
        true,
      );
      // The key is issued by the worker after the order is paid.
      let key: any;
      await expect
        .poll(
          async () => (key = (await api('GET', `/v1/license-keys/?organization_id=${organizationId}`)).items[0]),
          SLOW,
        )
        .toBeTruthy();
      keyId = key.id;
      await api(
        'POST',
        '/v1/customer-portal/license-keys/activate',
        { key: key.key, organization_id: organizationId, label: 'Build server', meta: { os: 'linux' } },
        true,
      );

      await page.reload();
      const row = page
        .getByRole('table', { name: 'License keys' })
        .getByRole('row')
        .filter({ hasText: key.display_key });
      await row.waitFor();
      await expect(row.getByText('buyer@example.com').isVisible()).resolves.toBe(true);
      await expect(row.getByText('Granted').isVisible()).resolves.toBe(true);
      await expect(row.getByText('Nimbus license').isVisible()).resolves.toBe(true);
      await screenshot(page, 'license-keys');
      await row.getByRole('link', { name: `License key ${key.display_key}` }).click();
      await page.getByRole('heading', { name: `License key ${key.display_key}` }).waitFor();
    });

    it('shows the activations and disables the key', async () => {
      const activations = page.getByRole('table', { name: 'Activations' });
      const activation = activations.getByRole('row').filter({ hasText: 'Build server' });
      await activation.waitFor();
      await expect(activation.getByText('linux').isVisible()).resolves.toBe(true);
      const details = page.getByRole('region', { name: 'Key details' });
      await expect(details.getByText('1 of 3', { exact: true }).isVisible()).resolves.toBe(true);
      await expect(details.getByText('Granted', { exact: true }).isVisible()).resolves.toBe(true);

      await page.getByLabel('Status', { exact: true }).click();
      await page.getByRole('option', { name: 'Disabled' }).click();
      await page.getByLabel('Activation limit').fill('5');
      await page.getByRole('button', { name: 'Save license key' }).click();
      await page.getByText('License key saved').waitFor();
      await page.getByRole('region', { name: 'Key details' }).getByText('1 of 5', { exact: true }).waitFor();
      await expect(details.getByText('Disabled', { exact: true }).isVisible()).resolves.toBe(true);
      await expect(details.getByText('1 of 5', { exact: true }).isVisible()).resolves.toBe(true);
      await screenshot(page, 'license-key');

      expect(await api('GET', `/v1/license-keys/${keyId}`)).toMatchObject({ status: 'disabled', limit_activations: 5 });
      const customer = await page.getByRole('link', { name: /buyer@example\.com/ }).getAttribute('href');
      expect(customer).toMatch(/^\/dashboard\/nimbus-tools\/customers\/[0-9a-f-]{36}$/);
    });
  });

  describe('organization switcher', () => {
    it('creates a second organization from the switcher and switches between the two', async () => {
      await page.getByRole('button', { name: /Switch organization/ }).click();
      await page.getByRole('menuitem', { name: 'Create organization' }).click();
      await page.getByRole('heading', { name: 'New organization' }).waitFor();
      await page.getByLabel('Organization name').fill('Second Shop');
      await page.getByRole('button', { name: 'Create organization' }).click();
      await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/dashboard/second-shop/overview');

      // Each organization has its own data.
      await nav('Custom fields').click();
      await page.getByRole('heading', { name: 'No custom fields yet' }).waitFor();

      await page.getByRole('button', { name: 'Organization: Second Shop. Switch organization' }).click();
      const menu = page.getByRole('menu');
      const items = await menu.getByRole('menuitem').allTextContents();
      expect(items).toHaveLength(3);
      expect(items[0]).toBe('Nimbus Tools Ltd');
      expect(items[1]).toMatch(/^Second Shop.*\(current\)$/);
      expect(items[2]).toBe('Create organization');
      await screenshot(page, 'organization-switcher');
      await menu.getByRole('menuitem', { name: 'Nimbus Tools Ltd' }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/nimbus-tools/overview');
      await page.getByRole('button', { name: 'Organization: Nimbus Tools Ltd. Switch organization' }).waitFor();
      await nav('Custom fields').click();
      await page
        .getByRole('table', { name: 'Custom fields' })
        .getByRole('row')
        .filter({ hasText: 'Company size' })
        .waitFor();
    });
  });
});
