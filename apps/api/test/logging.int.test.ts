import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GRANTABLE_SCOPES } from '../src/platform/auth/scopes.js';
import { REPO_ROOT } from '../src/paths.js';
import { reusableServerDatabase } from './harness.js';

/**
 * No secret reaches the logs: a real `tessera serve` (from the TypeScript source) logging at `trace`,
 * a full journey through its HTTP API — sign-up, organization token, benefit, product, checkout link,
 * checkout created, read, updated and confirmed with the simulated card, the hosted checkout and portal
 * pages, a customer session link, portal calls, license-key validation, a sign-in code by email (with an
 * SMTP_URL carrying a password) — then every secret the server
 * handed out (and the password it was given) is looked for in everything it wrote.
 */

const TIMEOUT = 180_000;
const SMTP_PASSWORD = 'smtp-pass-Zq8rW2vK';
let child: ChildProcess | undefined;
let output = '';
let dataDir = '';
let database: { url: string; drop(): Promise<void> } | undefined;
let base = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function exited(process: ChildProcess): Promise<void> {
  if (process.exitCode !== null || process.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => process.once('close', () => resolve()));
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tessera-logging-'));
  database = await reusableServerDatabase();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: base,
    LOG_LEVEL: 'trace',
    // Nothing listens there: every email fails and is logged, and the password must not be.
    SMTP_URL: `smtp://mailer:${SMTP_PASSWORD}@127.0.0.1:9`,
    ...(database ? { DATABASE_URL: database.url } : {}),
  };
  child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/cli.ts', 'serve'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`tessera serve exited:\n${output}`);
    const ready = await fetch(`${base}/readyz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`tessera serve not ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, TIMEOUT);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
    await exited(child);
  }
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; cookies: string[] }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    redirect: 'manual',
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a page or an empty body
  }
  return { status: response.status, body, cookies: response.headers.getSetCookie() };
}

function expectStatus(answer: { status: number; body: unknown }, status: number, what: string) {
  expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(status);
}

describe('secrets in logs', () => {
  it(
    'a full journey leaves no token, client secret, session link, key or password in the output',
    async () => {
      const secrets: Record<string, string> = {};
      const password = 'correct horse battery staple';
      secrets.password = password;

      const signup = await call('POST', '/v1/auth/signup', { body: { email: 'owner@example.com', password } });
      expectStatus(signup, 201, 'signup');
      const session = signup.cookies.map((cookie) => cookie.split(';')[0]!).find((c) => c.startsWith('tessera_'))!;
      secrets.userSession = session.split('=')[1]!;
      const asUser = { cookie: session, origin: base };
      // A sign-in through the API, with a wrong password first.
      expectStatus(
        await call('POST', '/v1/auth/login', { body: { email: 'owner@example.com', password: 'wrong-password' } }),
        401,
        'bad login',
      );
      const login = await call('POST', '/v1/auth/login', { body: { email: 'owner@example.com', password } });
      expectStatus(login, 200, 'login');
      secrets.userSession2 = login.cookies
        .find((c) => c.startsWith('tessera_'))!
        .split(';')[0]!
        .split('=')[1]!;

      const org = await call('POST', '/v1/organizations/', { body: { name: 'Acme', slug: 'acme' }, headers: asUser });
      expectStatus(org, 201, 'organization');
      const organizationId = org.body.id as string;
      const tokenAnswer = await call('POST', '/v1/organization-access-tokens/', {
        body: { organization_id: organizationId, comment: 'logs', scopes: GRANTABLE_SCOPES },
        headers: asUser,
      });
      expectStatus(tokenAnswer, 201, 'token');
      secrets.organizationToken = tokenAnswer.body.token;
      const asOrg = { authorization: `Bearer ${secrets.organizationToken}` };

      const benefit = await call('POST', '/v1/benefits/', {
        headers: asOrg,
        body: {
          type: 'license_keys',
          description: 'License',
          properties: { prefix: 'ACME', expires: null, activations: null, limit_usage: null },
        },
      });
      expectStatus(benefit, 201, 'benefit');
      const product = await call('POST', '/v1/products/', {
        headers: asOrg,
        body: { name: 'Pro', recurring_interval: null, prices: [{ amount_type: 'fixed', price_amount: 1000 }] },
      });
      expectStatus(product, 201, 'product');
      expectStatus(
        await call('POST', `/v1/products/${product.body.id}/benefits`, {
          headers: asOrg,
          body: { benefits: [benefit.body.id] },
        }),
        200,
        'product benefits',
      );

      const link = await call('POST', '/v1/checkout-links/', {
        headers: asOrg,
        body: { products: [product.body.id] },
      });
      expectStatus(link, 201, 'checkout link');
      secrets.checkoutLinkSecret = link.body.client_secret;
      const redirect = await call('GET', `/v1/checkout-links/${secrets.checkoutLinkSecret}/redirect?query=1`);
      expect(redirect.status).toBeGreaterThanOrEqual(300);

      const checkout = await call('POST', '/v1/checkouts/', { headers: asOrg, body: { products: [product.body.id] } });
      expectStatus(checkout, 201, 'checkout');
      const clientSecret = checkout.body.client_secret as string;
      secrets.checkoutSecret = clientSecret;
      await call('GET', `/checkout/${clientSecret}`);
      expectStatus(await call('GET', `/v1/checkouts/client/${clientSecret}`), 200, 'client get');
      const buyer = {
        customer_email: 'buyer@example.com',
        customer_name: 'Bea Buyer',
        customer_billing_address: { country: 'FR', line1: '1 rue de Rivoli', city: 'Paris', postal_code: '75001' },
      };
      expectStatus(await call('PATCH', `/v1/checkouts/client/${clientSecret}`, { body: buyer }), 200, 'client update');
      const card = await call('POST', '/simulated-processor/confirmation-tokens', {
        body: { card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' } },
      });
      expectStatus(card, 201, 'card');
      secrets.cardToken = card.body.id;
      const confirmed = await call('POST', `/v1/checkouts/client/${clientSecret}/confirm`, {
        body: { ...buyer, confirmation_token_id: card.body.id },
      });
      expectStatus(confirmed, 200, 'confirm');
      if (confirmed.body.customer_session_token) secrets.confirmSession = confirmed.body.customer_session_token;

      // The license key of the grant (granted by a job after the order is paid).
      let key: { key: string } | undefined;
      const deadline = Date.now() + 60_000;
      while (!key && Date.now() < deadline) {
        const keys = await call('GET', `/v1/license-keys/?organization_id=${organizationId}`, { headers: asOrg });
        key = keys.body.items?.[0];
        if (!key) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(key, 'license key granted').toBeDefined();
      secrets.licenseKey = key!.key;

      const customerSession = await call('POST', '/v1/customer-sessions/', {
        headers: asOrg,
        body: { customer_id: confirmed.body.customer_id },
      });
      expectStatus(customerSession, 201, 'customer session');
      secrets.customerSession = customerSession.body.token;
      const portalUrl = new URL(customerSession.body.customer_portal_url as string);
      expect(portalUrl.searchParams.get('customer_session_token')).toBe(secrets.customerSession);
      await call('GET', `${portalUrl.pathname}${portalUrl.search}`);

      const asCustomer = { authorization: `Bearer ${secrets.customerSession}` };
      expectStatus(await call('GET', '/v1/customer-portal/customers/me', { headers: asCustomer }), 200, 'portal me');
      expectStatus(await call('GET', '/v1/customer-portal/orders/', { headers: asCustomer }), 200, 'portal orders');
      // The portal's own page and API calls with the token in the query string, as a link would carry it.
      await call('GET', `/v1/customer-portal/customers/me?customer_session_token=${secrets.customerSession}`);
      const validated = await call('POST', '/v1/customer-portal/license-keys/validate', {
        body: { key: secrets.licenseKey, organization_id: organizationId, increment_usage: 1 },
      });
      expectStatus(validated, 200, 'validate');
      // A portal sign-in code by email (read from the outbox as the development page does), then used.
      expectStatus(
        await call('POST', '/v1/customer-portal/customer-session/request', {
          body: { email: buyer.customer_email, organization_id: organizationId },
        }),
        202,
        'sign-in code',
      );
      const outbox = await call('GET', `/v1/emails/?organization_id=${organizationId}&limit=100`, { headers: asOrg });
      const codeEmail = outbox.body.items.find((item: { template: string }) => item.template === 'portal_sign_in_code');
      secrets.signInCode = /is:\s+([A-Z0-9]{6})/.exec(codeEmail.text_body)![1]!;
      expectStatus(
        await call('POST', '/v1/customer-portal/customer-session/authenticate', { body: { code: secrets.signInCode } }),
        200,
        'code sign-in',
      );
      secrets.smtpPassword = SMTP_PASSWORD;
      // The sender tried (and failed to reach SMTP_URL): its failure is in the logs.
      const failedDeadline = Date.now() + 30_000;
      for (;;) {
        const emails = await call('GET', `/v1/emails/?organization_id=${organizationId}&limit=100`, { headers: asOrg });
        if (emails.body.items.every((item: { last_error: string | null }) => item.last_error !== null)) break;
        expect(Date.now(), 'email attempts').toBeLessThan(failedDeadline);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }

      // Refused calls log too.
      await call('GET', '/v1/products/', {
        headers: { authorization: 'Bearer polar_oat_notARealTokenAtAllButShaped' },
      });
      await call('GET', `/v1/checkouts/client/${clientSecret}x`);

      // Stop the server so that everything it buffered is written.
      child!.kill('SIGTERM');
      await exited(child!);

      // None of the secrets appears…
      for (const [name, secret] of Object.entries(secrets)) expect(secret, name).toBeTruthy();
      const leaked = Object.entries(secrets)
        .filter(([, secret]) => output.includes(secret) || output.includes(encodeURIComponent(secret)))
        .map(([name]) => name);
      expect(leaked).toEqual([]);
      // …and the output does hold the journey's requests (an empty log would prove nothing).
      expect(output).toContain('"url":"/v1/checkouts/client/[redacted]/confirm"');
      expect(output).toContain('customer_session_token=[redacted]');
      expect(output).toContain('/v1/customer-portal/license-keys/validate');
      expect(output).toContain('email not sent, will retry');
    },
    TIMEOUT,
  );
});
