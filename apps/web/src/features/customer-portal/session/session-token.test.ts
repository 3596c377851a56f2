// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import {
  captureSessionLink,
  forgetSessionToken,
  readSessionToken,
  sessionStorageKey,
  takeSessionToken,
} from './session-token';

afterEach(() => window.sessionStorage.clear());

/** Storage that refuses every use, as some private modes do. */
const refusingStorage = {
  getItem: () => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('QuotaExceededError');
  },
  removeItem: () => {
    throw new Error('SecurityError');
  },
} as unknown as Storage;

describe('takeSessionToken', () => {
  it('keeps the token of the link for the organization and gives the query without it', () => {
    const taken = takeSessionToken('acme', '?customer_session_token=polar_cst_abc&id=42', window.sessionStorage);
    expect(taken).toEqual({ token: 'polar_cst_abc', cleanedSearch: '?id=42' });
    expect(window.sessionStorage.getItem(sessionStorageKey('acme'))).toBe('polar_cst_abc');
  });

  it('cleans a query that held only the token to nothing', () => {
    expect(takeSessionToken('acme', '?customer_session_token=polar_cst_abc', window.sessionStorage)).toEqual({
      token: 'polar_cst_abc',
      cleanedSearch: '',
    });
  });

  it('reads the kept token when the address has none, and leaves the address alone', () => {
    window.sessionStorage.setItem(sessionStorageKey('acme'), 'polar_cst_kept');
    expect(takeSessionToken('acme', '?page=2', window.sessionStorage)).toEqual({
      token: 'polar_cst_kept',
      cleanedSearch: null,
    });
  });

  it('a new link replaces the kept token', () => {
    window.sessionStorage.setItem(sessionStorageKey('acme'), 'polar_cst_old');
    expect(takeSessionToken('acme', '?customer_session_token=polar_cst_new', window.sessionStorage).token).toBe(
      'polar_cst_new',
    );
    expect(readSessionToken('acme', window.sessionStorage)).toBe('polar_cst_new');
  });

  it('takes an empty token out of the address without forgetting the kept one', () => {
    window.sessionStorage.setItem(sessionStorageKey('acme'), 'polar_cst_kept');
    expect(takeSessionToken('acme', '?customer_session_token=', window.sessionStorage)).toEqual({
      token: 'polar_cst_kept',
      cleanedSearch: '',
    });
  });

  it('keeps one token per organization', () => {
    takeSessionToken('acme', '?customer_session_token=polar_cst_acme', window.sessionStorage);
    expect(readSessionToken('globex', window.sessionStorage)).toBeNull();
    forgetSessionToken('globex', window.sessionStorage);
    expect(readSessionToken('acme', window.sessionStorage)).toBe('polar_cst_acme');
  });

  it('still gives the token of the link when storage cannot be used', () => {
    expect(takeSessionToken('acme', '?customer_session_token=polar_cst_abc', refusingStorage)).toEqual({
      token: 'polar_cst_abc',
      cleanedSearch: '',
    });
    expect(readSessionToken('acme', refusingStorage)).toBeNull();
    expect(() => forgetSessionToken('acme', refusingStorage)).not.toThrow();
  });
});

describe('captureSessionLink', () => {
  const at = (pathname: string, search = '', hash = '') => ({ pathname, search, hash });

  it('keeps the token of a portal link and gives the address without it', () => {
    const next = captureSessionLink(
      at('/portal/acme/orders', '?customer_session_token=polar_cst_abc&page=2', '#top'),
      window.sessionStorage,
    );
    expect(next).toBe('/portal/acme/orders?page=2#top');
    expect(readSessionToken('acme', window.sessionStorage)).toBe('polar_cst_abc');
  });

  it('leaves other addresses, and portal addresses without a token, alone', () => {
    expect(
      captureSessionLink(at('/dashboard', '?customer_session_token=polar_cst_abc'), window.sessionStorage),
    ).toBeNull();
    expect(
      captureSessionLink(at('/acme/portal', '?customer_session_token=polar_cst_abc'), window.sessionStorage),
    ).toBeNull();
    expect(captureSessionLink(at('/portal/acme', '?page=2'), window.sessionStorage)).toBeNull();
    expect(readSessionToken('acme', window.sessionStorage)).toBeNull();
  });

  it('leaves the token in the address when it cannot be kept (the portal reads it from there)', () => {
    expect(captureSessionLink(at('/portal/acme', '?customer_session_token=polar_cst_abc'), refusingStorage)).toBeNull();
  });
});
