import { describe, expect, it } from 'vitest';
import { describeBulkOutcome, runBulk, togglePage } from './bulk';

describe('runBulk', () => {
  it('runs every item in order and keeps going after a failure', async () => {
    const seen: number[] = [];
    const outcome = await runBulk([1, 2, 3], async (item) => {
      seen.push(item);
      if (item === 2) throw new Error('refused');
    });
    expect(seen).toEqual([1, 2, 3]);
    expect(outcome.succeeded).toEqual([1, 3]);
    expect(outcome.failed.map((failure) => failure.item)).toEqual([2]);
    expect((outcome.failed[0]!.error as Error).message).toBe('refused');
  });
});

describe('describeBulkOutcome', () => {
  const noun = { one: 'product', many: 'products' };
  it.each([
    [3, 0, '3 products archived.'],
    [1, 0, '1 product archived.'],
    [2, 1, '2 of 3 products archived; 1 could not be.'],
    [0, 1, 'No products archived: it failed.'],
    [0, 2, 'No products archived: all 2 failed.'],
  ])('%i succeeded, %i failed → %s', (succeeded, failed, text) => {
    expect(describeBulkOutcome({ succeeded, failed }, noun, 'archived')).toBe(text);
  });
});

describe('togglePage', () => {
  it.each([
    [[], ['a', 'b'], ['a', 'b']],
    [['a'], ['a', 'b'], ['a', 'b']],
    [['a', 'b'], ['a', 'b'], []],
    [['x', 'a', 'b'], ['a', 'b'], ['x']],
    [['x'], [], ['x']],
  ])('%j toggling %j → %j', (selected, page, expected) => {
    expect([...togglePage(new Set(selected), page)].sort()).toEqual(expected);
  });
});
