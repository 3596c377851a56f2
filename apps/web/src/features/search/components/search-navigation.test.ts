import { describe, expect, it } from 'vitest';
import { isPaletteShortcut, movedHighlight, resultPath } from './search-navigation';

describe('resultPath', () => {
  it.each([
    ['customer', '/dashboard/acme/customers/1'],
    ['order', '/dashboard/acme/orders/1'],
    ['product', '/dashboard/acme/products/1'],
    ['subscription', '/dashboard/acme/subscriptions/1'],
    ['license_key', '/dashboard/acme/license-keys/1'],
  ] as const)('%s → %s', (type, path) => {
    expect(resultPath('/dashboard/acme', { type, id: '1' })).toBe(path);
  });
});

describe('movedHighlight', () => {
  it.each([
    [-1, 3, 'ArrowDown', 0],
    [0, 3, 'ArrowDown', 1],
    [2, 3, 'ArrowDown', 0],
    [-1, 3, 'ArrowUp', 2],
    [0, 3, 'ArrowUp', 2],
    [2, 3, 'ArrowUp', 1],
    [1, 3, 'Home', 0],
    [1, 3, 'End', 2],
    [1, 3, 'a', null],
    [-1, 0, 'ArrowDown', -1],
    [-1, 0, 'Home', null],
  ])('from %i of %i, %s → %s', (current, count, key, expected) => {
    expect(movedHighlight(current, count, key)).toBe(expected);
  });
});

describe('isPaletteShortcut', () => {
  it.each([
    [{ key: 'k', metaKey: true, ctrlKey: false, altKey: false }, true],
    [{ key: 'K', metaKey: false, ctrlKey: true, altKey: false }, true],
    [{ key: 'k', metaKey: false, ctrlKey: false, altKey: false }, false],
    [{ key: 'k', metaKey: false, ctrlKey: true, altKey: true }, false],
    [{ key: 'j', metaKey: true, ctrlKey: false, altKey: false }, false],
  ])('%o → %s', (event, expected) => {
    expect(isPaletteShortcut(event)).toBe(expected);
  });
});
