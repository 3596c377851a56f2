import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { userFactory, type UserFixture } from '../../api/test/factories/users.js';
import { bearer, json, startTestServer, type TestServer } from '../../api/test/harness.js';
import { dashboardLink, expectNoSeriousA11yViolations, hasChromium, launchBrowser, openPage } from './browser.js';

/**
 * The seller's catalog lists and forms: a product row's actions behind one menu, a locked select that
 * looks locked, a discount limited to products from its form, and a checkout link edited in place.
 */
const SLUG = 'acme-catalog-actions';

describe.skipIf(!hasChromium)('catalog actions in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let seller: UserFixture;
  let token: string;
  let organizationId: string;
  const ids: Record<string, string> = {};

  async function api(method: 'POST' | 'GET', url: string, payload?: object) {
    const response = await server.inject({ method, url, headers: bearer(token), payload });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return json(response);
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      // The browser expires the session cookie by the real time, so the server runs on it too.
      startTestServer({ listen: true, clock: systemClock }),
      launchBrowser(),
    ]);
    seller = await userFactory(server, { email: 'seller@example.com' });
    const created = await server.inject({
      method: 'POST',
      url: '/v1/organizations/',
      headers: seller.headers,
      payload: { name: 'Acme Catalog', slug: SLUG },
    });
    organizationId = json(created).id;
    const tokenResponse = await server.inject({
      method: 'POST',
      url: '/v1/organization-access-tokens/',
      headers: seller.headers,
      payload: {
        organization_id: organizationId,
        comment: 'tests',
        scopes: ['products:read', 'products:write', 'discounts:read', 'checkout_links:read', 'checkout_links:write'],
      },
    });
    token = json(tokenResponse).token;
    for (const [name, interval] of [
      ['Pro plan', 'month'],
      ['Team plan', 'month'],
      ['Field guide', null],
    ] as const) {
      const product = await api('POST', '/v1/products/', {
        name,
        recurring_interval: interval,
        prices: [{ amount_type: 'fixed', price_amount: 2500, price_currency: 'usd' }],
      });
      ids[name] = product.id;
    }
    const link = await api('POST', '/v1/checkout-links/', { label: 'Newsletter', products: [ids['Pro plan']] });
    ids.link = link.id;
    ids.linkUrl = link.url;
    ({ page } = await openPage(browser, server.url));
    await page.goto('/login');
    await page.getByLabel('Email').fill(seller.email);
    await page.getByLabel('Password').fill(seller.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('puts a product row’s actions in one menu: edit, copy its id, archive after a confirmation', async () => {
    await page.goto(`/dashboard/${SLUG}/products`);
    const table = page.getByRole('table', { name: 'Products' });
    const row = table.getByRole('row').filter({ hasText: 'Field guide' });
    await row.waitFor();
    // No red button in the row: one menu button named after the product.
    expect(await row.getByRole('button').count()).toBe(1);
    await row.getByRole('button', { name: 'Actions for Field guide' }).click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Edit', 'Copy product ID', 'Archive…']);
    await expectNoSeriousA11yViolations(page, 'product row menu open');

    await menu.getByRole('menuitem', { name: 'Archive…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Archive “Field guide”?' });
    await confirm.getByRole('button', { name: 'Archive product' }).click();
    await expect.poll(() => table.getByRole('row').filter({ hasText: 'Field guide' }).count()).toBe(0);
    expect((await api('GET', `/v1/products/${ids['Field guide']}`)).is_archived).toBe(true);

    await table.getByRole('button', { name: 'Actions for Pro plan' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await page.waitForURL(`**/products/${ids['Pro plan']}`);
  });

  it('shows the billing interval of a saved product as locked', async () => {
    const billing = page.getByRole('combobox', { name: 'Billing' });
    await billing.waitFor();
    expect(await billing.isDisabled()).toBe(true);
    const look = await billing.evaluate((element) => {
      const style = (
        globalThis as unknown as { getComputedStyle(node: unknown): { cursor: string; backgroundColor: string } }
      ).getComputedStyle(element);
      return { cursor: style.cursor, background: style.backgroundColor };
    });
    expect(look.cursor).toBe('not-allowed');
    expect(look.background).not.toBe('rgb(255, 255, 255)');
  });

  it('exports every product of the list as CSV, archived ones included', async () => {
    await page.goto(`/dashboard/${SLUG}/products`);
    await page.getByRole('table', { name: 'Products' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^products-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\r\n');
    expect(lines[0]).toBe('ID,Name,Billing,Prices,Archived,Created at');
    expect(lines).toHaveLength(4);
    const guide = lines.find((line) => line.includes('Field guide'))!;
    expect(guide.startsWith(`${ids['Field guide']},Field guide,`)).toBe(true);
    expect(guide).toContain(',$25.00,true,');
    await page.getByRole('status').filter({ hasText: 'Exported 3 rows.' }).waitFor();
  });

  it('limits a new discount to the products chosen in its form, and shows them when editing', async () => {
    await dashboardLink(page, 'Discounts').click();
    await page.getByRole('button', { name: 'New discount' }).click();
    const dialog = page.getByRole('dialog', { name: 'New discount' });
    await dialog.getByLabel('Discount name').fill('Pro launch');
    await dialog.getByLabel('Code').fill('PROLAUNCH');
    await dialog.getByLabel('Percentage').fill('10');
    const products = dialog.getByRole('group', { name: 'Limited to products' });
    await products.getByText('None chosen: the discount applies to every product.').waitFor();
    await products.getByRole('checkbox', { name: 'Pro plan' }).check();
    await products.getByText('Applies to the product chosen only.').waitFor();
    await expectNoSeriousA11yViolations(page, 'new discount limited to a product');
    await dialog.getByRole('button', { name: 'Create discount' }).click();
    await page.getByRole('table', { name: 'Discounts' }).getByRole('row').filter({ hasText: 'PROLAUNCH' }).waitFor();
    const saved = (await api('GET', `/v1/discounts/?organization_id=${organizationId}`)).items[0];
    expect(saved.products.map((product: { id: string }) => product.id)).toEqual([ids['Pro plan']]);

    await page.getByRole('button', { name: 'Edit Pro launch' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Pro launch' });
    expect(await edit.getByRole('checkbox', { name: 'Pro plan' }).isChecked()).toBe(true);
    expect(await edit.getByRole('checkbox', { name: 'Team plan' }).isChecked()).toBe(false);
    await edit.getByRole('checkbox', { name: 'Team plan' }).check();
    await edit.getByRole('button', { name: 'Save discount' }).click();
    await edit.waitFor({ state: 'hidden' });
    const updated = await api('GET', `/v1/discounts/${saved.id}`);
    expect(updated.products.map((product: { id: string }) => product.id).sort()).toEqual(
      [ids['Pro plan'], ids['Team plan']].sort(),
    );

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^discounts-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'ID,Name,Code,Type,Percent,Currency,Amount,Duration,Duration in months,Starts at,Ends at,Max redemptions,Redemptions,Products,Created at',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]!.startsWith(`${saved.id},Pro launch,PROLAUNCH,percentage,10,,,`)).toBe(true);
  });

  it('edits a checkout link in place: its URL stays the same', async () => {
    await dashboardLink(page, 'Checkout links').click();
    await page.getByRole('button', { name: 'Edit Newsletter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit “Newsletter”' });
    expect(await dialog.getByLabel('Label').inputValue()).toBe('Newsletter');
    expect(await dialog.getByRole('checkbox', { name: 'Pro plan' }).isChecked()).toBe(true);
    await dialog.getByLabel('Label').fill('Newsletter, spring');
    await dialog.getByRole('checkbox', { name: 'Team plan' }).check();
    await dialog.getByRole('checkbox', { name: 'Require a billing address' }).check();
    await expectNoSeriousA11yViolations(page, 'edit checkout link');
    await dialog.getByRole('button', { name: 'Save checkout link' }).click();
    const row = page
      .getByRole('table', { name: 'Checkout links' })
      .getByRole('row')
      .filter({ hasText: 'Newsletter, spring' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Team plan');
    const link = await api('GET', `/v1/checkout-links/${ids.link}`);
    expect(link.label).toBe('Newsletter, spring');
    expect(link.require_billing_address).toBe(true);
    expect(link.url).toBe(ids.linkUrl);
    expect(link.products.map((product: { id: string }) => product.id).sort()).toEqual(
      [ids['Pro plan'], ids['Team plan']].sort(),
    );
  });
});
