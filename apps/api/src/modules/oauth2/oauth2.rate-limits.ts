import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Subject } from '../../platform/auth/subject.js';
import type { RateLimitRule } from '../../platform/http/rate-limit.js';

/**
 * Rate limits of the client-authenticated endpoints (token, introspection, revocation), counted in the
 * shared store of platform/http/rate-limit.ts (PostgreSQL, so every node counts together) before the
 * library reads the request. Per address, and per client named in the request (Basic header or
 * `client_id`), authenticated or not: a client's secret is 256 random bits, so these limits bound load,
 * not guessing, and someone spending a client's count locks it out for the rest of one minute at most.
 */

const MINUTE = 60;

export const ANONYMOUS: Subject = { kind: 'anonymous' };

/** How a client is counted: the digest of its id (ids of any length make keys of one). */
export function clientIdentity(clientId: string): string {
  return createHash('sha256').update(clientId).digest('base64url').slice(0, 22);
}

/** The client a token, introspection or revocation request names, if any. */
export function clientIdOf(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (authorization && /^basic /i.test(authorization)) {
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) {
      try {
        return decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, '%20'));
      } catch {
        return decoded.slice(0, colon);
      }
    }
  }
  if (typeof request.body !== 'string') return undefined;
  const clientId = new URLSearchParams(request.body).get('client_id');
  return clientId ? clientId : undefined;
}

const everyCall = () => true;

/** Before `RATE_LIMIT_SCALE`. */
export const OAUTH2_RATE_LIMITS: RateLimitRule[] = [
  {
    name: 'oauth2:ip',
    applies: everyCall,
    identity: ({ request }) => request.ip,
    limits: [{ limit: 120, windowSeconds: MINUTE }],
    scaled: true,
  },
  {
    name: 'oauth2:client',
    applies: everyCall,
    identity: ({ request }) => {
      const clientId = clientIdOf(request);
      return clientId && clientIdentity(clientId);
    },
    limits: [{ limit: 300, windowSeconds: MINUTE }],
    scaled: true,
  },
];
