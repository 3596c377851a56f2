import { useCallback, useLayoutEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import {
  browserSessionStorage,
  forgetSessionToken,
  keepSessionToken,
  SESSION_TOKEN_PARAM,
  takeSessionToken,
} from './session-token';

/** Why there is no session: no link was followed, the API refused the token, or the customer signed out. */
export type SessionEnd = 'missing' | 'expired' | 'signed-out';

export interface SessionTokenState {
  token: string | null;
  /** Set exactly when `token` is null. */
  ended: SessionEnd | null;
}

export interface SessionToken extends SessionTokenState {
  /** The API answered 401: the token is expired or revoked, and is forgotten. */
  expire(): void;
  signOut(): void;
  /** A token restored from the session kept across tabs: kept for this tab too, and used. */
  adopt(token: string): void;
}

function stateOf(token: string | null): SessionTokenState {
  return { token, ended: token ? null : 'missing' };
}

/**
 * The customer session of the portal of `slug`. The token of the link is read on the first render (so
 * the first API calls already carry it), kept for the tab, and removed from the address bar with a
 * replace, so Back does not return to the URL that held it. A link followed later in the same tab (a
 * new token) replaces the session.
 */
export function useSessionToken(slug: string): SessionToken {
  const location = useLocation();
  const navigate = useNavigate();
  const [state, setState] = useState<SessionTokenState>(() =>
    stateOf(takeSessionToken(slug, location.search, browserSessionStorage()).token),
  );
  const linkHasToken = new URLSearchParams(location.search).has(SESSION_TOKEN_PARAM);

  useLayoutEffect(() => {
    if (!linkHasToken) return;
    const taken = takeSessionToken(slug, location.search, browserSessionStorage());
    setState((current) => (current.token === taken.token ? current : stateOf(taken.token)));
    navigate(
      { pathname: location.pathname, search: taken.cleanedSearch ?? '', hash: location.hash },
      { replace: true, preventScrollReset: true },
    );
  }, [linkHasToken, slug, location, navigate]);

  const end = useCallback(
    (ended: SessionEnd) => {
      forgetSessionToken(slug, browserSessionStorage());
      setState({ token: null, ended });
    },
    [slug],
  );
  const expire = useCallback(() => end('expired'), [end]);
  const signOut = useCallback(() => end('signed-out'), [end]);
  const adopt = useCallback(
    (token: string) => {
      keepSessionToken(slug, token, browserSessionStorage());
      setState(stateOf(token));
    },
    [slug],
  );
  return { ...state, expire, signOut, adopt };
}
