import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { signDownload } from './signed-url.js';
import {
  assertValidStorageKey,
  contentTypeOfKey,
  StorageObjectNotFound,
  type DownloadUrlOptions,
  type ObjectStorage,
  type PutOptions,
  type StoredObject,
} from './storage.js';

/** The server's own route that serves local-disk objects by signed link (storage.routes.ts). */
export const STORAGE_DOWNLOAD_PATH = '/v1/storage/download';

export interface LocalDiskStorageOptions {
  /** The directory objects live under (`DATA_DIR/storage`). */
  root: string;
  /** Where signed links point: the server's public base URL. */
  baseUrl: string;
  /** The HMAC key of signed links (derived from SECRET: `signingKeyOf`). */
  signingKey: Buffer;
}

/**
 * Objects as files under one directory, the key as the relative path. A put streams into a temporary
 * file beside the target and renames it into place, so a reader sees the whole old file or the whole
 * new one, never a partial write. Downloads go through the server's signed-link route.
 */
export class LocalDiskStorage implements ObjectStorage {
  constructor(private readonly options: LocalDiskStorageOptions) {}

  private pathOf(key: string): string {
    assertValidStorageKey(key);
    return join(this.options.root, ...key.split('/'));
  }

  async put(key: string, body: Readable | Uint8Array, _options: PutOptions = {}): Promise<{ size: number }> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${randomBytes(6).toString('hex')}.partial`;
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    const source = body instanceof Readable ? body : Readable.from([body]);
    try {
      await pipeline(source, counter, createWriteStream(temporary, { mode: 0o600 }));
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { size };
  }

  async get(key: string): Promise<StoredObject> {
    const path = this.pathOf(key);
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new StorageObjectNotFound(key);
      throw error;
    }
    const { size } = await handle.stat();
    // The stream owns the open handle: a rename over the path meanwhile leaves this read intact.
    return { body: handle.createReadStream(), size, contentType: contentTypeOfKey(key) };
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async downloadUrl(key: string, options: DownloadUrlOptions): Promise<string> {
    assertValidStorageKey(key);
    const expires = Math.floor(options.expiresAt.getTime() / 1000);
    const signature = signDownload(this.options.signingKey, { key, expires, filename: options.filename });
    const url = new URL(`${this.options.baseUrl}${STORAGE_DOWNLOAD_PATH}/${key}`);
    url.searchParams.set('expires', String(expires));
    if (options.filename !== undefined) url.searchParams.set('filename', options.filename);
    url.searchParams.set('signature', signature);
    return url.toString();
  }
}
