import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exposedDevelopmentWarning, isLiveStripeKey, loadConfig } from './config.js';
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
