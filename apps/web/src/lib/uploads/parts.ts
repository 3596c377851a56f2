/**
 * How a file is cut into the parts of a multipart upload. The API keeps S3's rules on every backend,
 * checked at completion on the bytes each part carried (docs/files.md): parts numbered 1…n, every part
 * but the last at least 5 MiB, at most 10,000, adding up to the file's size. The declared ranges are
 * only echoed; these are exclusive, as `Blob.slice`, and each part's slice is what is sent.
 */

export const MIN_PART_BYTES = 5 * 1024 * 1024;
/** The part size we aim for: small enough that a retried part costs little, large enough to be few. */
export const DEFAULT_PART_BYTES = 8 * 1024 * 1024;
export const MAX_PARTS = 10_000;

export interface PartRange {
  number: number;
  chunk_start: number;
  chunk_end: number;
}

/** The size of every part but the last for a file of `size` bytes: grown so that no more than 10,000 are needed. */
export function partSizeFor(size: number, preferred = DEFAULT_PART_BYTES): number {
  const atLeast = Math.max(MIN_PART_BYTES, preferred);
  return Math.max(atLeast, Math.ceil(size / MAX_PARTS));
}

/** The parts of a file of `size` bytes; an empty file is one empty part. */
export function planParts(size: number, preferred = DEFAULT_PART_BYTES): PartRange[] {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`Not a file size: ${size}`);
  const partSize = partSizeFor(size, preferred);
  const parts: PartRange[] = [];
  let start = 0;
  do {
    const end = Math.min(start + partSize, size);
    parts.push({ number: parts.length + 1, chunk_start: start, chunk_end: end });
    start = end;
  } while (start < size);
  return parts;
}
