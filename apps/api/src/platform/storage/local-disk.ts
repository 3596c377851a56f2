import { createHash, randomBytes, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { signDownload, signPartUpload } from './signed-url.js';
import {
  assertValidStorageKey,
  contentTypeOfKey,
  MAX_PART_BYTES,
  MIN_PART_BYTES,
  sameEtag,
  StorageObjectNotFound,
  UploadRejected,
  type CompletedPartSpec,
  type CompletedUpload,
  type CompleteOptions,
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
/**
 * A received part in its upload's directory: `<number>-<SHA-256 of its bytes in hex>.part`. The name
 * is all there is to know about it (its size is the file's): a part is written under a temporary name
 * and renamed once whole and checked, so a crash never leaves a part that looks received.
 */
const PART_FILE = /^(\d{1,5})-([0-9a-f]{64})\.part$/;
/** The object being joined at completion: the first part's file, the others appended to it. */
const ASSEMBLING = 'assembling';

export interface LocalDiskStorageOptions {
  /** The directory objects live under (`DATA_DIR/storage`). */
  root: string;
  /** Where signed links point: the server's public base URL. */
  baseUrl: string;
  /** The HMAC key of signed links (derived from SECRET: `signingKeyOf`). */
  signingKey: Buffer;
}

/** A received part: its file in the upload's directory and the SHA-256 of its bytes. */
interface ReceivedPart {
  file: string;
  sha256Hex: string;
}

/** A part's ETag, as S3's: quoted hex (here the first half of its SHA-256). */
const etagOf = (sha256Hex: string) => `"${sha256Hex.slice(0, 32)}"`;

/** A part refused while it arrived (over 5 GiB or not its checksum): the route answers it as a 400. */
export class PartRejected extends Error {
  constructor(
    detail: string,
    readonly code: 'EntityTooLarge' | 'BadDigest' | 'NoSuchUpload',
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
 * Multipart uploads, as S3's: a part is the bytes it receives, whatever range the client declared for
 * it. Each part is streamed (in parallel, never held in memory) to its own file under
 * `.uploads/<id>/`, named by its number and SHA-256; a part sent again adds or replaces its file, so an
 * upload resumes part by part. Completion checks the parts against S3's rules and the declared size,
 * then joins them in order, streaming: the first part's file becomes the object and the others are
 * appended to it (a one-part upload is a rename), and renames it into place.
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
    return { uploadId };
  }

  async partUploadUrl(key: string, uploadId: string, part: UploadPartSpec, expiry: LinkExpiry): Promise<PartUploadUrl> {
    assertValidStorageKey(key);
    const expires = Math.floor(expiry.at.getTime() / 1000);
    const checksum = part.checksumSha256Base64 ?? undefined;
    const grant = { uploadId, key, number: part.number, checksum, expires };
    const url = new URL(`${this.options.baseUrl}${STORAGE_UPLOAD_PATH}/${uploadId}/${part.number}`);
    url.searchParams.set('key', key);
    if (checksum) url.searchParams.set('checksum', checksum);
    url.searchParams.set('expires', String(expires));
    url.searchParams.set('signature', signPartUpload(this.options.signingKey, grant));
    const headers: Record<string, string> = checksum
      ? { 'x-amz-checksum-sha256': checksum, 'x-amz-sdk-checksum-algorithm': 'SHA256' }
      : {};
    return { url: url.toString(), headers };
  }

  private async hasUpload(directory: string, key: string): Promise<boolean> {
    const manifest = await readFile(join(directory, 'upload.json'), 'utf8').catch(() => undefined);
    return manifest !== undefined && (JSON.parse(manifest) as { key: string }).key === key;
  }

  /**
   * Streams one part (already authorized by its signed link) to a file of its own, hashing it on the
   * way. Any size up to S3's 5 GiB is taken (more stops the transfer); a SHA-256 other than the
   * declared one is refused and leaves the part as it was. Answers the part's ETag.
   */
  async receivePart(
    key: string,
    uploadId: string,
    part: UploadPartSpec,
    body: Readable,
  ): Promise<{ etag: string; sha256Base64: string }> {
    const directory = this.uploadDirectory(uploadId);
    if (!(await this.hasUpload(directory, key))) {
      body.resume();
      throw new PartRejected('The upload does not exist.', 'NoSuchUpload');
    }
    const temporary = join(directory, `${part.number}.${randomBytes(6).toString('hex')}.partial`);
    const hash = createHash('sha256');
    let received = 0;
    const check = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        if (received > MAX_PART_BYTES) {
          done(new PartRejected('A part is at most 5 GiB.', 'EntityTooLarge'));
          return;
        }
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      // Not flushed: completion flushes the joined object once.
      await pipeline(body, check, createWriteStream(temporary, { mode: 0o600, highWaterMark: IO_CHUNK }));
      const digest = hash.digest();
      const sha256Base64 = digest.toString('base64');
      if (part.checksumSha256Base64 && part.checksumSha256Base64 !== sha256Base64) {
        throw new PartRejected('The part does not match its SHA-256 checksum.', 'BadDigest');
      }
      const sha256Hex = digest.toString('hex');
      await rename(temporary, join(directory, `${part.number}-${sha256Hex}.part`));
      return { etag: etagOf(sha256Hex), sha256Base64 };
    } catch (error) {
      await rm(temporary, { force: true });
      // The upload was completed or aborted while the part arrived.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new PartRejected('The upload does not exist.', 'NoSuchUpload');
      }
      throw error;
    }
  }

  /** The parts received so far, by number: one file for each different body a part was sent with. */
  private async receivedParts(directory: string): Promise<Map<number, ReceivedPart[]>> {
    const parts = new Map<number, ReceivedPart[]>();
    for (const file of await readdir(directory)) {
      const match = PART_FILE.exec(file);
      if (!match) continue;
      const number = Number(match[1]);
      parts.set(number, [...(parts.get(number) ?? []), { file, sha256Hex: match[2]! }]);
    }
    return parts;
  }

  async completeMultipartUpload(
    key: string,
    uploadId: string,
    parts: CompletedPartSpec[],
    options: CompleteOptions,
  ): Promise<CompletedUpload> {
    const path = this.pathOf(key);
    let directory: string;
    try {
      directory = this.uploadDirectory(uploadId);
    } catch {
      throw new UploadRejected('The upload does not exist.');
    }
    if (!(await this.hasUpload(directory, key))) {
      throw new UploadRejected('The upload does not exist or was already completed.');
    }
    const received = await this.receivedParts(directory);
    const files: { path: string; size: number }[] = [];
    let total = 0;
    for (const [index, part] of parts.entries()) {
      const versions = received.get(part.number) ?? [];
      if (versions.length === 0) throw new UploadRejected(`Part ${part.number} was not uploaded.`);
      // The body the client reports (a part sent twice with different bytes has a file for each).
      const chosen = versions.find((version) => sameEtag(etagOf(version.sha256Hex), part.etag));
      if (!chosen) throw new UploadRejected(`Part ${part.number} has another ETag.`);
      if (
        part.checksumSha256Base64 &&
        part.checksumSha256Base64 !== Buffer.from(chosen.sha256Hex, 'hex').toString('base64')
      ) {
        throw new UploadRejected(`Part ${part.number} does not match its SHA-256 checksum.`);
      }
      const file = join(directory, chosen.file);
      const { size } = await stat(file);
      if (index < parts.length - 1 && size < MIN_PART_BYTES) {
        throw new UploadRejected(
          `Part ${part.number} has ${size} bytes; every part but the last must be at least 5 MiB (EntityTooSmall).`,
        );
      }
      files.push({ path: file, size });
      total += size;
    }
    if (total !== options.size) {
      throw new UploadRejected(`The parts have ${total} bytes; the file was declared with ${options.size}.`);
    }

    const assembling = join(directory, ASSEMBLING);
    const [first, ...rest] = files;
    if (!first) throw new UploadRejected('An upload has at least one part.');
    // What a completion that crashed midway left is not a part any more (its part is to be sent again).
    await rm(assembling, { force: true });
    try {
      await rename(first.path, assembling);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new UploadRejected('The upload is being completed by another request.');
      }
      throw error;
    }
    const whole = options.sha256Base64 ? createHash('sha256') : undefined;
    try {
      if (whole)
        for await (const chunk of createReadStream(assembling, { highWaterMark: IO_CHUNK })) whole.update(chunk);
      await pipeline(
        bytesOf(
          rest.map((file) => file.path),
          whole,
        ),
        createWriteStream(assembling, { flags: 'a', highWaterMark: IO_CHUNK }),
      );
      if (whole && whole.digest('base64') !== options.sha256Base64) {
        throw new UploadRejected('The file does not match its SHA-256 checksum.');
      }
    } catch (error) {
      // The first part back as it was received: the upload can be completed again, or parts sent again.
      await truncate(assembling, first.size);
      await rename(assembling, first.path);
      throw error;
    }
    // The parts were written without flushing (in parallel): the object is flushed once, here.
    const handle = await open(assembling, 'r+');
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await mkdir(dirname(path), { recursive: true });
    await rename(assembling, path);
    await syncDirectory(dirname(path));
    await rm(directory, { recursive: true, force: true });
    const etag = `"${createHash('sha256')
      .update(parts.map((p) => p.etag).join(''))
      .digest('hex')
      .slice(0, 32)}-${parts.length}"`;
    return { size: total, etag, versionId: null, lastModified: new Date() };
  }

  async abortMultipartUpload(_key: string, uploadId: string): Promise<void> {
    if (!UPLOAD_ID.test(uploadId)) return;
    await rm(this.uploadDirectory(uploadId), { recursive: true, force: true });
  }
}

/** The bytes of these files one after the other, each chunk added to `hash` when there is one. */
async function* bytesOf(paths: string[], hash: Hash | undefined): AsyncGenerator<Buffer> {
  for (const path of paths) {
    for await (const chunk of createReadStream(path, { highWaterMark: IO_CHUNK })) {
      hash?.update(chunk as Buffer);
      yield chunk as Buffer;
    }
  }
}
