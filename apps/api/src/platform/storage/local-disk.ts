import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { signDownload, signPartUpload } from './signed-url.js';
import {
  assertValidStorageKey,
  contentTypeOfKey,
  sameEtag,
  StorageObjectNotFound,
  UploadRejected,
  type CompletedPartSpec,
  type CompletedUpload,
  type DownloadUrlOptions,
  type LinkExpiry,
  type MultipartCreateOptions,
  type ObjectStorage,
  type PartUploadUrl,
  type PutOptions,
  type StoredObject,
  type UploadPartSpec,
} from './storage.js';

/** The server's own route that serves local-disk objects by signed link (storage.routes.ts). */
export const STORAGE_DOWNLOAD_PATH = '/v1/storage/download';
/** The route part upload links point to (PUT, signed). */
export const STORAGE_UPLOAD_PATH = '/v1/storage/upload';
/** The route public objects (product media, avatars) are served from, unsigned. */
export const STORAGE_PUBLIC_PATH = '/v1/storage/public';

/** Unfinished uploads live under this directory of the root; no key can name it (keys never start with a dot). */
const UPLOADS_DIRECTORY = '.uploads';
const UPLOAD_ID = /^[0-9a-f]{32}$/;
/** Disk reads and writes in 1 MiB steps: fewer trips through the event loop for large files. */
const IO_CHUNK = 1024 * 1024;

export interface LocalDiskStorageOptions {
  /** The directory objects live under (`DATA_DIR/storage`). */
  root: string;
  /** Where signed links point: the server's public base URL. */
  baseUrl: string;
  /** The HMAC key of signed links (derived from SECRET: `signingKeyOf`). */
  signingKey: Buffer;
}

/** What a received part left beside the upload's data: checked again at completion. */
interface ReceivedPart {
  size: number;
  sha256Base64: string;
  etag: string;
}

/** A part refused while it arrived (size or checksum): the route answers it as a 400. */
export class PartRejected extends Error {
  constructor(
    detail: string,
    readonly code: 'EntityTooLarge' | 'IncompleteBody' | 'BadDigest' | 'NoSuchUpload',
  ) {
    super(detail);
    this.name = 'PartRejected';
  }
}

/**
 * Makes a rename or a new file in `directory` durable: on Linux a file's name lives in its directory,
 * which must itself reach the disk for the name to survive a power loss.
 */
async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Objects as files under one directory, the key as the relative path. A put streams into a temporary
 * file beside the target and renames it into place, so a reader sees the whole old file or the whole
 * new one, never a partial write. Downloads go through the server's signed-link route. An object is on
 * the disk (its bytes and its name flushed) before a put or a completed upload returns: what the API
 * says is stored survives a crash or a power loss.
 *
 * Multipart uploads: the upload is one data file under `.uploads/<id>/`, each part streamed straight
 * to its own byte range of it (parts arrive in parallel, nothing is held in memory), with the part's
 * SHA-256 recorded beside it; completion checks every part and renames the data file into place.
 */
export class LocalDiskStorage implements ObjectStorage {
  constructor(private readonly options: LocalDiskStorageOptions) {}

  private pathOf(key: string): string {
    assertValidStorageKey(key);
    return join(this.options.root, ...key.split('/'));
  }

  private uploadDirectory(uploadId: string): string {
    if (!UPLOAD_ID.test(uploadId)) throw new PartRejected('The upload does not exist.', 'NoSuchUpload');
    return join(this.options.root, UPLOADS_DIRECTORY, uploadId);
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
      // `flush`: the bytes reach the disk before the stream closes, so the rename never names a file
      // whose contents a crash could still lose.
      await pipeline(source, counter, createWriteStream(temporary, { mode: 0o600, flush: true }));
      await rename(temporary, path);
      await syncDirectory(dirname(path));
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
    return { body: handle.createReadStream({ highWaterMark: IO_CHUNK }), size, contentType: contentTypeOfKey(key) };
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async downloadUrl(key: string, options: DownloadUrlOptions): Promise<string> {
    assertValidStorageKey(key);
    const expires = Math.floor(options.expiry.at.getTime() / 1000);
    const signature = signDownload(this.options.signingKey, { key, expires, filename: options.filename });
    const url = new URL(`${this.options.baseUrl}${STORAGE_DOWNLOAD_PATH}/${key}`);
    url.searchParams.set('expires', String(expires));
    if (options.filename !== undefined) url.searchParams.set('filename', options.filename);
    url.searchParams.set('signature', signature);
    return url.toString();
  }

  publicUrl(key: string): string {
    assertValidStorageKey(key);
    return `${this.options.baseUrl}${STORAGE_PUBLIC_PATH}/${key}`;
  }

  async createMultipartUpload(key: string, _options: MultipartCreateOptions): Promise<{ uploadId: string }> {
    assertValidStorageKey(key);
    const uploadId = randomBytes(16).toString('hex');
    const directory = this.uploadDirectory(uploadId);
    await mkdir(directory, { recursive: true, mode: 0o700 });
    await writeFile(join(directory, 'upload.json'), JSON.stringify({ key }), { mode: 0o600 });
    await writeFile(join(directory, 'data'), '', { mode: 0o600 });
    return { uploadId };
  }

  async partUploadUrl(key: string, uploadId: string, part: UploadPartSpec, expiry: LinkExpiry): Promise<PartUploadUrl> {
    assertValidStorageKey(key);
    const expires = Math.floor(expiry.at.getTime() / 1000);
    const checksum = part.checksumSha256Base64 ?? undefined;
    const grant = { uploadId, key, number: part.number, start: part.start, size: part.size, checksum, expires };
    const url = new URL(`${this.options.baseUrl}${STORAGE_UPLOAD_PATH}/${uploadId}/${part.number}`);
    url.searchParams.set('key', key);
    url.searchParams.set('start', String(part.start));
    url.searchParams.set('size', String(part.size));
    if (checksum) url.searchParams.set('checksum', checksum);
    url.searchParams.set('expires', String(expires));
    url.searchParams.set('signature', signPartUpload(this.options.signingKey, grant));
    const headers: Record<string, string> = checksum
      ? { 'x-amz-checksum-sha256': checksum, 'x-amz-sdk-checksum-algorithm': 'SHA256' }
      : {};
    return { url: url.toString(), headers };
  }

  /**
   * Streams one part (already authorized by its signed link) into its byte range of the upload's data
   * file, hashing it on the way. More bytes than declared stop the transfer; fewer, or a SHA-256 other
   * than the declared one, are refused and leave the part unreceived. Answers the part's ETag.
   */
  async receivePart(
    key: string,
    uploadId: string,
    part: UploadPartSpec,
    body: Readable,
  ): Promise<{ etag: string; sha256Base64: string }> {
    const directory = this.uploadDirectory(uploadId);
    const manifest = await readFile(join(directory, 'upload.json'), 'utf8').catch(() => undefined);
    if (!manifest || (JSON.parse(manifest) as { key: string }).key !== key) {
      body.resume();
      throw new PartRejected('The upload does not exist.', 'NoSuchUpload');
    }
    const partFile = join(directory, `${part.number}.json`);
    await rm(partFile, { force: true });
    const hash = createHash('sha256');
    let received = 0;
    const check = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        if (received > part.size) {
          done(new PartRejected(`The part is larger than its declared ${part.size} bytes.`, 'EntityTooLarge'));
          return;
        }
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const sink: Writable = createWriteStream(join(directory, 'data'), {
      flags: 'r+',
      start: part.start,
      highWaterMark: IO_CHUNK,
    });
    await pipeline(body, check, sink);
    if (received !== part.size) {
      throw new PartRejected(`The part has ${received} bytes, ${part.size} were declared.`, 'IncompleteBody');
    }
    const digest = hash.digest();
    const sha256Base64 = digest.toString('base64');
    if (part.checksumSha256Base64 && part.checksumSha256Base64 !== sha256Base64) {
      throw new PartRejected('The part does not match its SHA-256 checksum.', 'BadDigest');
    }
    const etag = `"${digest.subarray(0, 16).toString('hex')}"`;
    const record: ReceivedPart = { size: received, sha256Base64, etag };
    await writeFile(partFile, JSON.stringify(record), { mode: 0o600 });
    return { etag, sha256Base64 };
  }

  async completeMultipartUpload(
    key: string,
    uploadId: string,
    parts: CompletedPartSpec[],
    options: { sha256Base64?: string | null } = {},
  ): Promise<CompletedUpload> {
    const path = this.pathOf(key);
    let directory: string;
    try {
      directory = this.uploadDirectory(uploadId);
    } catch {
      throw new UploadRejected('The upload does not exist.');
    }
    const manifest = await readFile(join(directory, 'upload.json'), 'utf8').catch(() => undefined);
    if (!manifest || (JSON.parse(manifest) as { key: string }).key !== key) {
      throw new UploadRejected('The upload does not exist or was already completed.');
    }
    let total = 0;
    for (const part of parts) {
      const raw = await readFile(join(directory, `${part.number}.json`), 'utf8').catch(() => undefined);
      if (!raw) throw new UploadRejected(`Part ${part.number} was not uploaded.`);
      const received = JSON.parse(raw) as ReceivedPart;
      if (received.size !== part.size) throw new UploadRejected(`Part ${part.number} does not have its declared size.`);
      if (!sameEtag(received.etag, part.etag)) throw new UploadRejected(`Part ${part.number} has another ETag.`);
      if (part.checksumSha256Base64 && part.checksumSha256Base64 !== received.sha256Base64) {
        throw new UploadRejected(`Part ${part.number} does not match its SHA-256 checksum.`);
      }
      total += received.size;
    }
    const data = join(directory, 'data');
    const { size } = await stat(data);
    if (size !== total) throw new UploadRejected('The parts do not cover the file exactly.');
    const whole = createHash('sha256');
    if (options.sha256Base64) {
      await pipeline(createReadStream(data, { highWaterMark: IO_CHUNK }), whole);
      if (whole.digest('base64') !== options.sha256Base64) {
        throw new UploadRejected('The file does not match its SHA-256 checksum.');
      }
    }
    // The parts were written without flushing (in parallel, at their offsets): flushed once, here.
    const handle = await open(data, 'r+');
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await mkdir(dirname(path), { recursive: true });
    await rename(data, path);
    await syncDirectory(dirname(path));
    await rm(directory, { recursive: true, force: true });
    const etag = `"${createHash('sha256')
      .update(parts.map((p) => p.etag).join(''))
      .digest('hex')
      .slice(0, 32)}-${parts.length}"`;
    return { size, etag, versionId: null, lastModified: new Date() };
  }

  async abortMultipartUpload(_key: string, uploadId: string): Promise<void> {
    if (!UPLOAD_ID.test(uploadId)) return;
    await rm(this.uploadDirectory(uploadId), { recursive: true, force: true });
  }
}
