import { MAX_NAME_LENGTH, MAX_PART_BYTES, MIN_PART_BYTES } from './files.schemas.js';

/**
 * The pure rules of files: the readable size, names and their storage keys, and the declared parts
 * of an upload. Table-tested in files.rules.test.ts.
 */

const UNITS = ['', 'K', 'M', 'G', 'T', 'P', 'E', 'Z'];

/** The reference's `human_readable_size`: binary steps labelled KB, MB…, one decimal. */
export function sizeReadable(size: number): string {
  let value = size;
  for (const unit of UNITS) {
    if (Math.abs(value) < 1024) return `${value.toFixed(1)} ${unit}B`;
    value /= 1024;
  }
  return `${value.toFixed(1)} YB`;
}

/**
 * Why a file name is refused, or undefined: empty, too long, control characters (NUL…), a path
 * separator or a name that is only dots (`..`). The name is shown and offered as the download's name;
 * it never becomes a path as given.
 */
export function nameProblem(name: string): string | undefined {
  if (name.trim().length === 0) return 'The name must not be empty.';
  if ([...name].length > MAX_NAME_LENGTH) return `The name must be at most ${MAX_NAME_LENGTH} characters.`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'The name must not contain control characters.';
  if (/[/\\]/.test(name)) return 'The name must not contain a path separator.';
  if (/^\.+$/.test(name.trim())) return 'The name must not be a relative path.';
  return undefined;
}

/** The name as a storage key segment: safe characters only, no leading dot, at most 120 characters. */
export function keySegmentOf(name: string): string {
  const safe = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 120);
  return safe.length > 0 ? safe : 'file';
}

/** Every key of a file: `<service>/<organization>/<file>/<name>`, inside the organization's prefix. */
export function fileKey(service: string, organizationId: string, fileId: string, name: string): string {
  return `${service}/${organizationId}/${fileId}/${keySegmentOf(name)}`;
}

export interface DeclaredPart {
  number: number;
  chunk_start: number;
  /** Exclusive, as `Blob.slice`: the part's bytes are chunk_start ≤ i < chunk_end. */
  chunk_end: number;
  checksum_sha256_base64?: string | null;
}

/**
 * The problems of the parts declared for a file of `size` bytes, each with the index of its part:
 * numbered 1…n in order, covering the file exactly (no gap, no overlap, nothing past the end), every
 * part but the last at least 5 MiB and none over 5 GiB (S3's rules, on every backend).
 */
export function partProblems(parts: readonly DeclaredPart[], size: number): { index: number; msg: string }[] {
  const problems: { index: number; msg: string }[] = [];
  let expectedStart = 0;
  parts.forEach((part, index) => {
    if (part.number !== index + 1) {
      problems.push({ index, msg: `Parts must be numbered 1 to ${parts.length} in order.` });
      return;
    }
    if (part.chunk_start !== expectedStart) {
      const kind = part.chunk_start < expectedStart ? 'overlaps the previous part' : 'leaves a gap';
      problems.push({ index, msg: `Part ${part.number} ${kind}: it must start at byte ${expectedStart}.` });
    }
    const length = part.chunk_end - part.chunk_start;
    const last = index === parts.length - 1;
    if (length < 0 || (length === 0 && !(last && size === 0))) {
      problems.push({ index, msg: `Part ${part.number} must end after it starts.` });
    } else if (length > MAX_PART_BYTES) {
      problems.push({ index, msg: `Part ${part.number} is larger than 5 GiB.` });
    } else if (!last && length < MIN_PART_BYTES) {
      problems.push({ index, msg: `Part ${part.number} is smaller than 5 MiB; only the last part may be.` });
    }
    if (last && part.chunk_end !== size) {
      problems.push({ index, msg: `The parts must end at the file's size, ${size}.` });
    }
    expectedStart = part.chunk_end;
  });
  return problems;
}

/** The SHA-256 of a base64 digest in hex (`checksum_sha256_hex`). */
export function hexOfBase64(digest: string | null | undefined): string | null {
  return digest ? Buffer.from(digest, 'base64').toString('hex') : null;
}

const startsWith = (head: Uint8Array, bytes: number[], at = 0) => bytes.every((byte, i) => head[at + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * Whether the first bytes of a file are what its image type says (media and avatars): PNG, JPEG, GIF
 * and WebP by their signatures, SVG as text holding an `<svg` element. Other types are not checked.
 */
export function contentMatchesMime(mime: string, head: Uint8Array): boolean {
  switch (mime) {
    case 'image/png':
      return startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'image/jpeg':
      return startsWith(head, [0xff, 0xd8, 0xff]);
    case 'image/gif':
      return startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'));
    case 'image/webp':
      return startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8);
    case 'image/svg+xml': {
      const text = Buffer.from(head)
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .trimStart();
      return text.startsWith('<') && /<svg[\s>]/i.test(text);
    }
    default:
      return true;
  }
}
