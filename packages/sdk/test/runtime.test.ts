import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKOFF, DEFAULT_RETRY_CODES, hasNextPage, parseRetryAfter, retryDelay } from '../src/index.js';

describe('backoff', () => {
  it('defaults to 500 ms initial, 60 s maximum, exponent 1.5, 1 h elapsed, on 429/500/502/503/504', () => {
    expect(DEFAULT_BACKOFF).toEqual({
      initialInterval: 500,
      maxInterval: 60_000,
      exponent: 1.5,
      maxElapsedTime: 3_600_000,
    });
    expect(DEFAULT_RETRY_CODES).toEqual([429, 500, 502, 503, 504]);
  });

  it('grows by the exponent, adds up to 1 s of jitter and caps at the maximum interval', () => {
    expect(retryDelay(0, DEFAULT_BACKOFF, null, () => 0)).toBe(500);
    expect(retryDelay(1, DEFAULT_BACKOFF, null, () => 0)).toBe(750);
    expect(retryDelay(2, DEFAULT_BACKOFF, null, () => 0)).toBe(1125);
    expect(retryDelay(0, DEFAULT_BACKOFF, null, () => 0.999)).toBeCloseTo(1499);
    expect(retryDelay(20, DEFAULT_BACKOFF, null, () => 0.5)).toBe(60_000);
  });

  it('honours Retry-After (seconds or HTTP date) instead, still capped', () => {
    expect(retryDelay(0, DEFAULT_BACKOFF, 3000, () => 0.5)).toBe(3000);
    expect(retryDelay(0, DEFAULT_BACKOFF, 120_000, () => 0.5)).toBe(60_000);
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('Thu, 15 Jan 2026 12:00:10 GMT', Date.parse('2026-01-15T12:00:00Z'))).toBe(10_000);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});

describe('paging rule', () => {
  const page = (count: number, maxPage: number) => ({
    items: Array.from({ length: count }, (_, i) => i),
    pagination: { total_count: 99, max_page: maxPage },
  });

  it('asks for the next page only when max_page exceeds the current page and the page was full', () => {
    expect(hasNextPage(page(2, 3), 1, 2)).toBe(true);
    expect(hasNextPage(page(2, 3), 3, 2)).toBe(false);
    expect(hasNextPage(page(1, 3), 1, 2)).toBe(false);
    expect(hasNextPage(page(0, 3), 1, 2)).toBe(false);
    expect(hasNextPage(page(10, 2), 1, 10)).toBe(true);
  });
});
