/**
 * Embedded checkout: a seller's page shows the checkout in an iframe (`?embed=true&embed_origin=…`),
 * and the page tells it what happens with `postMessage`, in the shape Polar's embed script listens for.
 * Messages go only to the seller's origin, never to `*`.
 */

export const EMBED_MESSAGE_TYPE = 'POLAR_CHECKOUT';

export type CheckoutEmbedMessage =
  | { type: typeof EMBED_MESSAGE_TYPE; event: 'loaded' }
  | { type: typeof EMBED_MESSAGE_TYPE; event: 'close' }
  | { type: typeof EMBED_MESSAGE_TYPE; event: 'confirmed' }
  /** `redirect`: the seller set a success URL, which the embedding page should open. */
  | { type: typeof EMBED_MESSAGE_TYPE; event: 'success'; successURL: string; redirect: boolean };

export interface EmbedContext {
  embedded: boolean;
  /** Where messages go; null when there is no valid origin to send them to. */
  origin: string | null;
}

/** The origin of an http(s) URL or origin, or null. */
export function originOf(text: string | null | undefined): string | null {
  if (!text) return null;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** The checkout's own `embed_origin` (set by the seller) wins over the query's. */
export function embedContextOf(search: URLSearchParams, checkoutEmbedOrigin: string | null): EmbedContext {
  const embedded = search.get('embed') === 'true';
  return {
    embedded,
    origin: embedded ? (originOf(checkoutEmbedOrigin) ?? originOf(search.get('embed_origin'))) : null,
  };
}

/** The embed parameters of the current URL, to carry over to the confirmation page. */
export function embedSearch(search: URLSearchParams): URLSearchParams {
  const kept = new URLSearchParams();
  for (const name of ['embed', 'embed_origin']) {
    const value = search.get(name);
    if (value !== null) kept.set(name, value);
  }
  return kept;
}

export interface MessageTarget {
  postMessage(message: unknown, targetOrigin: string): void;
}

/** Sends a message to the embedding page; nothing when not embedded or without an origin. */
export function postEmbedMessage(
  context: EmbedContext,
  message: CheckoutEmbedMessage,
  target: MessageTarget | null = window.parent === window ? null : window.parent,
): void {
  if (!context.embedded || !context.origin || !target) return;
  target.postMessage(message, context.origin);
}
