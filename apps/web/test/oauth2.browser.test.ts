import { createHash, randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userFactory } from '../../api/test/factories/users.js';
import { bearer, startTestServer, type TestServer } from '../../api/test/harness.js';
import { expectNoSeriousA11yViolations, hasChromium, launchBrowser, openPage, screenshot } from './browser.js';

/**
 * A seller registers an OAuth app, authorizes it for their organization through the real consent
 * page, the app's token calls the API as the organization, and the seller revokes the grant.
 */
const REDIRECT_URI = 'https://app.example.com/callback';

describe.skipIf(!hasChromium)('OAuth2 consent in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startTestServer({ listen: true });
    browser = await launchBrowser();
    const opened = await openPage(browser, server.url);
    page = opened.page;
    // The app's callback: answered here, the browser never leaves for the network.
    await opened.context.route('https://app.example.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/plain', body: 'app callback' }),
    );
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('registers an app, authorizes it for an organization, and revokes it', async () => {
    // The seller's session in the browser, and their organization.
    const seller = await userFactory(server);
    await page
      .context()
      .addCookies([
        { name: 'tessera_session', value: seller.cookie.slice('tessera_session='.length), url: server.url },
      ]);
    const created = await server.inject({
      method: 'POST',
      url: '/v1/organizations/',
      headers: seller.headers,
      payload: { name: 'Acme OAuth', slug: 'acme-oauth' },
    });
    expect(created.statusCode).toBe(201);

    // Developers → OAuth apps: create the app (its secret shown once), then rotate its secret.
    await page.goto('/dashboard/acme-oauth/settings/oauth-apps');
    await page.getByLabel('App name').fill('Acme Reports');
    await page.getByLabel('Redirect URIs').fill(REDIRECT_URI);
    await page.getByRole('button', { name: 'Create app' }).click();
    const yourApps = page.getByRole('list', { name: 'Your apps' });
    await yourApps.getByText('Acme Reports', { exact: true }).waitFor();
    const issuedSecret = page.getByRole('status', { name: 'New client secret' }).getByText(/^polar_cs_/);
    const firstSecret = (await issuedSecret.textContent())!;
    const listed = async () =>
      (
        (await (await page.request.get('/v1/oauth2/')).json()) as {
          items: { client_id: string; client_secret: string }[];
        }
      ).items[0]!;
    const first = await listed();
    // Kept only as its hash: the list never shows it again.
    expect(first.client_secret).toBe('');
    expect(await yourApps.getByText(firstSecret).count()).toBe(0);
    await page.getByRole('button', { name: 'Rotate secret of Acme Reports' }).click();
    await page.getByRole('status', { name: 'New client secret' }).getByText(firstSecret).waitFor({ state: 'detached' });
    const app = { client_id: first.client_id, client_secret: (await issuedSecret.textContent())! };
    expect(app.client_secret).toMatch(/^polar_cs_/);
    expect(app.client_secret).not.toBe(firstSecret);
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, 'oauth2-apps');

    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      client_id: app.client_id,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'openid products:read',
      sub_type: 'organization',
      state: 'browser-state',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    await page.goto(`/oauth2/authorize?${query}`);
    await page.getByRole('heading', { name: 'Authorize Acme Reports' }).waitFor();
    const permissions = page.getByRole('list', { name: 'Permissions' });
    await expect(permissions.getByText('Know who you are').isVisible()).resolves.toBe(true);
    await expect(permissions.getByText('See products').isVisible()).resolves.toBe(true);
    const organization = page.getByRole('radio');
    expect(await organization.count()).toBe(1);
    expect(await organization.isChecked()).toBe(true);
    await screenshot(page, 'oauth2-consent');

    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(/^https:\/\/app\.example\.com\/callback/);
    const callback = new URL(page.url());
    expect(callback.searchParams.get('state')).toBe('browser-state');
    const code = callback.searchParams.get('code')!;
    expect(code).toMatch(/^polar_ac_/);

    const token = await server.inject({
      method: 'POST',
      url: '/v1/oauth2/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
        client_id: app.client_id,
        client_secret: app.client_secret,
      }).toString(),
    });
    expect(token.statusCode).toBe(200);
    const accessToken = token.json().access_token as string;
    expect(accessToken).toMatch(/^polar_at_o_/);
    expect(
      (await server.inject({ method: 'GET', url: '/v1/products/', headers: bearer(accessToken) })).statusCode,
    ).toBe(200);

    // Connected apps: the seller revokes what they granted; the token stops at once.
    await page.goto('/dashboard/acme-oauth/settings/oauth-apps');
    const connected = page.getByRole('list', { name: 'Connected apps' });
    await connected.getByText('Acme Reports', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Revoke Acme Reports' }).click();
    await page.getByText('You have not authorized any app.').waitFor();
    expect(
      (await server.inject({ method: 'GET', url: '/v1/products/', headers: bearer(accessToken) })).statusCode,
    ).toBe(401);
  });
});
