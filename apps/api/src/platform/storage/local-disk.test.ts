import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalDiskStorage } from './local-disk.js';
import { signingKeyOf, verifyDownload } from './signed-url.js';
import { isValidStorageKey, StorageObjectNotFound } from './storage.js';

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
