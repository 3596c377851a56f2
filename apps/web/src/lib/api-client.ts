import { TesseraCore } from '@tessera/sdk';

/**
 * The one SDK client of the web app. Same origin as the API: the dashboard session cookie
 * (`tessera_session`, HttpOnly) travels with every call, and the browser adds the `Origin` header the
 * API checks on cookie-authenticated writes. No access token is ever held in the page.
 */
export const client = new TesseraCore({
  serverURL: window.location.origin,
  fetch: (input, init) => fetch(input, { ...init, credentials: 'include' }),
});
