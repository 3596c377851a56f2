import { describe, expect, it } from 'vitest';
import { send } from './webhooks.sender.js';
import { parseNetworks } from './webhooks.url-guard.js';

/** The address check at delivery, on the addresses the connection would use (no receiver needed). */
const attempt = (url: string, devMode: boolean, allowed = '') =>
  send({
    url,
    body: '{}',
    webhookId: 'msg_1',
    secret: 'whsec_test',
    timestamp: 1_700_000_000,
    timeoutMs: 2000,
    policy: { devMode, allowedNetworks: parseNetworks(allowed) },
  });

describe('send: the address check at delivery', () => {
  it('refuses a host name that resolves to loopback outside development, before connecting', async () => {
    const result = await attempt('https://localhost:9/hook', false);
    expect(result).toMatchObject({ httpCode: null, response: null, succeeded: false });
    expect(result.error).toMatch(/^localhost resolves to a non-public address \((IPv4-mapped )?loopback\)$/);
  });

  it('refuses an address in the URL under the policy (development: link-local and private)', async () => {
    for (const url of ['http://169.254.169.254/latest', 'http://10.0.0.1:9/', 'http://[fe80::1]:9/']) {
      const result = await attempt(url, true);
      expect(result).toMatchObject({ httpCode: null, response: null, error: expect.stringMatching(/^non-public/) });
    }
  });

  it('connects where the policy allows (a refused connection, not a refused address)', async () => {
    const result = await attempt('https://localhost:9/hook', false, '127.0.0.0/8,::1');
    expect(result.error).not.toMatch(/non-public/);
    expect(result.httpCode).toBeNull();
  });
});
