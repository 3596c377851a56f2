import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook, WebhookVerificationError } from '../src/index.js';

const secret = 'whsec_endpoint-secret-as-stored';
const payload = JSON.stringify({ type: 'customer.created', data: { id: 'c1', email: 'a@example.com' } });
const now = new Date('2026-01-15T12:00:00Z');
const seconds = Math.floor(now.getTime() / 1000);

/** What the server computes: HMAC-SHA256 keyed with the UTF-8 bytes of the secret string. */
function serverSignature(id: string, timestamp: number, body: string, key = secret): string {
  return `v1,${createHmac('sha256', Buffer.from(key, 'utf8')).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

function headers(signature: string, timestamp = seconds, id = 'msg_1'): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

describe('verifyWebhook', () => {
  it('accepts a delivery signed with the UTF-8 bytes of the secret and returns the event', async () => {
    const event = await verifyWebhook(payload, headers(serverSignature('msg_1', seconds, payload)), secret, { now });
    expect(event).toEqual({ type: 'customer.created', data: { id: 'c1', email: 'a@example.com' } });
    // Bytes, a Headers object and mixed-case names work too.
    const fetchHeaders = new Headers({
      'Webhook-Id': 'msg_1',
      'Webhook-Timestamp': String(seconds),
      'Webhook-Signature': `v1,AAAA ${serverSignature('msg_1', seconds, payload)}`,
    });
    await expect(
      verifyWebhook(new TextEncoder().encode(payload), fetchHeaders, secret, { now }),
    ).resolves.toMatchObject({
      type: 'customer.created',
    });
  });

  it('agrees with the Standard Webhooks library given the base64 of the secret bytes (as @polar-sh/sdk does)', async () => {
    const library = new Webhook(Buffer.from(secret, 'utf8').toString('base64'));
    const signature = library.sign('msg_2', now, payload);
    await expect(verifyWebhook(payload, headers(signature, seconds, 'msg_2'), secret, { now })).resolves.toBeTruthy();
    expect(await signWebhook(payload, 'msg_2', now, secret)).toBe(signature);
  });

  it('rejects a wrong signature, another secret, a changed body and missing headers', async () => {
    const good = serverSignature('msg_1', seconds, payload);
    const failures = [
      () => verifyWebhook(payload, headers('v1,AAAA'), secret, { now }),
      () => verifyWebhook(payload, headers(serverSignature('msg_1', seconds, payload, 'other')), secret, { now }),
      () => verifyWebhook(`${payload} `, headers(good), secret, { now }),
      () => verifyWebhook(payload, headers(good.replace('v1,', 'v2,')), secret, { now }),
      () => verifyWebhook(payload, { 'webhook-id': 'msg_1' }, secret, { now }),
      // Base64 of the secret as the key (the usual Standard Webhooks reading) is not what the server does.
      () =>
        verifyWebhook(
          payload,
          headers(serverSignature('msg_1', seconds, payload, Buffer.from(secret).toString('base64'))),
          secret,
          { now },
        ),
    ];
    for (const failure of failures) await expect(failure()).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  it('rejects timestamps more than five minutes away', async () => {
    const old = seconds - 301;
    const future = seconds + 301;
    await expect(
      verifyWebhook(payload, headers(serverSignature('msg_1', old, payload), old), secret, { now }),
    ).rejects.toThrow('Message timestamp too old');
    await expect(
      verifyWebhook(payload, headers(serverSignature('msg_1', future, payload), future), secret, { now }),
    ).rejects.toThrow('Message timestamp too new');
    const edge = seconds - 300;
    await expect(
      verifyWebhook(payload, headers(serverSignature('msg_1', edge, payload), edge), secret, { now }),
    ).resolves.toBeTruthy();
  });

  it('uses only Web Crypto and Web APIs (no node: imports), so it runs in browsers', async () => {
    const { readFileSync } = await import('node:fs');
    const source = readFileSync(new URL('../src/lib/webhooks.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/from 'node:|require\(|Buffer\./);
    expect(source).toMatch(/crypto\.subtle/);
  });
});
