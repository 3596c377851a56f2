/**
 * The rules of a customer's saved payment methods, as pure functions (table-tested next to this file).
 */

/** The reference's answer when the method is the last one billing a subscription. */
export const STILL_NEEDED =
  'This payment method is still needed to bill a subscription. Add another one or cancel the subscription first.';

/**
 * Where a redirecting method comes back to (the reference's `get_safe_return_url`): a relative path
 * becomes a page of this server; another host than this server's falls back to `fallbackPath`.
 */
export function safeReturnUrl(baseUrl: string, returnUrl: string, fallbackPath = '/portal'): string {
  const base = new URL(baseUrl);
  let url: URL;
  try {
    url = new URL(returnUrl, base);
  } catch {
    return new URL(fallbackPath, base).toString();
  }
  if (url.origin !== base.origin || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return new URL(fallbackPath, base).toString();
  return url.toString();
}

export interface RemovalCandidate {
  id: string;
  isDefault: boolean;
}

/**
 * What removing `removed` from the customer's usable methods (`methods`, newest first, `removed`
 * among them) does: refused when it still bills a subscription and no other method is left; otherwise
 * the method that becomes (or stays) the default — the current default if it is another one, else
 * the newest other — or null when none is left. Subscriptions billed by the removed method move to it.
 */
export function planRemoval(
  removed: RemovalCandidate,
  methods: RemovalCandidate[],
  billsSubscriptions: boolean,
): { refused: true } | { refused: false; nextDefault: string | null } {
  const others = methods.filter((method) => method.id !== removed.id);
  if (billsSubscriptions && others.length === 0) return { refused: true };
  const currentDefault = others.find((method) => method.isDefault);
  return { refused: false, nextDefault: (currentDefault ?? others[0])?.id ?? null };
}
