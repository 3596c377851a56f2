import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../src/platform/storage/s3.js';
import { startFakeS3, type FakeS3 } from './support/fake-s3.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');

// Presigned S3 links expire on the bucket's clock: the adapter gives S3 their lifetime, not an end date read
// on the server's (or an organization's test) clock.
describe('S3 presigned links', () => {
  let s3: FakeS3;
  let storage: S3Storage;

  beforeAll(async () => {
    s3 = await startFakeS3({ credentials: { accessKeyId: 'test-access-key', secretAccessKey: 'test-secret-key' } });
    storage = new S3Storage({
      endpoint: s3.url,
      region: 'us-east-1',
      bucket: 'files',
      publicBucket: 'public-files',
      accessKeyId: 'test-access-key',
      secretAccessKey: 'test-secret-key',
      forcePathStyle: true,
    });
  });
  afterAll(() => s3.stop());

  it('sign the lifetime they are given, bounded to the 7 days S3 accepts', async () => {
    const farPast = new Date('2020-01-01T00:00:00Z');
    const link = new URL(await storage.downloadUrl('downloadables/o/a.bin', { expiry: { at: farPast, seconds: 600 } }));
    expect(link.searchParams.get('X-Amz-Expires')).toBe('600');
    const long = new URL(
      await storage.downloadUrl('downloadables/o/a.bin', { expiry: { at: farPast, seconds: 30 * 86_400 } }),
    );
    expect(long.searchParams.get('X-Amz-Expires')).toBe(String(7 * 86_400));
  });

  it('stop working once their lifetime has passed: download and part upload', async () => {
    const bytes = randomBytes(64);
    await storage.put('downloadables/o/b.bin', bytes);
    const expiry = { at: new Date(Date.now() + 60_000), seconds: 60 };
    const download = await storage.downloadUrl('downloadables/o/b.bin', { expiry });
    const { uploadId } = await storage.createMultipartUpload('downloadables/o/c.bin', {
      contentType: 'application/octet-stream',
    });
    const part = await storage.partUploadUrl(
      'downloadables/o/c.bin',
      uploadId,
      { number: 1, checksumSha256Base64: null },
      expiry,
    );
    expect((await fetch(download)).status).toBe(200);

    // X-Amz-Date has a precision of one second: past date + 60 s + 1 s, the bucket refuses both.
    s3.advance(61_000);
    const late = await fetch(download);
    expect(late.status).toBe(403);
    expect(await late.text()).toContain('AccessDenied');
    expect((await fetch(part.url, { method: 'PUT', headers: part.headers, body: bytes })).status).toBe(403);
  });

  it('a part URL binds its number and checksum, never a length: a part of any size goes up', async () => {
    const key = 'downloadables/o/d.bin';
    const { uploadId } = await storage.createMultipartUpload(key, { contentType: 'application/octet-stream' });
    const expiry = { at: new Date(Date.now() + 600_000), seconds: 600 };
    const bytes = randomBytes(1000);
    const plain = await storage.partUploadUrl(key, uploadId, { number: 1 }, expiry);
    expect(new URL(plain.url).searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    const checked = await storage.partUploadUrl(
      key,
      uploadId,
      { number: 2, checksumSha256Base64: sha256(bytes) },
      expiry,
    );
    expect(new URL(checked.url).searchParams.get('X-Amz-SignedHeaders')).toBe(
      'host;x-amz-checksum-sha256;x-amz-sdk-checksum-algorithm',
    );
    for (const [url, headers, body] of [
      [plain.url, plain.headers, randomBytes(6 * 1024 * 1024)],
      [checked.url, checked.headers, bytes],
    ] as const) {
      const response = await fetch(url, { method: 'PUT', headers, body });
      expect(response.status, await response.text()).toBe(200);
    }
    // The fake checks signatures: a URL changed after signing is refused, as S3 does.
    const tampered = plain.url.replace('partNumber=1', 'partNumber=3');
    expect((await fetch(tampered, { method: 'PUT', body: bytes })).status).toBe(403);
    await storage.abortMultipartUpload(key, uploadId);
  });
});
