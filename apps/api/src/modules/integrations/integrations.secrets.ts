import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Secrets of the Discord and GitHub connections: OAuth tokens and PKCE verifiers are sealed with
 * AES-256-GCM under a key derived from the server secret (a database dump alone reveals none), and an
 * authorization's `state` is stored only as its keyed hash.
 */

function sealKey(secret: string): Buffer {
  return createHash('sha256').update(`tessera oauth connections\n${secret}`).digest();
}

export function seal(secret: string, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(secret), iv);
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

export function unseal(secret: string, stored: string): string {
  const raw = Buffer.from(stored, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', sealKey(secret), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

export function stateHash(secret: string, state: string): string {
  return createHmac('sha256', secret).update(`oauth connect state\n${state}`).digest('hex');
}

/** A fresh `state` (256 bits) and a PKCE pair (RFC 7636, S256). */
export function newAuthorization(): { state: string; codeVerifier: string; codeChallenge: string } {
  const codeVerifier = randomBytes(32).toString('base64url');
  return {
    state: randomBytes(32).toString('base64url'),
    codeVerifier,
    codeChallenge: createHash('sha256').update(codeVerifier).digest('base64url'),
  };
}
