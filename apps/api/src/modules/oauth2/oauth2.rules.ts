import { createHash } from 'node:crypto';
import { GRANTABLE_SCOPES } from '../../platform/auth/scopes.js';

/** Pure rules of the authorization server (table-tested in oauth2.rules.test.ts). */

const PRIVATE_IPV4 = [/^10\./, /^127\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./];

/**
 * A redirect URI must be https; http only for the machine itself (localhost, *.localhost, localhostNNN)
 * or a private IPv4 host. No fragment (RFC 6749 §3.1.2).
 */
export function isAllowedRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash) return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol !== 'http:') return false;
  const host = url.hostname;
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^localhost\d+$/.test(host) ||
    host === '[::1]' ||
    PRIVATE_IPV4.some((pattern) => pattern.test(host))
  );
}

/** An informational URL of a client (home page, logo, terms, policy): http or https. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The scopes of a space-separated list, or the first unknown one. */
export function parseScopes(value: string): { scopes: string[] } | { unknown: string } {
  const scopes = [...new Set(value.split(/\s+/).filter(Boolean))];
  for (const scope of scopes) {
    if (!(GRANTABLE_SCOPES as readonly string[]).includes(scope)) return { unknown: scope };
  }
  return { scopes };
}

export const DEFAULT_CLIENT_SCOPE = GRANTABLE_SCOPES.join(' ');

// RFC 7636 §4.1: a verifier (and so a plain challenge) is 43 to 128 unreserved characters.
const PKCE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/**
 * PKCE `plain` (RFC 7636 §4.2) carried by the library's S256. With plain, the verifier must equal the
 * challenge; and verifier = challenge exactly when S256(verifier) = S256(challenge). So an authorization
 * request with a plain challenge is handed to the library with that challenge's S256 and the method
 * S256: its own check at the token endpoint then accepts exactly the verifiers plain accepts. A challenge
 * of the wrong shape is left as sent, for the library to refuse with its message. Parameters sent twice
 * are left alone too (the library refuses them). Answers whether the parameters were changed.
 */
export function plainChallengeAsS256(params: URLSearchParams): boolean {
  if (params.getAll('code_challenge_method').length !== 1 || params.get('code_challenge_method') !== 'plain') {
    return false;
  }
  const challenges = params.getAll('code_challenge');
  if (challenges.length > 1) return false;
  params.set('code_challenge_method', 'S256');
  const challenge = challenges[0];
  if (challenge !== undefined && PKCE_VERIFIER.test(challenge)) {
    params.set('code_challenge', createHash('sha256').update(challenge).digest('base64url'));
  }
  return true;
}
