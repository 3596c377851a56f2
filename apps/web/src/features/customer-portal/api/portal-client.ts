import { TesseraCore } from '@tessera/sdk';

export interface PortalClientOptions {
  /** The customer session token (`polar_cst_…`); none for the public calls (the organization). */
  token?: string | null;
  /** Called when the API refuses the token (401): it expired, or the session was revoked. */
  onUnauthorized?(): void;
}

/**
 * The SDK client of the customer portal. The customer session token travels as the bearer of every
 * call. It is set as a header of the client rather than per call because the portal operations of the
 * contract declare no security scheme, so the SDK's `customerSession` option would not be sent. The
 * dashboard's session cookie is left out: portal calls act as the customer only, never as a seller who
 * happens to be signed in in the same browser.
 */
export function createPortalClient({ token, onUnauthorized }: PortalClientOptions = {}): TesseraCore {
  return new TesseraCore({
    serverURL: window.location.origin,
    headers: token ? { authorization: `Bearer ${token}` } : undefined,
    fetch: async (input, init) => {
      const response = await fetch(input, { ...init, credentials: 'omit' });
      if (response.status === 401 && token) onUnauthorized?.();
      return response;
    },
  });
}
