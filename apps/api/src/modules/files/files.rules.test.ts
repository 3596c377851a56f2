import { describe, expect, it } from 'vitest';
import { contentMatchesMime, fileKey, keySegmentOf, nameProblem, partProblems, sizeReadable } from './files.rules.js';

const MiB = 1024 * 1024;

describe('sizeReadable', () => {
  it.each([
    [0, '0.0 B'],
    [512, '512.0 B'],
    [1536, '1.5 KB'],
    [10485760, '10.0 MB'],
    [1024 ** 3, '1.0 GB'],
  ])('%d → %s', (size, text) => expect(sizeReadable(size)).toBe(text));
});

describe('names', () => {
  it.each([
    ['report.pdf', undefined],
    ['Rapport annuel é.pdf', undefined],
    ['', 'The name must not be empty.'],
    ['../../etc/passwd', 'The name must not contain a path separator.'],
    ['a\\b', 'The name must not contain a path separator.'],
    ['..', 'The name must not be a relative path.'],
    ['a\u0000b', 'The name must not contain control characters.'],
    ['x'.repeat(256), 'The name must be at most 255 characters.'],
  ])('%j → %s', (name, problem) => expect(nameProblem(name)).toBe(problem));

  it('keys stay inside the organization prefix with safe segments', () => {
    expect(keySegmentOf('.hidden file (1).png')).toBe('hidden_file_1_.png');
    expect(keySegmentOf('日本')).toBe('file');
    expect(keySegmentOf('x'.repeat(300))).toHaveLength(120);
    expect(fileKey('downloadable', 'org', 'id', '../a.zip')).toBe('downloadable/org/id/a.zip');
  });
});

describe('partProblems', () => {
  const part = (number: number, start: number, end: number) => ({ number, chunk_start: start, chunk_end: end });
  const numbered = 'Parts must be numbered 1 to 2 in order.';
  it.each([
    ['one part, an exclusive end', [part(1, 0, 100)], []],
    ['one part, an inclusive end (size - 1)', [part(1, 0, 99)], []],
    ['an empty file', [part(1, 0, 0)], []],
    ['four parts of 5 MiB', [0, 1, 2, 3].map((i) => part(i + 1, i * 5 * MiB, (i + 1) * 5 * MiB)), []],
    ['inclusive ends', [part(1, 0, 5 * MiB - 1), part(2, 5 * MiB, 6 * MiB - 1)], []],
    // The ranges decide nothing: gaps, overlaps, small parts, backwards or past the size are all kept.
    ['a gap', [part(1, 0, 5 * MiB), part(2, 5 * MiB + 1, 10 * MiB)], []],
    ['an overlap', [part(1, 0, 5 * MiB), part(2, 5 * MiB - 1, 10 * MiB)], []],
    ['every part 0..0', [part(1, 0, 0), part(2, 0, 0)], []],
    ['small parts', [part(1, 0, 10), part(2, 10, 20)], []],
    ['backwards and negative', [part(1, 10, 0), part(2, -5, -10)], []],
    ['numbers out of order', [part(2, 0, 5 * MiB), part(1, 5 * MiB, 6 * MiB)], [numbered, numbered]],
    ['a gap in the numbers', [part(1, 0, 0), part(3, 0, 0)], [numbered]],
    ['a number twice', [part(1, 0, 0), part(1, 0, 0)], [numbered]],
  ])('%s', (_name, parts, messages) => {
    expect(partProblems(parts).map((p) => p.msg)).toEqual(messages);
  });
});

describe('contentMatchesMime', () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
  it.each([
    ['image/png', png, true],
    ['image/png', Buffer.from('<html>'), false],
    ['image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0]), true],
    ['image/jpeg', png, false],
    ['image/gif', Buffer.from('GIF89a...'), true],
    ['image/webp', Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '), true],
    ['image/webp', Buffer.from('RIFF\u0000\u0000\u0000\u0000WAVE'), false],
    ['image/svg+xml', Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg">'), true],
    ['image/svg+xml', Buffer.from('<html><script>alert(1)</script>'), false],
    ['application/pdf', Buffer.from('anything'), true],
  ] as const)('%s %#', (mime, head, matches) => expect(contentMatchesMime(mime, head)).toBe(matches));
});
