/**
 * The customer session token of the portal. It arrives once in the link (`?customer_session_token=`),
 * is kept in sessionStorage for the organization (so a reload or a new page of the portal stays signed
 * in, and closing the tab forgets it; a new tab restores it from the API's HttpOnly keeper cookie, see
 * `api/kept-session.ts`), and is taken out of the address bar so it is neither bookmarked,
 * shared with the URL nor sent to other sites as a referrer.
 */

export const SESSION_TOKEN_PARAM = 'customer_session_token';

/** One token per organization: a customer of two sellers can have both portals open. */
export function sessionStorageKey(slug: string): string {
  return `tessera.customer-portal.${slug}.session-token`;
}

export interface TakenToken {
  /** The token of the link, else the one kept from before; null when there is none. */
  token: string | null;
  /** The query string without the token (with its `?`, or ''), when the link carried one; else null. */
  cleanedSearch: string | null;
}

/**
 * Storage can be unavailable (disabled cookies, some private modes) or full: the portal then still
 * works with the token of the link, for as long as the page is open.
 */
function safely<T>(action: () => T, fallback: T): T {
  try {
    return action();
  } catch {
    return fallback;
  }
}

/** Takes the token from the query string (keeping it in `storage`), else reads the one kept before. */
export function takeSessionToken(slug: string, search: string, storage: Storage | undefined): TakenToken {
  const params = new URLSearchParams(search);
  const fromLink = params.get(SESSION_TOKEN_PARAM)?.trim();
  if (params.has(SESSION_TOKEN_PARAM)) {
    params.delete(SESSION_TOKEN_PARAM);
    const rest = params.toString();
    const cleanedSearch = rest ? `?${rest}` : '';
    if (fromLink) {
      safely(() => storage?.setItem(sessionStorageKey(slug), fromLink), undefined);
      return { token: fromLink, cleanedSearch };
    }
    return { token: readSessionToken(slug, storage), cleanedSearch };
  }
  return { token: readSessionToken(slug, storage), cleanedSearch: null };
}

export function readSessionToken(slug: string, storage: Storage | undefined): string | null {
  return safely(() => storage?.getItem(sessionStorageKey(slug)) ?? null, null) || null;
}

export function keepSessionToken(slug: string, token: string, storage: Storage | undefined): void {
  safely(() => storage?.setItem(sessionStorageKey(slug), token), undefined);
}

export function forgetSessionToken(slug: string, storage: Storage | undefined): void {
  safely(() => storage?.removeItem(sessionStorageKey(slug)), undefined);
}

/** The page's sessionStorage, or undefined where reading it throws. */
export function browserSessionStorage(): Storage | undefined {
  return safely(() => window.sessionStorage, undefined);
}

/**
 * Before the router starts: a portal link's token is kept and taken out of the address bar, so the
 * router starts on the clean address and no later replace can undo a navigation the customer already
 * made. Only when the token could be kept: without storage the portal reads it from the link instead.
 * Returns the address to continue at, or null when nothing was done.
 */
export function captureSessionLink(
  location: Pick<Location, 'pathname' | 'search' | 'hash'>,
  storage: Storage | undefined,
): string | null {
  const match = /^\/portal\/([^/]+)/.exec(location.pathname);
  if (!match || !new URLSearchParams(location.search).has(SESSION_TOKEN_PARAM)) return null;
  const slug = decodeURIComponent(match[1]!);
  const taken = takeSessionToken(slug, location.search, storage);
  if (!taken.token || readSessionToken(slug, storage) !== taken.token) return null;
  return `${location.pathname}${taken.cleanedSearch ?? ''}${location.hash}`;
}
