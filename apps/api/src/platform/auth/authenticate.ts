import type { Config } from '../../config.js';
import { findLiveSessionByHash } from '../../modules/auth/auth.repository.js';
import { findLiveCustomerSessionByTokenHash } from '../../modules/customer-sessions/customer-sessions.repository.js';
import { findLiveAccessToken } from '../../modules/oauth2/oauth2.repository.js';
import {
  findLiveTokenByHash,
  findLiveTokenWithOrganization,
  touchOrganizationAccessToken,
} from '../../modules/organization-access-tokens/organization-access-tokens.repository.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { InsufficientScope, InvalidToken, NotPermitted, Unauthorized } from '../http/errors.js';
import { hasAnyScope } from './scopes.js';
import type { AuthRequirement, Subject } from './subject.js';
import { hashToken, TOKEN_PREFIX } from './tokens.js';

export interface Credentials {
  authorization: string | undefined;
  sessionCookie: string | undefined;
  /** An organization token's organization is read with it (route.ts readsTokenOrganization). */
  withTokenOrganization?: boolean;
}

export interface AuthDeps {
  db: Db;
  config: Config;
  clock: Clock;
  onBackgroundError(error: unknown): void;
}

// last_used_at is advisory: write it at most once a minute per token, off the request's path.
const TOUCH_INTERVAL_MS = 60_000;

const WRONG_SUBJECT = 'The subject of this access token is not valid for this endpoint.';

function bearerValue(header: string): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new InvalidToken();
  return match[1]!;
}

/** Resolves the caller from a bearer token (preferred) or the dashboard session cookie. */
export async function resolveSubject(deps: AuthDeps, credentials: Credentials): Promise<Subject> {
  const now = deps.clock.now();
  if (credentials.authorization !== undefined) {
    const token = bearerValue(credentials.authorization);
    const tokenHash = hashToken(token, deps.config.secret);
    if (token.startsWith(TOKEN_PREFIX.organizationAccessToken)) {
      const found = credentials.withTokenOrganization
        ? await findLiveTokenWithOrganization(deps.db, tokenHash, now)
        : await findLiveTokenByHash(deps.db, tokenHash, now).then(
            (row) => row && { token: row, organization: undefined },
          );
      if (!found) throw new InvalidToken();
      const row = found.token;
      if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > TOUCH_INTERVAL_MS) {
        touchOrganizationAccessToken(deps.db, row.id, now).catch(deps.onBackgroundError);
      }
      return {
        kind: 'organization',
        organizationId: row.organization_id,
        tokenId: row.id,
        scopes: row.scopes,
        ...(found.organization ? { organization: found.organization } : {}),
      };
    }
    if (token.startsWith(TOKEN_PREFIX.userSession)) {
      const session = await findLiveSessionByHash(deps.db, tokenHash, now);
      if (!session) throw new InvalidToken();
      return {
        kind: 'user',
        userId: session.user_id,
        sessionId: session.id,
        scopes: new Set(['web_default']),
        viaCookie: false,
      };
    }
    if (token.startsWith(TOKEN_PREFIX.customerSession)) {
      const found = await findLiveCustomerSessionByTokenHash(deps.db, tokenHash, now);
      if (!found) throw new InvalidToken();
      return {
        kind: 'customer',
        customerId: found.customer.id,
        organizationId: found.customer.organization_id,
        sessionId: found.session.id,
        scopes: new Set(['customer_portal:read', 'customer_portal:write']),
      };
    }
    const oauth2User = token.startsWith(TOKEN_PREFIX.oauth2AccessTokenUser);
    if (oauth2User || token.startsWith(TOKEN_PREFIX.oauth2AccessTokenOrganization)) {
      // Issued by the authorization server on the wall clock (its lifetimes are real time, never the
      // test clock); read on every request, so a revocation or expiry counts at once.
      const found = await findLiveAccessToken(deps.db, tokenHash, new Date());
      if (!found) throw new InvalidToken();
      const scopes = new Set(found.scope.split(' ').filter(Boolean));
      if (oauth2User) return { kind: 'user', userId: found.accountId, sessionId: null, scopes, viaCookie: false };
      return { kind: 'organization', organizationId: found.accountId, tokenId: found.clientId, scopes };
    }
    throw new InvalidToken();
  }
  if (credentials.sessionCookie) {
    const session = await findLiveSessionByHash(deps.db, hashToken(credentials.sessionCookie, deps.config.secret), now);
    // A stale cookie is no credential at all: public pages keep working, protected ones answer 401.
    if (session) {
      return {
        kind: 'user',
        userId: session.user_id,
        sessionId: session.id,
        scopes: new Set(['web_default']),
        viaCookie: true,
      };
    }
  }
  return { kind: 'anonymous' };
}

/** Checks a subject against a route's requirement: 401 without credentials, 403 without the scope. */
export function authorize(subject: Subject, requirement: AuthRequirement): Subject {
  if (subject.kind === 'anonymous') {
    if (requirement.optional) return subject;
    throw new Unauthorized();
  }
  if (!requirement.subjects.includes(subject.kind)) {
    // Optional routes (public checkout confirm with a seller token, say) treat other subjects as anonymous.
    if (requirement.optional) return { kind: 'anonymous' };
    throw new InvalidToken(WRONG_SUBJECT);
  }
  if (!hasAnyScope(subject.scopes, requirement.scopes)) throw new InsufficientScope(requirement.scopes);
  return subject;
}

/**
 * Cookie-authenticated writes must come from our own pages: the Origin (or Referer) must match one of
 * the allowed origins. With SameSite=Lax cookies this closes cross-site request forgery.
 */
export function checkSameOrigin(headers: { origin?: string; referer?: string }, allowedOrigins: string[]): void {
  const source = headers.origin ?? (headers.referer ? safeOrigin(headers.referer) : undefined);
  if (!source || !allowedOrigins.includes(source)) {
    throw new NotPermitted('Cross-site request refused: the Origin header does not match this server.');
  }
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
