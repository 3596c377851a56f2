import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../api/src/platform/clock.js';
import { startTestServer, type TestServer } from '../../api/test/harness.js';
import { dashboardLink, hasChromium, launchBrowser, openPage, screenshot, signUp } from './browser.js';

/**
 * Files through the pages a person uses, on the local-disk storage: the seller uploads a product image
 * and a downloadable file (in two parts, each with its SHA-256) and a logo (at 390 px wide), and sells them
 * through a checkout link; the buyer sees the image at checkout, pays, opens the portal from the
 * thank-you page and downloads the file, byte for byte. Screenshots in test/artifacts/files-*.png.
 */

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** A 1×1 PNG: the storage checks that an image is one. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** 12 MiB of varied bytes: two parts of the uploader (8 MiB and 4 MiB). */
function downloadableBytes(): Buffer {
  const data = Buffer.alloc(12 * 1024 * 1024);
  for (let index = 0; index < data.length; index += 32)
    createHash('sha256').update(String(index)).digest().copy(data, index);
  return data;
}

describe.skipIf(!hasChromium)('files in the browser: product image, downloadable, portal download', () => {
  let server: TestServer;
  let browser: Browser;
  let seller: Page;
  let checkoutLink = '';
  let portalLink = '';
  const book = downloadableBytes();

  const newPage = () => openPage(browser, server.url, 20_000);
  const shot = (page: Page, name: string) => screenshot(page, `files-${name}`);
  const nav = (name: string) => dashboardLink(seller, name);

  beforeAll(async () => {
    // Download links carry BASE_URL: the server's own address.
    const port = await freePort();
    [server, browser] = await Promise.all([
      startTestServer({ listen: true, clock: systemClock, config: { port, baseUrl: `http://127.0.0.1:${port}` } }),
      launchBrowser(),
    ]);
    seller = (await newPage()).page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the seller uploads a downloadable file in a downloadables benefit', async () => {
    await signUp(seller, 'lin@example.com', 'a long enough password', 'Files Works');
    await nav('Benefits').click();
    await seller.getByRole('button', { name: 'New benefit' }).click();
    const dialog = seller.getByRole('dialog', { name: 'New benefit' });
    await dialog.getByLabel('Benefit type').click();
    await seller.getByRole('option', { name: /^Downloadables/ }).click();
    await dialog.getByLabel('Description').fill('The e-book');
    await dialog.getByRole('group', { name: 'Files to download' }).waitFor();
    await dialog
      .locator('input[type=file][aria-label="Files to download"]')
      .setInputFiles({ name: 'book.pdf', mimeType: 'application/pdf', buffer: book });
    // Uploaded: listed with its size, ready to be saved with the benefit.
    const listed = dialog.getByRole('list', { name: 'Files of this benefit' }).getByRole('listitem');
    await listed.filter({ hasText: 'book.pdf' }).getByText('12.0 MB').waitFor({ timeout: 30_000 });
    await dialog.getByRole('status').filter({ hasText: 'book.pdf uploaded.' }).waitFor();
    await shot(seller, 'benefit-uploaded');
    await dialog.getByRole('button', { name: 'Create benefit' }).click();
    await seller.getByRole('table', { name: 'Benefits' }).getByText('The e-book').waitFor();

    const files = await server.runtime.database.db.selectFrom('files').selectAll().execute();
    expect(files.map((file) => [file.name, Number(file.size), file.is_uploaded, file.service])).toEqual([
      ['book.pdf', book.length, true, 'downloadable'],
    ]);
    expect(files[0]!.checksum_sha256_base64).toBe(createHash('sha256').update(book).digest('base64'));
  });

  it('the seller uploads a logo in settings, on a 390 px wide screen', async () => {
    await seller.setViewportSize({ width: 390, height: 844 });
    // At this width the dashboard's navigation is behind its menu button: the page is opened by address.
    await seller.goto('/dashboard/files-works/settings');
    await seller.getByRole('group', { name: 'Upload a logo' }).waitFor();
    await seller.getByText('No logo').waitFor();
    await seller
      .locator('input[type=file][aria-label="Upload a logo"]')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    const preview = seller.getByRole('img', { name: 'Logo of Files Works' });
    await expect
      .poll(() => preview.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(1);
    // Nothing sticks out sideways at the width of a phone.
    expect(
      await seller.evaluate(
        () =>
          (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement
            .scrollWidth,
      ),
    ).toBeLessThanOrEqual(390);
    await shot(seller, 'settings-logo-390');
    await seller.getByRole('button', { name: 'Save settings' }).click();
    await expect
      .poll(async () => {
        const row = await server.runtime.database.db
          .selectFrom('organizations')
          .select('avatar_url')
          .where('slug', '=', 'files-works')
          .executeTakeFirstOrThrow();
        return row.avatar_url;
      })
      .toMatch(/\/organization_avatar\/.+\/logo\.png$/);
    await seller.setViewportSize({ width: 1280, height: 900 });
  });

  it('the seller creates a product with an image and the benefit, and a checkout link', async () => {
    await nav('Products').click();
    await seller.getByRole('link', { name: 'New product' }).click();
    await seller.getByLabel('Product name').fill('Field guide');
    await seller.getByLabel('Amount').fill('9');
    await seller
      .locator('input[type=file][aria-label="Product images"]')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
    const image = seller.getByRole('img', { name: 'cover.png' });
    await image.waitFor();
    // The preview is the stored image, served from its public address.
    await expect
      .poll(() => image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(1);
    await seller
      .getByRole('group', { name: 'Benefits' })
      .getByRole('checkbox', { name: /The e-book/ })
      .check();
    await shot(seller, 'product-form');
    await seller.getByRole('button', { name: 'Create product' }).click();
    await seller.getByRole('table', { name: 'Products' }).getByRole('row').filter({ hasText: 'Field guide' }).waitFor();
    const medias = await server.runtime.database.db.selectFrom('product_medias').selectAll().execute();
    expect(medias).toHaveLength(1);

    await nav('Checkout links').click();
    await seller.getByRole('button', { name: 'New checkout link' }).click();
    const dialog = seller.getByRole('dialog', { name: 'New checkout link' });
    await dialog.getByLabel('Label').fill('Guide');
    await dialog.getByRole('checkbox', { name: 'Field guide' }).check();
    await dialog.getByRole('button', { name: 'Create checkout link' }).click();
    const row = seller.getByRole('table', { name: 'Checkout links' }).getByRole('row').filter({ hasText: 'Guide' });
    checkoutLink = (await row.getByRole('link', { name: 'Open Guide in a new tab' }).getAttribute('href'))!;
  });

  it('the buyer sees the image at checkout and pays', async () => {
    const { page } = await newPage();
    await page.goto(checkoutLink);
    await page
      .getByRole('heading', { name: 'Field guide' })
      .waitFor()
      .catch(async (error: unknown) => {
        await shot(page, 'checkout-failed');
        throw new Error(`${String(error)}\n${await page.locator('body').innerText()}`);
      });
    const image = page.getByRole('img', { name: 'Field guide' });
    await expect
      .poll(() => image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(1);
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await page.getByLabel('Country').click();
    await page.getByRole('option', { name: 'France', exact: true }).click();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry date').fill('12 / 34');
    await page.getByLabel('Security code').fill('123');
    await shot(page, 'checkout');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByText('Your order of Field guide is complete.').waitFor();
    portalLink = (await page.getByRole('link', { name: 'Open the customer portal' }).getAttribute('href'))!;
  });

  it('the customer downloads the file from the portal, byte for byte', async () => {
    const { page } = await newPage();
    await page.goto(portalLink);
    await page.getByRole('heading', { name: 'Welcome, Ada Lovelace' }).waitFor();
    const downloads = page
      .getByRole('navigation', { name: 'Customer portal' })
      .getByRole('link', { name: 'Downloads', exact: true });
    // The grant is made by a background job after the payment: the link appears once it is done.
    await expect
      .poll(
        async () => {
          if (await downloads.count()) return true;
          await page.reload();
          return false;
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toBe(true);
    await downloads.click();
    const row = page.getByRole('list', { name: 'Downloads' }).getByRole('listitem').filter({ hasText: 'book.pdf' });
    await row.getByText('12.0 MB').waitFor();
    await shot(page, 'portal-downloads');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('link', { name: 'Download book.pdf' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('book.pdf');
    const received = await readFile((await download.path())!);
    expect(received.length).toBe(book.length);
    expect(received.equals(book)).toBe(true);

    const counted = await server.runtime.database.db.selectFrom('downloadables').select('downloaded').execute();
    expect(counted.map((row) => Number(row.downloaded))).toEqual([1]);
  });
});
