import { MAX_NAME_LENGTH } from './files.schemas.js';

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

/**
 * A part as declared at creation, kept with the file until its upload completes and echoed in the
 * answer. `chunk_start` and `chunk_end` are the client's own notes: Polar passes them through to S3
 * without checking them and uploaders differ on them (an exclusive end as `Blob.slice`, an inclusive
 * one ending at `size - 1`, anything at all), so they decide nothing. A part's size is the bytes it
 * receives; the storage checks those at completion (storage.ts `completeMultipartUpload`).
 */
export interface DeclaredPart {
  number: number;
  chunk_start: number;
  chunk_end: number;
  checksum_sha256_base64?: string | null;
}

/**
 * The problems of the parts declared for a file, each with the index of its part: they must be
 * numbered 1…n in order. S3 itself takes any ascending numbers, gaps included; uploaders written for
 * Polar number their parts 1…n (Polar's own web app does), so the stricter rule breaks none of them.
 */
export function partProblems(parts: readonly DeclaredPart[]): { index: number; msg: string }[] {
  const problems: { index: number; msg: string }[] = [];
  parts.forEach((part, index) => {
    if (part.number !== index + 1)
      problems.push({ index, msg: `Parts must be numbered 1 to ${parts.length} in order.` });
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
