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
