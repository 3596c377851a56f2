import { WebhookVerificationError } from './errors.js';

/**
 * Webhook signatures (Standard Webhooks), with Web Crypto so the same code runs in browsers, Node 20
 * and edge runtimes. The HMAC-SHA256 key is the UTF-8 bytes of the endpoint secret string exactly as
 * configured (a `whsec_` prefix, if any, is part of the key); the signed content is
 * `<webhook-id>.<webhook-timestamp>.<raw body>`.
 */

/** Largest accepted distance between the webhook timestamp and now, in seconds. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface WebhookEvent<T = unknown> {
  type: string;
  data: T;
  [key: string]: unknown;
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Accepted clock skew in seconds (default 300). */
  toleranceSeconds?: number;
  /** The current time (tests). */
  now?: Date;
}

const encoder = new TextEncoder();

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

function toBytes(payload: string | Uint8Array): Uint8Array {
  return typeof payload === 'string' ? encoder.encode(payload) : payload;
}

function base64Encode(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function base64Decode(value: string): Uint8Array | null {
  try {
    const binary = atob(value);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

function signedContent(id: string, timestamp: string, payload: string | Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const body = toBytes(payload);
  const content = new Uint8Array(prefix.length + body.length);
  content.set(prefix, 0);
  content.set(body, prefix.length);
  return content;
}

function hmacKey(secret: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
}

/**
 * Checks the signature and timestamp of a webhook delivery and returns the parsed event. Pass the raw
 * body exactly as received (string or bytes), the request headers and the endpoint secret. Throws
 * WebhookVerificationError when the headers are missing, the timestamp is too old or too new, or no
 * `v1` signature matches.
 */
export async function verifyWebhook<T = unknown>(
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): Promise<WebhookEvent<T>> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing required headers');

  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || !Number.isSafeInteger(seconds))
    throw new WebhookVerificationError('Invalid Signature Headers');
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  if (now - seconds > tolerance) throw new WebhookVerificationError('Message timestamp too old');
  if (seconds - now > tolerance) throw new WebhookVerificationError('Message timestamp too new');

  const key = await hmacKey(secret, 'verify');
  const content = signedContent(id, timestamp, payload);
  let verified = false;
  for (const entry of signatures.split(' ')) {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) continue;
    const bytes = base64Decode(signature);
    // crypto.subtle.verify compares in constant time.
    if (bytes && (await crypto.subtle.verify('HMAC', key, new Uint8Array(bytes), content))) {
      verified = true;
      break;
    }
  }
  if (!verified) throw new WebhookVerificationError('No matching signature found');

  const text = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch (cause) {
    throw new WebhookVerificationError('Invalid JSON payload', { cause });
  }
  if (typeof event !== 'object' || event === null || typeof (event as { type?: unknown }).type !== 'string')
    throw new WebhookVerificationError('Invalid event payload');
  return event as WebhookEvent<T>;
}

/**
 * The `webhook-signature` value (`v1,<base64>`) for a payload: what the server sends, handy for tests
 * and for forwarding deliveries.
 */
export async function signWebhook(
  payload: string | Uint8Array,
  id: string,
  timestamp: number | Date,
  secret: string,
): Promise<string> {
  const seconds = typeof timestamp === 'number' ? timestamp : Math.floor(timestamp.getTime() / 1000);
  const key = await hmacKey(secret, 'sign');
  const mac = await crypto.subtle.sign('HMAC', key, signedContent(id, String(seconds), payload));
  return `v1,${base64Encode(new Uint8Array(mac))}`;
}
