import type { CheckoutPublic } from '@tessera/sdk';
import { useCallback, useEffect, useRef } from 'react';
import { EMBED_MESSAGE_TYPE, embedContextOf, postEmbedMessage, type CheckoutEmbedMessage } from '../logic/embed';

export interface CheckoutEmbed {
  embedded: boolean;
  post(message: CheckoutEmbedMessage): void;
  close(): void;
}

/**
 * Messages to the page embedding the checkout. With `announceLoaded` (the checkout page), `loaded` is
 * posted once the checkout shows.
 */
export function useCheckoutEmbed(
  search: URLSearchParams,
  checkout: CheckoutPublic | undefined,
  { announceLoaded = false }: { announceLoaded?: boolean } = {},
): CheckoutEmbed {
  const context = embedContextOf(search, checkout?.embed_origin ?? null);
  const { embedded, origin } = context;
  const post = useCallback(
    (message: CheckoutEmbedMessage) => postEmbedMessage({ embedded, origin }, message),
    [embedded, origin],
  );
  const loaded = useRef(false);
  useEffect(() => {
    if (!announceLoaded || !checkout || loaded.current) return;
    loaded.current = true;
    post({ type: EMBED_MESSAGE_TYPE, event: 'loaded' });
  }, [announceLoaded, checkout, post]);
  const close = useCallback(() => post({ type: EMBED_MESSAGE_TYPE, event: 'close' }), [post]);
  return { embedded, post, close };
}
