import type { Readable } from 'node:stream';
import type { Clock } from '../clock.js';

/**
 * Where the server keeps files it produces or receives (invoice PDFs today; uploads later), behind one
 * interface so that the backend can be the local disk (the default, under `DATA_DIR/storage`) or an
 * S3-compatible bucket. Keys are bucket-style paths (`invoices/<organization>/<order>.pdf`). Bodies
 * are streamed in both directions: a backend never holds a whole file in memory.
 */
export interface ObjectStorage {
  /** Writes the object (replacing one under the same key); visible to readers only once complete. */
  put(key: string, body: Readable | Uint8Array, options?: PutOptions): Promise<{ size: number }>;
  /** Opens the object for reading; `StorageObjectNotFound` when there is none. */
  get(key: string): Promise<StoredObject>;
  /** Removes the object; removing a missing one is not an error (retries are harmless). */
  delete(key: string): Promise<void>;
  /**
   * A URL anyone holding it can download the object from until it expires: for the local disk a
   * signed link to the server's own download route, for S3 a presigned GET.
   */
  downloadUrl(key: string, options: DownloadUrlOptions): Promise<string>;
  /**
   * Starts a multipart upload of `key` (S3's `CreateMultipartUpload`): parts are sent straight to the
   * backend through `partUploadUrl`, then joined by `completeMultipartUpload`.
   */
  createMultipartUpload(key: string, options: MultipartCreateOptions): Promise<{ uploadId: string }>;
  /**
   * A URL the client PUTs one part's bytes to until it expires, and the headers it must send. The URL
   * binds the part's number and checksum, never a size: a part is whatever bytes it receives.
   */
  partUploadUrl(key: string, uploadId: string, part: UploadPartSpec, expiry: LinkExpiry): Promise<PartUploadUrl>;
  /**
   * Joins the parts into the object, in the order given (ascending numbers). Every part must have
   * arrived with the ETag reported and, when one was declared, its checksum; every part but the last
   * must be at least 5 MiB (S3's EntityTooSmall); the parts' bytes must add up to `size`; with
   * `sha256Base64` the whole object must hash to it. Otherwise `UploadRejected` and no object is
   * visible under `key`. The parts stay, so that the client can send some again and complete again,
   * except on S3 after a whole-file mismatch: S3 hashes nothing but parts, so the object is joined,
   * read back and deleted, and the upload is over.
   */
  completeMultipartUpload(
    key: string,
    uploadId: string,
    parts: CompletedPartSpec[],
    options: CompleteOptions,
  ): Promise<CompletedUpload>;
  /** Drops an unfinished upload and its parts; aborting an unknown one is not an error. */
  abortMultipartUpload(key: string, uploadId: string): Promise<void>;
  /** The unsigned URL of an object under a public prefix (`isPublicKey`). */
  publicUrl(key: string): string;
}

export interface MultipartCreateOptions {
  contentType: string;
  /** ASCII metadata stored with the object (S3 `x-amz-meta-*`). */
  metadata?: Record<string, string>;
}

/**
 * One part as the storage knows it: its number (1…10000) and its SHA-256 when the client gave one. The
 * `chunk_start`/`chunk_end` a client declares are not here: as on Polar, which passes them through to
 * S3 untouched, they decide nothing; a part's size is the bytes it receives.
 */
export interface UploadPartSpec {
  number: number;
  checksumSha256Base64?: string | null;
}

export interface PartUploadUrl {
  url: string;
  headers: Record<string, string>;
}

/** A part as the client reports it at completion, with what was declared for it. */
export interface CompletedPartSpec extends UploadPartSpec {
  etag: string;
}

export interface CompleteOptions {
  /** The file's declared size: the parts' bytes must add up to it. */
  size: number;
  /** The whole file's declared SHA-256, when there is one. */
  sha256Base64?: string | null;
}

/** S3's limits on a part: at least 5 MiB but the last (checked at completion), at most 5 GiB. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
export const MAX_PART_BYTES = 5 * 1024 ** 3;

export interface CompletedUpload {
  size: number;
  etag: string;
  versionId: string | null;
  lastModified: Date;
}

/** The upload does not match what was declared (missing part, size, ETag or checksum): a 4xx. */
export class UploadRejected extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'UploadRejected';
  }
}

/** Keys under these prefixes are public (S3: the public bucket; local disk: the public route). */
export const PUBLIC_KEY_PREFIXES = ['product_media/', 'organization_avatar/'] as const;

export function isPublicKey(key: string): boolean {
  return PUBLIC_KEY_PREFIXES.some((prefix) => key.startsWith(prefix));
}

/** An ETag as S3 answers it: a quoted hex string; comparison ignores the quotes. */
export function sameEtag(a: string, b: string): boolean {
  return a.replace(/^"|"$/g, '') === b.replace(/^"|"$/g, '');
}

export interface PutOptions {
  contentType?: string;
}

export interface StoredObject {
  body: Readable;
  size: number;
  contentType: string;
}

/**
 * When a signed link stops working. The local disk signs `at` and its routes check it against the server's
 * clock; S3 checks a presigned URL against its own clock, so it is given the lifetime (`seconds`) instead.
 * Made by `linkExpiry` from the server's clock, never an organization's test clock.
 */
export interface LinkExpiry {
  at: Date;
  seconds: number;
}

export function linkExpiry(serverClock: Clock, seconds: number): LinkExpiry {
  return { at: new Date(serverClock.now().getTime() + seconds * 1000), seconds };
}

export interface DownloadUrlOptions {
  expiry: LinkExpiry;
  /** The file name the browser saves it under (`Content-Disposition`). */
  filename?: string;
}

export class StorageObjectNotFound extends Error {
  constructor(readonly key: string) {
    super(`no stored object under ${key}`);
    this.name = 'StorageObjectNotFound';
  }
}

/** One path segment of a key: letters, digits, dot, dash, underscore; never `.` or `..`. */
const KEY_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** Whether a key is well formed: 1 to 512 characters, `/`-separated safe segments (no traversal). */
export function isValidStorageKey(key: string): boolean {
  if (key.length === 0 || key.length > 512) return false;
  return key.split('/').every((segment) => KEY_SEGMENT.test(segment) && !/^\.+$/.test(segment));
}

export function assertValidStorageKey(key: string): void {
  if (!isValidStorageKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
}

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json',
  zip: 'application/zip',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

/** The content type a key's extension implies (backends that keep no metadata of their own). */
export function contentTypeOfKey(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}
