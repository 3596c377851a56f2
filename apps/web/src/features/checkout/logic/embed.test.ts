import { describe, expect, it, vi } from 'vitest';
import { EMBED_MESSAGE_TYPE, embedContextOf, embedSearch, originOf, postEmbedMessage } from './embed';

describe('originOf', () => {
  it.each([
    ['https://shop.example/path?q=1', 'https://shop.example'],
    ['http://localhost:5173', 'http://localhost:5173'],
    ['javascript:alert(1)', null],
    ['not a url', null],
    [null, null],
  ])('%s → %s', (text, expected) => {
    expect(originOf(text)).toBe(expected);
  });
});

describe('embedContextOf', () => {
  it('is not embedded without ?embed=true', () => {
    expect(embedContextOf(new URLSearchParams('embed_origin=https://a.example'), null)).toEqual({
      embedded: false,
      origin: null,
    });
  });

  it('prefers the checkout’s own embed origin to the query’s', () => {
    const search = new URLSearchParams('embed=true&embed_origin=https://query.example');
    expect(embedContextOf(search, 'https://seller.example')).toEqual({
      embedded: true,
      origin: 'https://seller.example',
    });
    expect(embedContextOf(search, null).origin).toBe('https://query.example');
  });
});

describe('embedSearch', () => {
  it('keeps only the embed parameters', () => {
    const search = new URLSearchParams('embed=true&embed_origin=https://a.example&utm_source=x');
    expect(embedSearch(search).toString()).toBe('embed=true&embed_origin=https%3A%2F%2Fa.example');
  });
});

describe('postEmbedMessage', () => {
  it('posts to the embedding page’s origin only', () => {
    const target = { postMessage: vi.fn() };
    const message = { type: EMBED_MESSAGE_TYPE, event: 'loaded' } as const;
    postEmbedMessage({ embedded: true, origin: 'https://seller.example' }, message, target);
    expect(target.postMessage).toHaveBeenCalledWith(
      { type: 'POLAR_CHECKOUT', event: 'loaded' },
      'https://seller.example',
    );
  });

  it('posts nothing without an origin or when not embedded', () => {
    const target = { postMessage: vi.fn() };
    const message = { type: EMBED_MESSAGE_TYPE, event: 'close' } as const;
    postEmbedMessage({ embedded: true, origin: null }, message, target);
    postEmbedMessage({ embedded: false, origin: 'https://seller.example' }, message, target);
    expect(target.postMessage).not.toHaveBeenCalled();
  });
});
