import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRANTABLE_SCOPES } from '../../api/src/platform/auth/scopes.js';
import { systemClock } from '../../api/src/platform/clock.js';
import { tokenFactory } from '../../api/test/factories/organizations.js';
import { startTestServer, type TestServer } from '../../api/test/harness.js';
import {
  expectNoSeriousA11yViolations,
  dashboardLink,
  hasChromium,
  launchBrowser,
  openPage,
  screenshot,
  signUp,
} from './browser.js';

/**
 * The catalog in a real browser against the real server: benefits of several types created and
 * edited, a custom field, and a monthly product carrying both, archived and unarchived. Everything is
 * done through the pages; the API (with the organization's token) only confirms what was stored.
 * A screenshot of each step goes to test/artifacts/.
 */
const SLUG = 'catalog-works';

describe.skipIf(!hasChromium)('catalog pages in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let organizationId = '';
  let token = '';
  let productPath = '';

  async function api(method: string, path: string): Promise<any> {
    const response = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text);
  }

  const nav = (name: string) => dashboardLink(page, name);
  const benefitRow = (description: string) =>
    page.getByRole('table', { name: 'Benefits' }).getByRole('row').filter({ hasText: description });
  /** A Radix select is opened by its label, its option picked from the list it shows. */
  async function choose(scope: ReturnType<Page['getByRole']>, label: string, option: string) {
    await scope.getByLabel(label, { exact: true }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      // The browser expires the session cookie by the real time, so the server runs on it too.
      startTestServer({ listen: true, clock: systemClock }),
      launchBrowser(),
    ]);
    ({ page } = await openPage(browser, server.url));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signs up and creates an organization', async () => {
    await signUp(page, 'hedy@example.com', 'correct horse battery', 'Catalog Works');
    expect(new URL(page.url()).pathname).toBe(`/dashboard/${SLUG}/overview`);

    const row = await server.runtime.database.db
      .selectFrom('organizations')
      .select('id')
      .where('slug', '=', SLUG)
      .executeTakeFirstOrThrow();
    organizationId = row.id;
    token = await tokenFactory(server, organizationId, GRANTABLE_SCOPES);
  });

  it('creates a license key benefit, refusing an activation limit above 50 next to the field', async () => {
    await nav('Benefits').click();
    await page.getByRole('heading', { name: 'No benefits yet' }).waitFor();
    await page.getByRole('button', { name: 'New benefit' }).click();
    const dialog = page.getByRole('dialog', { name: 'New benefit' });
    await choose(dialog, 'Benefit type', 'License keys');
    await dialog.getByLabel('Description').fill('Pro license key');
    await dialog.getByLabel('Key prefix').fill('CAT');
    await dialog.getByLabel('Keys expire after').fill('1');
    await choose(dialog, 'Expiry unit', 'Years');
    await dialog.getByLabel('Activation limit').fill('80');
    await dialog.getByRole('button', { name: 'Create benefit' }).click();
    const limit = dialog.getByLabel('Activation limit');
    await expect.poll(() => limit.getAttribute('aria-invalid')).toBe('true');
    await dialog.getByText('Enter a whole number from 1 to 50.').waitFor();

    await limit.fill('3');
    await dialog.getByRole('checkbox', { name: 'Customers may manage their activations' }).check();
    await dialog.getByRole('button', { name: 'Create benefit' }).click();
    await benefitRow('Pro license key').waitFor();
    await expect(benefitRow('Pro license key').getByText('License keys').isVisible()).resolves.toBe(true);
    expect(await benefitRow('Pro license key').textContent()).toContain(
      'Prefix CAT · expires after 1 year · 3 activations · customers manage activations',
    );
  });

  it('creates a custom note benefit', async () => {
    await page.getByRole('button', { name: 'New benefit' }).click();
    const dialog = page.getByRole('dialog', { name: 'New benefit' });
    await dialog.getByLabel('Description').fill('Onboarding call');
    await dialog.getByLabel('Note').fill('Book your call at https://example.com/book.');
    await dialog.getByRole('button', { name: 'Create benefit' }).click();
    await benefitRow('Onboarding call').waitFor();
    await expect(benefitRow('Onboarding call').getByText('Note shown to customers').isVisible()).resolves.toBe(true);
  });

  it("shows the server's refusal of a meter credit next to its fields", async () => {
    await page.getByRole('button', { name: 'New benefit' }).click();
    const dialog = page.getByRole('dialog', { name: 'New benefit' });
    await choose(dialog, 'Benefit type', 'Meter credit');
    await dialog.getByLabel('Description').fill('API credits');
    await dialog.getByLabel('Meter ID').fill('6f1c7a52-0d4e-4a53-9b7e-2c1f0e8a9d31');
    await dialog.getByLabel('Units credited').fill('1000');
    await dialog.getByRole('button', { name: 'Create benefit' }).click();
    await dialog.getByText('Usage based billing is not enabled on your organization.').waitFor();
    await dialog.getByText('This meter does not exist.').waitFor();
    expect(await dialog.getByLabel('Meter ID').getAttribute('aria-invalid')).toBe('true');

    // Discord: the server is connected first, by adding the bot through Discord (discord-connect.browser).
    await choose(dialog, 'Benefit type', 'Discord');
    await dialog.getByRole('button', { name: 'Connect a Discord server' }).waitFor();
    // The refusal was about the meter credit's settings; it goes with them.
    await expect(dialog.getByText('This meter does not exist.').count()).resolves.toBe(0);
    await expectNoSeriousA11yViolations(page, 'benefit-discord');
    await screenshot(page, 'benefit-discord');
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expectNoSeriousA11yViolations(page, 'benefits');
    await screenshot(page, 'benefits');
  });

  it('creates a custom field on its page', async () => {
    await nav('Custom fields').click();
    await page.getByRole('heading', { name: 'No custom fields yet' }).waitFor();
    await page.getByRole('button', { name: 'New custom field' }).click();
    const dialog = page.getByRole('dialog', { name: 'New custom field' });
    await dialog.getByLabel('Name', { exact: true }).fill('Team name');
    await dialog.getByRole('button', { name: 'Create custom field' }).click();
    await page
      .getByRole('table', { name: 'Custom fields' })
      .getByRole('row')
      .filter({ hasText: 'Team name' })
      .waitFor();
  });

  it('creates a monthly product with both benefits and the custom field, required', async () => {
    await nav('Products').click();
    await page.getByRole('link', { name: 'New product' }).click();
    await page.getByLabel('Product name').fill('Team plan');
    await choose(page.getByRole('main'), 'Billing', 'Monthly subscription');
    await page.getByLabel('Amount').fill('25');
    const benefits = page.getByRole('group', { name: 'Benefits' });
    await benefits.getByRole('checkbox', { name: 'Pro license key' }).check();
    await benefits.getByRole('checkbox', { name: 'Onboarding call' }).check();
    await expect(benefits.getByRole('checkbox', { name: 'API credits' }).count()).resolves.toBe(0);
    const fields = page.getByRole('group', { name: 'Custom fields' });
    await fields.getByRole('checkbox', { name: 'Team name', exact: true }).check();
    await fields.getByRole('checkbox', { name: 'Team name required' }).check();
    await expectNoSeriousA11yViolations(page, 'product-new');
    await screenshot(page, 'product-new');
    await page.getByRole('button', { name: 'Create product' }).click();

    const row = page.getByRole('table', { name: 'Products' }).getByRole('row').filter({ hasText: 'Team plan' });
    await row.waitFor();
    await expect(row.getByText('Monthly').isVisible()).resolves.toBe(true);

    const [product] = (await api('GET', `/v1/products/?organization_id=${organizationId}`)).items;
    expect(product.benefits.map((benefit: { description: string }) => benefit.description).sort()).toEqual([
      'Onboarding call',
      'Pro license key',
    ]);
    expect(product.attached_custom_fields).toMatchObject([{ required: true, custom_field: { name: 'Team name' } }]);
    productPath = `/dashboard/${SLUG}/products/${product.id}`;
  });

  it('shows what was saved when the edit page is reloaded', async () => {
    await page.goto(productPath);
    await page.reload();
    await page.getByRole('heading', { name: 'Team plan' }).waitFor();
    const benefits = page.getByRole('group', { name: 'Benefits' });
    await expect(benefits.getByRole('checkbox', { name: 'Pro license key' }).isChecked()).resolves.toBe(true);
    await expect(benefits.getByRole('checkbox', { name: 'Onboarding call' }).isChecked()).resolves.toBe(true);
    const fields = page.getByRole('group', { name: 'Custom fields' });
    await expect(fields.getByRole('checkbox', { name: 'Team name', exact: true }).isChecked()).resolves.toBe(true);
    await expect(fields.getByRole('checkbox', { name: 'Team name required' }).isChecked()).resolves.toBe(true);
    await expect(page.getByLabel('Billing').isDisabled()).resolves.toBe(true);
    await expectNoSeriousA11yViolations(page, 'product-edit');
    await screenshot(page, 'product-edit');
  });

  it('detaches a benefit and saves the change', async () => {
    await page.getByRole('group', { name: 'Benefits' }).getByRole('checkbox', { name: 'Onboarding call' }).uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('table', { name: 'Products' }).waitFor();
    const product = await api('GET', productPath.replace(`/dashboard/${SLUG}/products/`, '/v1/products/'));
    expect(product.benefits.map((benefit: { description: string }) => benefit.description)).toEqual([
      'Pro license key',
    ]);
  });

  it('edits a benefit: a new activation limit and description', async () => {
    await nav('Benefits').click();
    await benefitRow('Pro license key').getByRole('button', { name: 'Edit Pro license key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Pro license key' });
    await expect(dialog.getByLabel('Benefit type').isDisabled()).resolves.toBe(true);
    expect(await dialog.getByLabel('Key prefix').inputValue()).toBe('CAT');
    await dialog.getByLabel('Description').fill('Pro license keys');
    await dialog.getByLabel('Activation limit').fill('5');
    await expectNoSeriousA11yViolations(page, 'benefit-edit');
    await screenshot(page, 'benefit-edit');
    await dialog.getByRole('button', { name: 'Save benefit' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    const row = benefitRow('Pro license keys');
    await expect.poll(() => row.textContent()).toContain('5 activations');

    const [benefit] = (await api('GET', `/v1/benefits/?organization_id=${organizationId}&type=license_keys`)).items;
    expect(benefit).toMatchObject({
      description: 'Pro license keys',
      properties: {
        prefix: 'CAT',
        expires: { ttl: 1, timeframe: 'year' },
        activations: { limit: 5, enable_customer_admin: true },
        limit_usage: null,
      },
    });
  });

  it('archives the product after a confirmation, lists it as archived, and unarchives it', async () => {
    await page.goto(productPath);
    await page.getByRole('button', { name: 'Archive product' }).click();
    const confirm = page.getByRole('dialog', { name: 'Archive “Team plan”?' });
    await confirm.getByRole('button', { name: 'Archive product' }).click();
    await page.getByRole('button', { name: 'Unarchive product' }).waitFor();
    const header = page.locator('header').filter({ has: page.getByRole('heading', { name: 'Team plan' }) });
    await header.getByText('Archived').waitFor();
    await expectNoSeriousA11yViolations(page, 'product-archived');
    await screenshot(page, 'product-archived');

    await nav('Products').click();
    await choose(page.getByRole('main'), 'Status', 'Archived');
    const row = page.getByRole('table', { name: 'Products' }).getByRole('row').filter({ hasText: 'Team plan' });
    await row.getByText('Archived').waitFor();

    await row.getByRole('link', { name: 'Team plan' }).click();
    await page.getByRole('button', { name: 'Unarchive product' }).click();
    await page
      .getByRole('dialog', { name: 'Unarchive “Team plan”?' })
      .getByRole('button', { name: 'Unarchive product' })
      .click();
    await page.getByRole('button', { name: 'Archive product' }).waitFor();
    const productUrl = productPath.replace(`/dashboard/${SLUG}/products/`, '/v1/products/');
    await expect.poll(async () => (await api('GET', productUrl)).is_archived).toBe(false);
  });

  it('deletes a benefit after a confirmation', async () => {
    await nav('Benefits').click();
    await benefitRow('Onboarding call').getByRole('button', { name: 'Delete Onboarding call' }).click();
    await page
      .getByRole('dialog', { name: 'Delete “Onboarding call”?' })
      .getByRole('button', { name: 'Delete benefit' })
      .click();
    await expect.poll(() => benefitRow('Onboarding call').count()).toBe(0);
    await benefitRow('Pro license keys').waitFor();
    const benefits = (await api('GET', `/v1/benefits/?organization_id=${organizationId}`)).items;
    expect(benefits.map((benefit: { description: string }) => benefit.description)).toEqual(['Pro license keys']);
  });
});
