import type { CheckoutPublic } from '@tessera/sdk';

/** Paths of the hosted checkout (apps/web/src/app/router.tsx) and where a buyer goes after paying. */

export function checkoutPath(clientSecret: string, search?: URLSearchParams): string {
  const query = search?.toString();
  return `/checkout/${encodeURIComponent(clientSecret)}${query ? `?${query}` : ''}`;
}

/** The thank-you page; the customer session token lets it link to the customer portal. */
export function confirmationPath(clientSecret: string, token: string | null, search?: URLSearchParams): string {
  const query = new URLSearchParams(search);
  if (token) query.set('customer_session_token', token);
  const text = query.toString();
  return `/checkout/${encodeURIComponent(clientSecret)}/confirmation${text ? `?${text}` : ''}`;
}

/** The customer portal of the organization, signed in with the session the confirmed checkout opened. */
export function customerPortalUrl(organizationSlug: string, customerSessionToken: string): string {
  const query = new URLSearchParams({ customer_session_token: customerSessionToken });
  return `/portal/${encodeURIComponent(organizationSlug)}?${query.toString()}`;
}

/** The customer portal's sign-in page (email code), for a buyer the checkout gave no session. */
export function portalSignInPath(organizationSlug: string): string {
  return `/portal/${encodeURIComponent(organizationSlug)}`;
}

/**
 * The seller's own success URL, or null when the checkout uses the default (this app's confirmation
 * page, `{url}/confirmation`) or the URL is not a web address.
 */
export function sellerSuccessUrl(checkout: Pick<CheckoutPublic, 'success_url' | 'url'>): string | null {
  if (checkout.success_url === `${checkout.url}/confirmation`) return null;
  try {
    const url = new URL(checkout.success_url);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** How often the confirmation page asks whether the payment has gone through, and for how long. */
export const CONFIRMATION_POLL_MS = 1000;
export const CONFIRMATION_POLL_LIMIT_MS = 60_000;

/** Seconds before the confirmation page sends the buyer on to the seller's success URL. */
export const SUCCESS_REDIRECT_SECONDS = 5;
