import { describe, expect, it } from 'vitest';
import { MAX_PARTS, MIN_PART_BYTES, partSizeFor, planParts } from './parts';

const MiB = 1024 * 1024;

describe('planParts', () => {
  it.each([
    { size: 0, parts: [[0, 0]] },
    { size: 1, parts: [[0, 1]] },
    { size: 8 * MiB, parts: [[0, 8 * MiB]] },
    {
      size: 8 * MiB + 1,
      parts: [
        [0, 8 * MiB],
        [8 * MiB, 8 * MiB + 1],
      ],
    },
    {
      size: 20 * MiB,
      parts: [
        [0, 8 * MiB],
        [8 * MiB, 16 * MiB],
        [16 * MiB, 20 * MiB],
      ],
    },
  ])('cuts $size bytes into $parts.length part(s), ends exclusive', ({ size, parts }) => {
    expect(planParts(size).map((part) => [part.chunk_start, part.chunk_end])).toEqual(parts);
    expect(planParts(size).map((part) => part.number)).toEqual(parts.map((_, index) => index + 1));
  });

  it('never makes a part but the last smaller than 5 MiB, whatever size is preferred', () => {
    const parts = planParts(12 * MiB, 1024);
    expect(parts.map((part) => part.chunk_end - part.chunk_start)).toEqual([5 * MiB, 5 * MiB, 2 * MiB]);
  });

  it('grows the parts so that a huge file needs at most 10,000', () => {
    const size = 200 * 1024 * MiB;
    expect(partSizeFor(size)).toBeGreaterThan(MIN_PART_BYTES);
    const parts = planParts(size);
    expect(parts.length).toBeLessThanOrEqual(MAX_PARTS);
    expect(parts.at(-1)!.chunk_end).toBe(size);
  });

  it('refuses what is not a size', () => {
    expect(() => planParts(-1)).toThrow(RangeError);
    expect(() => planParts(1.5)).toThrow(RangeError);
  });
});
