import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { exposedDevelopmentWarning, isLiveStripeKey, loadConfig, parseTrustProxy } from './config.js';
import { inNetworks } from './modules/webhooks/webhooks.url-guard.js';

const SECRET = 'config-test-secret-0123456789abcdefghij';
const load = (env: NodeJS.ProcessEnv) =>
  loadConfig({ SECRET, DATA_DIR: join(mkdtempSync(join(tmpdir(), 'tessera-config-')), 'data'), ...env });
const STRIPE = { STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' };

describe('safe defaults', () => {
  it('without NODE_ENV is development, on loopback', () => {
    const config = load({});
    expect(config).toMatchObject({ production: false, devMode: true, allowSimulatedPayments: true, host: '127.0.0.1' });
    expect(config.webhookAllowedNetworks).toEqual([]);
  });

  it('NODE_ENV=production turns the conveniences off', () => {
    expect(load({ NODE_ENV: 'production' })).toMatchObject({ devMode: false, allowSimulatedPayments: false });
  });

  it.each([
    [{ STRIPE_SECRET_KEY: 'sk_live_123', ...STRIPE }],
    [{ STRIPE_SECRET_KEY: 'rk_live_123', ...STRIPE }],
    [{ STRIPE_SECRET_KEY: 'sk_live_123', ALLOW_SIMULATED_PAYMENTS: 'true', ...STRIPE }],
    [{ STRIPE_SECRET_KEY: 'sk_live_123', NODE_ENV: 'development', ...STRIPE }],
    [{ STRIPE_SECRET_KEY: 'sk_live_123', NODE_ENV: 'production', ALLOW_SIMULATED_PAYMENTS: 'true', ...STRIPE }],
  ])('a live Stripe key switches off the test clock and simulated payments: %o', (env) => {
    expect(load(env)).toMatchObject({ devMode: false, allowSimulatedPayments: false });
  });

  it('a live key given as an override does too', () => {
    const config = loadConfig(
      { SECRET },
      {
        dataDir: mkdtempSync(join(tmpdir(), 'tessera-config-')),
        stripeSecretKey: 'sk_live_1',
        stripePublishableKey: 'pk',
      },
    );
    expect(config).toMatchObject({ devMode: false, allowSimulatedPayments: false });
  });

  it('a test key keeps development as it is', () => {
    expect(load({ STRIPE_SECRET_KEY: 'sk_test_123', ...STRIPE })).toMatchObject({ devMode: true });
  });

  it.each([
    ['sk_live_abc', true],
    ['rk_live_abc', true],
    ['sk_test_abc', false],
    ['pk_live_abc', false],
    [undefined, false],
  ])('isLiveStripeKey(%s) → %s', (key, live) => {
    expect(isLiveStripeKey(key)).toBe(live);
  });

  it('WEBHOOK_ALLOWED_NETWORKS lists the networks allowed, and a typo stops the start', () => {
    const config = load({ WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/8, fd00::/8' });
    expect(inNetworks('10.9.8.7', config.webhookAllowedNetworks)).toBe(true);
    expect(inNetworks('192.168.0.1', config.webhookAllowedNetworks)).toBe(false);
    expect(() => load({ WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/40' })).toThrow(/WEBHOOK_ALLOWED_NETWORKS/);
  });
});

describe('exposedDevelopmentWarning', () => {
  it.each([
    [true, '127.0.0.1', false],
    [true, 'localhost', false],
    [true, '::1', false],
    [true, '0.0.0.0', true],
    [true, '::', true],
    [true, '192.168.1.20', true],
    [false, '0.0.0.0', false],
  ])('devMode %s on %s → warning %s', (devMode, host, warns) => {
    const warning = exposedDevelopmentWarning({ devMode, host });
    expect(Boolean(warning)).toBe(warns);
    if (warning) expect(warning).toContain(host);
  });
});

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, 'loopback,linklocal,uniquelocal'],
    ['', 'loopback,linklocal,uniquelocal'],
    ['false', false],
    ['true', true],
    ['10.0.0.0/8, 192.0.2.1', '10.0.0.0/8, 192.0.2.1'],
  ])('%j → %j', (raw, expected) => expect(parseTrustProxy(raw)).toEqual(expected));

  it('by default a client cannot choose its address; a proxy on a private network can tell it', async () => {
    const app = Fastify({ trustProxy: parseTrustProxy(undefined) });
    app.get('/ip', async (request) => request.ip);
    const ip = async (remoteAddress: string, forwarded?: string) =>
      (
        await app.inject({
          url: '/ip',
          remoteAddress,
          headers: forwarded ? { 'x-forwarded-for': forwarded } : {},
        })
      ).body;
    expect(await ip('203.0.113.5', '1.2.3.4')).toBe('203.0.113.5');
    expect(await ip('10.0.0.2', '198.51.100.7')).toBe('198.51.100.7');
    // A client behind the proxy prepending an address of its choice is still seen as itself.
    expect(await ip('10.0.0.2', '1.2.3.4, 198.51.100.7')).toBe('198.51.100.7');
    await app.close();
  });
});
