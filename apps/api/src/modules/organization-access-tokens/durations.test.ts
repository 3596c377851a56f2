import { describe, expect, it } from 'vitest';
import { durationSeconds } from './organization-access-tokens.service.js';

describe('durationSeconds', () => {
  it.each([
    [3600, 3600],
    ['PT1H', 3600],
    ['PT90M', 5400],
    ['P1D', 86400],
    ['P1W', 7 * 86400],
    ['P1M', 30 * 86400],
    ['P1Y', 365 * 86400],
    ['P1DT12H', 86400 + 12 * 3600],
    ['PT1M30S', 90],
  ])('%j is %i seconds', (input, seconds) => {
    expect(durationSeconds(input)).toBe(seconds);
  });
});
