import { TesseraCore, type CustomerSessionRequestOptions } from '@tessera/sdk';

export interface PortalClientOptions {
  /** The customer session token (`polar_cst_…`); none for the public calls (the organization). */
  token?: string | null;
  /** Called when the API refuses the token (401): it expired, or the session was revoked. */
  onUnauthorized?(): void;
}

/** The SDK client of the customer portal and the customer session its calls carry. */
export interface PortalClient {
  core: TesseraCore;
  auth: CustomerSessionRequestOptions;
}

/**
 * The SDK client of the customer portal. The dashboard's session cookie is left out: portal calls act as
 * the customer only, never as a seller who happens to be signed in in the same browser. Without a token
 * it serves the public calls (the organization's page).
 */
export function createPortalClient({ token, onUnauthorized }: PortalClientOptions = {}): TesseraCore {
  return new TesseraCore({
    serverURL: window.location.origin,
    fetch: async (input, init) => {
      const response = await fetch(input, { ...init, credentials: 'omit' });
      if (response.status === 401 && token) onUnauthorized?.();
      return response;
    },
  });
}

/** The client of a customer's session: every portal call sends the token as its customer session. */
export function createCustomerClient(token: string, onUnauthorized?: () => void): PortalClient {
  return { core: createPortalClient({ token, onUnauthorized }), auth: { customerSession: token } };
}
