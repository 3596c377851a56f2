import type { SearchResult } from '@tessera/sdk';

/** The dashboard page of a result, under the organization's base path (`/dashboard/acme`). Pure. */
export function resultPath(basePath: string, result: Pick<SearchResult, 'type' | 'id'>): string {
  const segment: Record<SearchResult['type'], string> = {
    customer: 'customers',
    order: 'orders',
    product: 'products',
    subscription: 'subscriptions',
    license_key: 'license-keys',
  };
  return `${basePath}/${segment[result.type]}/${result.id}`;
}

export const TYPE_LABELS: Record<SearchResult['type'], string> = {
  customer: 'Customer',
  order: 'Order',
  product: 'Product',
  subscription: 'Subscription',
  license_key: 'License key',
};

/**
 * The option a key moves the highlight to among `count` options (-1: none highlighted), wrapping at
 * both ends as listboxes do; null for keys that do not move it. Pure.
 */
export function movedHighlight(current: number, count: number, key: string): number | null {
  if (count === 0) return key === 'ArrowDown' || key === 'ArrowUp' ? -1 : null;
  switch (key) {
    case 'ArrowDown':
      return current + 1 >= count ? 0 : current + 1;
    case 'ArrowUp':
      return current <= 0 ? count - 1 : current - 1;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/** ⌘K on macOS, Ctrl+K elsewhere (either is accepted everywhere). Pure. */
export function isPaletteShortcut(event: Pick<KeyboardEvent, 'key' | 'metaKey' | 'ctrlKey' | 'altKey'>): boolean {
  return event.key.toLowerCase() === 'k' && (event.metaKey || event.ctrlKey) && !event.altKey;
}
