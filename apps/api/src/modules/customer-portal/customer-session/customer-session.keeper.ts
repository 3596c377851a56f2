import { hashToken, TOKEN_PREFIX } from '../../../platform/auth/tokens.js';
import type { Context } from '../../../platform/context.js';
import { Unauthorized } from '../../../platform/http/errors.js';
import type { CookieOptions, RouteReply } from '../../../platform/http/route.js';
import { serverClock } from '../../../platform/test-clock.js';
import { findLiveCustomerSessionByTokenHash } from '../../customer-sessions/customer-sessions.repository.js';

/**
 * The portal's session kept across tabs. The customer session token stays a bearer token: every portal
 * call carries it in `Authorization`, and no cookie ever authenticates one, so a cross-site page cannot
 * make the browser write anything on the customer's behalf (no CSRF surface). The cookie only restores
 * the token in a new tab of the same portal:
 *
 * - `keep` (the portal, once it holds a token) sets one HttpOnly cookie per organization, SameSite=Lax,
 *   Secure when the server is reached over https, expiring with the session, and sent only to these
 *   keeper routes (its path), never to the rest of the API nor to pages;
 * - `restore` answers the token of that cookie to the portal's own script: a JSON POST, so a cross-site
 *   page can neither send it with the cookie (Lax is not sent on cross-site POSTs; JSON needs a preflight)
 *   nor read the answer (CORS);
 * - `forget` clears it (sign-out, or a token the API refused).
 */
export const KEEPER_PATH = '/v1/customer-portal/customer-session/';

/** One cookie per organization: a customer of two sellers keeps both portals. */
export function keeperCookieName(organizationId: string): string {
  return `tessera_portal_${organizationId.replaceAll('-', '')}`;
}

export function keeperCookieOptions(ctx: Context, expires?: Date): CookieOptions {
  return {
    path: KEEPER_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.baseUrl.startsWith('https:'),
    ...(expires ? { expires } : {}),
  };
}

async function liveSession(ctx: Context, token: string | undefined) {
  if (!token?.startsWith(TOKEN_PREFIX.customerSession)) return undefined;
  return findLiveCustomerSessionByTokenHash(ctx.db, hashToken(token, ctx.config.secret), serverClock(ctx.clock).now());
}

/** Keeps a live session's token in its organization's cookie; 401 for an unknown or ended one. */
export async function keepSession(ctx: Context, token: string, reply: RouteReply): Promise<void> {
  const found = await liveSession(ctx, token);
  if (!found) throw new Unauthorized();
  reply.setCookie(
    keeperCookieName(found.customer.organization_id),
    token,
    keeperCookieOptions(ctx, found.session.expires_at),
  );
}

/** The token kept for the organization, while its session lives; else 401 (and the cookie cleared). */
export async function restoreSession(
  ctx: Context,
  organizationId: string,
  reply: RouteReply,
): Promise<{ token: string }> {
  const name = keeperCookieName(organizationId);
  const token = ctx.request?.cookies?.[name];
  const found = await liveSession(ctx, token);
  if (!token || !found || found.customer.organization_id !== organizationId) {
    if (token) reply.clearCookie(name, keeperCookieOptions(ctx));
    throw new Unauthorized();
  }
  return { token };
}

export async function forgetSession(ctx: Context, organizationId: string, reply: RouteReply): Promise<void> {
  reply.clearCookie(keeperCookieName(organizationId), keeperCookieOptions(ctx));
}
