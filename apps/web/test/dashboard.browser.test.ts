import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { startTestServer, type TestServer } from '../../api/test/harness.js';
import { expectNoSeriousA11yViolations, hasChromium, launchBrowser, openPage } from './browser.js';

/**
 * The seller dashboard in a real browser against the real server (embedded database), through the
 * pages a person uses.
 */
describe.skipIf(!hasChromium)('seller dashboard in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const email = 'ada@example.com';
  const password = 'correct horse battery';

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

  it('sends a visitor without a session to sign in, and offers to create an account', async () => {
    await page.goto('/dashboard');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');
    await expect(page.getByRole('heading', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
    await expectNoSeriousA11yViolations(page, 'sign in');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
  });

  it('shows the refusal of a short password next to the field', async () => {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    const field = page.getByLabel('Password');
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    const message = page.locator(`[id="${(await field.getAttribute('aria-describedby'))!.split(' ').pop()}"]`);
    expect(await message.textContent()).toBe('Must be at least 8 characters.');
    await expectNoSeriousA11yViolations(page, 'sign up with a refused password');
  });

  it('signs up and creates the first organization', async () => {
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Create your first organization' }).waitFor();
    await expectNoSeriousA11yViolations(page, 'first organization');
    await page.getByLabel('Organization name').fill('Acme Software');
    expect(await page.getByLabel('Slug').inputValue()).toBe('acme-software');
    await page.getByRole('button', { name: 'Create organization' }).click();
    // The organization's home is its overview.
    await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/acme-software/overview');
    await page.getByText('No orders yet.').waitFor();
    await expectNoSeriousA11yViolations(page, 'overview, empty');
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Products', exact: true })
      .click();
    await page.getByRole('heading', { name: 'No products yet' }).waitFor();
    await expectNoSeriousA11yViolations(page, 'products, empty');
  });

  it('creates a product with a fixed price and lists it', async () => {
    await page.getByRole('link', { name: 'New product' }).click();
    await page.getByLabel('Product name').fill('Pro plan');
    await page.getByLabel('Billing').click();
    await page.getByRole('option', { name: 'Monthly subscription' }).click();
    await page.getByLabel('Amount').fill('0.10');
    await page.getByRole('button', { name: 'Create product' }).click();
    // Below the smallest chargeable amount: refused, and said next to the amount.
    const amount = page.getByLabel('Amount');
    await expect.poll(() => amount.getAttribute('aria-invalid')).toBe('true');
    await page.getByText('Must be at least 50.').waitFor();
    await expectNoSeriousA11yViolations(page, 'new product with a refused amount');

    await page.getByLabel('Amount').fill('25');
    await page.getByRole('button', { name: 'Create product' }).click();
    const table = page.getByRole('table', { name: 'Products' });
    await table.waitFor();
    const row = table.getByRole('row').filter({ hasText: 'Pro plan' });
    await expect(row.getByText('$25.00').isVisible()).resolves.toBe(true);
    await expect(row.getByText('Monthly').isVisible()).resolves.toBe(true);
    await expectNoSeriousA11yViolations(page, 'products');
  });

  it('creates an access token that is shown once', async () => {
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Access tokens' }).click();
    await page.getByRole('heading', { name: 'No access tokens' }).waitFor();
    await page.getByRole('button', { name: 'New access token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New access token' });
    await dialog.getByLabel('Name').fill('Production backend');
    await dialog.getByRole('button', { name: 'Select all scopes' }).click();
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const created = page.getByRole('dialog', { name: 'Access token created' });
    await created.getByText('Copy this token now: it is shown only once.').waitFor();
    expect(await created.getByLabel('New access token').textContent()).toMatch(/^polar_oat_/);
    await expect(created.getByRole('button', { name: 'Copy token' }).isVisible()).resolves.toBe(true);
    await expectNoSeriousA11yViolations(page, 'access token created');
    await created.getByRole('button', { name: 'Done' }).click();
    const row = page
      .getByRole('table', { name: 'Access tokens' })
      .getByRole('row')
      .filter({ hasText: 'Production backend' });
    await row.waitFor();
    expect(await row.textContent()).not.toMatch(/polar_oat_/);
  });

  it('creates a discount', async () => {
    await page.getByRole('link', { name: 'Discounts' }).click();
    await page.getByRole('heading', { name: 'No discounts yet' }).waitFor();
    await page.getByRole('button', { name: 'New discount' }).click();
    const dialog = page.getByRole('dialog', { name: 'New discount' });
    await dialog.getByLabel('Discount name').fill('Launch');
    await dialog.getByLabel('Code').fill('LAUNCH20');
    await dialog.getByLabel('Percentage').fill('20');
    await expectNoSeriousA11yViolations(page, 'new discount');
    await dialog.getByRole('button', { name: 'Create discount' }).click();
    const row = page.getByRole('table', { name: 'Discounts' }).getByRole('row').filter({ hasText: 'LAUNCH20' });
    await row.waitFor();
    await expect(row.getByText('20% off once').isVisible()).resolves.toBe(true);
    await expectNoSeriousA11yViolations(page, 'discounts');
  });

  it('creates a checkout link for the product with the discount', async () => {
    await page.getByRole('link', { name: 'Checkout links' }).click();
    await page.getByRole('heading', { name: 'No checkout links yet' }).waitFor();
    await page.getByRole('button', { name: 'New checkout link' }).click();
    const dialog = page.getByRole('dialog', { name: 'New checkout link' });
    await dialog.getByLabel('Label').fill('Launch tweet');
    await dialog.getByRole('checkbox', { name: 'Pro plan' }).check();
    await expectNoSeriousA11yViolations(page, 'new checkout link');
    await dialog.getByLabel('Discount applied').click();
    await page.getByRole('option', { name: 'Launch' }).click();
    await dialog.getByRole('button', { name: 'Create checkout link' }).click();
    const row = page
      .getByRole('table', { name: 'Checkout links' })
      .getByRole('row')
      .filter({ hasText: 'Launch tweet' });
    await row.waitFor();
    await expect(row.getByText('Pro plan').isVisible()).resolves.toBe(true);
    await expect(row.getByRole('button', { name: 'Copy URL' }).isVisible()).resolves.toBe(true);
    expect(await row.getByRole('link', { name: 'Open Launch tweet in a new tab' }).getAttribute('href')).toMatch(
      /^https?:\/\//,
    );
    await expectNoSeriousA11yViolations(page, 'checkout links');
  });

  it('signs out, refuses a wrong password in words, and signs in again', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.goto('/dashboard/acme-software/products');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').textContent()).toMatch(/\w+/);

    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Sign-in returns to the page asked for before it.
    await page.getByRole('heading', { name: 'Products', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/acme-software/products');
    await page.getByRole('table', { name: 'Products' }).getByRole('row').filter({ hasText: 'Pro plan' }).waitFor();
  });
});
