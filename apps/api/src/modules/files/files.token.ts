import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Download tokens of the portal's downloadables: `<payload>.<signature>`, the payload base64url JSON
 * `{id, exp}` (the downloadable, unix seconds), the signature an HMAC-SHA256 under a key derived from
 * the server secret. Pure: table-tested.
 */
export type TokenVerdict =
  { kind: 'valid'; id: string } | { kind: 'malformed' } | { kind: 'invalid' } | { kind: 'expired' };

export function downloadTokenKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('tessera downloadable token v1').digest();
}

function sign(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

export function issueDownloadToken(key: Buffer, id: string, expiresAt: Date): string {
  const payload = Buffer.from(JSON.stringify({ id, exp: Math.floor(expiresAt.getTime() / 1000) })).toString(
    'base64url',
  );
  return `${payload}.${sign(key, payload)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Malformed (not `<base64url>.<base64url>`, or a signed payload without a valid id) → 400; a signature
 * that does not match → 404; past its expiry → 410.
 */
export function verifyDownloadToken(key: Buffer, token: string, now: Date): TokenVerdict {
  const parts = token.split('.');
  if (parts.length !== 2 || !parts.every((part) => /^[A-Za-z0-9_-]{1,2048}$/.test(part))) return { kind: 'malformed' };
  const [payload, signature] = parts as [string, string];
  const expected = Buffer.from(sign(key, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { kind: 'invalid' };
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { kind: 'malformed' };
  }
  const { id, exp } = (decoded ?? {}) as { id?: unknown; exp?: unknown };
  if (typeof id !== 'string' || !UUID.test(id) || typeof exp !== 'number') return { kind: 'malformed' };
  if (now.getTime() >= exp * 1000) return { kind: 'expired' };
  return { kind: 'valid', id };
}
