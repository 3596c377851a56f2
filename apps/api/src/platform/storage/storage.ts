import type { Readable } from 'node:stream';

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
   * A URL anyone holding it can download the object from until `expiresAt`: for the local disk a
   * signed link to the server's own download route, for S3 a presigned GET.
   */
  downloadUrl(key: string, options: DownloadUrlOptions): Promise<string>;
}

export interface PutOptions {
  contentType?: string;
}

export interface StoredObject {
  body: Readable;
  size: number;
  contentType: string;
}

export interface DownloadUrlOptions {
  expiresAt: Date;
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
};

/** The content type a key's extension implies (backends that keep no metadata of their own). */
export function contentTypeOfKey(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}
