import { describe, expect, it } from 'vitest';
import { ResponseCache } from './response-cache.js';

describe('ResponseCache', () => {
  it('answers what it keeps, and nothing for a key it never kept', () => {
    const cache = new ResponseCache();
    cache.set('a', '{"a":1}');
    expect(cache.get('a')).toBe('{"a":1}');
    expect(cache.get('b')).toBeUndefined();
  });

  it('lets the least recently used go first when it holds too many', () => {
    const cache = new ResponseCache(2, 1000);
    cache.set('a', '1');
    cache.set('b', '2');
    expect(cache.get('a')).toBe('1'); // b is now the least recently used
    cache.set('c', '3');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('1');
    expect(cache.get('c')).toBe('3');
    expect(cache.size).toEqual({ entries: 2, characters: 2 });
  });

  it('keeps its size bound, counts a replaced answer once and keeps no answer too big to be worth it', () => {
    const cache = new ResponseCache(100, 80);
    cache.set('a', 'x'.repeat(10));
    cache.set('a', 'y'.repeat(10));
    expect(cache.size).toEqual({ entries: 1, characters: 10 });
    cache.set('huge', 'z'.repeat(11));
    expect(cache.get('huge')).toBeUndefined();
    for (let i = 0; i < 9; i += 1) cache.set(`k${i}`, 'w'.repeat(10));
    expect(cache.size.characters).toBeLessThanOrEqual(80);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('k8')).toBe('w'.repeat(10));
  });
});
