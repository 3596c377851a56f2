import { describe, expect, it } from 'vitest';
import { forEachConcurrently } from './concurrently.js';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('forEachConcurrently', () => {
  it('never runs more than the limit at once, and runs every item once', async () => {
    let running = 0;
    let peak = 0;
    const seen: number[] = [];
    const count = await forEachConcurrently([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running += 1;
      peak = Math.max(peak, running);
      await tick(n % 3);
      seen.push(n);
      running -= 1;
    });
    expect(peak).toBe(3);
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(count).toBe(7);
  });

  it('counts only items reported done', async () => {
    expect(await forEachConcurrently([1, 2, 3, 4], 2, (n) => Promise.resolve(n % 2 === 0))).toBe(2);
  });

  it('finishes every item after a failure, then rethrows the first failure', async () => {
    const seen: number[] = [];
    const run = forEachConcurrently([1, 2, 3, 4], 2, async (n) => {
      await tick(1);
      seen.push(n);
      if (n === 2) throw new Error('two');
      if (n === 3) throw new Error('three');
    });
    await expect(run).rejects.toThrow('two');
    expect(seen.sort()).toEqual([1, 2, 3, 4]);
  });

  it('does nothing for no items, and treats a limit below one as one', async () => {
    expect(await forEachConcurrently([], 4, () => Promise.reject(new Error('never')))).toBe(0);
    expect(await forEachConcurrently([1, 2], 0, () => Promise.resolve())).toBe(2);
  });
});
