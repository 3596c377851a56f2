import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalDiskStorage } from './local-disk.js';
import { signingKeyOf, verifyDownload } from './signed-url.js';
import { isValidStorageKey, StorageObjectNotFound, UploadRejected } from './storage.js';

const root = mkdtempSync(join(tmpdir(), 'tessera-storage-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const signingKey = signingKeyOf('a-server-secret-of-at-least-32-characters');
const storage = new LocalDiskStorage({ root, baseUrl: 'https://billing.example', signingKey });

describe('LocalDiskStorage', () => {
  it('streams an object in and out, replaces it whole, and deletes it (twice is fine)', async () => {
    const chunks = Array.from({ length: 100 }, (_, i) => `chunk ${i};`);
    expect(await storage.put('a/b/c.txt', Readable.from(chunks))).toEqual({ size: chunks.join('').length });
    const stored = await storage.get('a/b/c.txt');
    expect(stored.size).toBe(chunks.join('').length);
    expect(stored.contentType).toBe('text/plain; charset=utf-8');
    expect(await text(stored.body)).toBe(chunks.join(''));
    await storage.put('a/b/c.txt', Buffer.from('second'));
    expect(await text((await storage.get('a/b/c.txt')).body)).toBe('second');
    // No temporary file is left beside it.
    expect(readdirSync(join(root, 'a', 'b'))).toEqual(['c.txt']);
    await storage.delete('a/b/c.txt');
    await storage.delete('a/b/c.txt');
    await expect(storage.get('a/b/c.txt')).rejects.toBeInstanceOf(StorageObjectNotFound);
  });

  it('leaves nothing behind when the source stream fails', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('source failed'));
      },
    });
    await expect(storage.put('broken/x.pdf', failing)).rejects.toThrow('source failed');
    expect(readdirSync(join(root, 'broken'))).toEqual([]);
  });

  it('refuses keys that would leave its directory', async () => {
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a//b', '', 'a/./b', 'a\\b', 'a/b c']) {
      expect(isValidStorageKey(key)).toBe(false);
      await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow('invalid storage key');
    }
  });

  it('signs download links for its key, expiry and file name', async () => {
    const expiry = { at: new Date('2030-01-01T00:00:00Z'), seconds: 600 };
    const url = new URL(await storage.downloadUrl('invoices/o/1.pdf', { expiry, filename: 'Invoice-A-0001.pdf' }));
    expect(url.origin + url.pathname).toBe('https://billing.example/v1/storage/download/invoices/o/1.pdf');
    const grant = {
      key: 'invoices/o/1.pdf',
      expires: Number(url.searchParams.get('expires')),
      filename: url.searchParams.get('filename') ?? undefined,
    };
    expect(grant.expires).toBe(expiry.at.getTime() / 1000);
    expect(verifyDownload(signingKey, grant, url.searchParams.get('signature')!, new Date('2029-12-31'))).toBe('valid');
  });
});

describe('LocalDiskStorage multipart uploads', () => {
  const MiB = 1024 * 1024;
  const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');
  const uploadFiles = (uploadId: string) => readdirSync(join(root, '.uploads', uploadId)).sort();

  async function start(key: string) {
    const { uploadId } = await storage.createMultipartUpload(key, { contentType: 'application/octet-stream' });
    const send = async (number: number, bytes: Buffer, checksumSha256Base64: string | null = null) => ({
      number,
      checksumSha256Base64,
      ...(await storage.receivePart(key, uploadId, { number, checksumSha256Base64 }, Readable.from([bytes]))),
    });
    return { uploadId, send };
  }

  it('keeps each part in a file of its own and joins them in order at completion, whatever order they came in', async () => {
    const key = 'downloadable/o/f1/joined.bin';
    const bytes = randomBytes(11 * MiB + 5);
    const slices = [bytes.subarray(0, 5 * MiB), bytes.subarray(5 * MiB, 11 * MiB), bytes.subarray(11 * MiB)];
    const { uploadId, send } = await start(key);
    const sent = [await send(3, slices[2]!), await send(1, slices[0]!, sha256(slices[0]!)), await send(2, slices[1]!)];
    expect(uploadFiles(uploadId).filter((f) => f.endsWith('.part'))).toHaveLength(3);
    const parts = [...sent].sort((a, b) => a.number - b.number);
    const completed = await storage.completeMultipartUpload(key, uploadId, parts, {
      size: bytes.length,
      sha256Base64: sha256(bytes),
    });
    expect(completed.size).toBe(bytes.length);
    expect(readFileSync(join(root, ...key.split('/'))).equals(bytes)).toBe(true);
    expect(existsSync(join(root, '.uploads', uploadId))).toBe(false);
  });

  it('refuses a small part before the last, a total other than the size, a wrong ETag or file checksum; the parts stay for another try', async () => {
    const key = 'downloadable/o/f2/retry.bin';
    const bytes = randomBytes(6 * MiB);
    const { uploadId, send } = await start(key);
    const small = [await send(1, bytes.subarray(0, MiB)), await send(2, bytes.subarray(MiB))];
    const complete = (parts: typeof small, options: { size: number; sha256Base64?: string }) =>
      storage.completeMultipartUpload(key, uploadId, parts, options);
    await expect(complete(small, { size: bytes.length })).rejects.toThrow(/EntityTooSmall/);

    // The same upload, laid out again: part 1 sent with 5 MiB, part 2 with the rest.
    const parts = [await send(1, bytes.subarray(0, 5 * MiB)), await send(2, bytes.subarray(5 * MiB))];
    await expect(complete(parts, { size: bytes.length + 1 })).rejects.toThrow(
      `The parts have ${bytes.length} bytes; the file was declared with ${bytes.length + 1}.`,
    );
    await expect(complete([parts[0]!, { ...parts[1]!, etag: '"0"' }], { size: bytes.length })).rejects.toThrow(
      'Part 2 has another ETag.',
    );
    await expect(complete([parts[0]!], { size: 5 * MiB, sha256Base64: sha256(Buffer.from('other')) })).rejects.toThrow(
      'The file does not match its SHA-256 checksum.',
    );
    await expect(
      complete([{ ...parts[0]!, checksumSha256Base64: sha256(Buffer.from('other')) }, parts[1]!], {
        size: bytes.length,
      }),
    ).rejects.toBeInstanceOf(UploadRejected);
    // A whole-file mismatch appended to part 1 and put it back as it was: the upload still completes.
    await expect(complete(parts, { size: bytes.length, sha256Base64: sha256(Buffer.from('x')) })).rejects.toThrow(
      'The file does not match its SHA-256 checksum.',
    );
    expect(uploadFiles(uploadId)).not.toContain('assembling');
    await complete(parts, { size: bytes.length, sha256Base64: sha256(bytes) });
    expect(readFileSync(join(root, ...key.split('/'))).equals(bytes)).toBe(true);
  });

  it('an unfinished join left by a crash is not a part: completion says which part to send again', async () => {
    const key = 'downloadable/o/f3/crash.bin';
    const bytes = randomBytes(1000);
    const { uploadId, send } = await start(key);
    const [part] = [await send(1, bytes)];
    // As a crash between the rename of part 1 and the end of the join leaves it.
    const directory = join(root, '.uploads', uploadId);
    const partFile = uploadFiles(uploadId).find((f) => f.startsWith('1-'))!;
    rmSync(join(directory, partFile));
    writeFileSync(join(directory, 'assembling'), Buffer.concat([bytes, Buffer.from('half of part 2')]));
    await expect(storage.completeMultipartUpload(key, uploadId, [part!], { size: 1000 })).rejects.toThrow(
      'Part 1 was not uploaded.',
    );
    await send(1, bytes);
    await storage.completeMultipartUpload(key, uploadId, [part!], { size: 1000 });
    expect(readFileSync(join(root, ...key.split('/'))).equals(bytes)).toBe(true);
  });

  it('a part refused for its checksum leaves nothing; one sent again with other bytes is joined by the ETag reported', async () => {
    const key = 'downloadable/o/f4/twice.bin';
    const first = randomBytes(100);
    const second = randomBytes(200);
    const { uploadId, send } = await start(key);
    await expect(send(1, first, sha256(second))).rejects.toThrow('The part does not match its SHA-256 checksum.');
    expect(uploadFiles(uploadId)).toEqual(['upload.json']);
    const a = await send(1, first);
    const b = await send(1, second);
    expect(a.etag).not.toBe(b.etag);
    await storage.completeMultipartUpload(key, uploadId, [b], { size: 200 });
    expect(readFileSync(join(root, ...key.split('/'))).equals(second)).toBe(true);
  });
});
