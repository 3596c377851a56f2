import { describe, expect, it } from 'vitest';
import {
  signDownload,
  signingKeyOf,
  signPartUpload,
  verifyDownload,
  verifyPartUpload,
  type DownloadGrant,
  type PartUploadGrant,
} from './signed-url.js';

const key = signingKeyOf('a-server-secret-of-at-least-32-characters');
const grant: DownloadGrant = {
  key: 'invoices/org/order.pdf',
  expires: 1_800_000_000,
  filename: 'Invoice-ACME-0001.pdf',
};
const signature = signDownload(key, grant);
const before = new Date((grant.expires - 1) * 1000);

describe('verifyDownload', () => {
  it.each([
    ['the link as signed', grant, signature, before, 'valid'],
    ['at the expiry second', grant, signature, new Date(grant.expires * 1000), 'expired'],
    ['after the expiry', grant, signature, new Date((grant.expires + 60) * 1000), 'expired'],
    ['another key', { ...grant, key: 'invoices/org/other.pdf' }, signature, before, 'invalid'],
    ['a later expiry', { ...grant, expires: grant.expires + 3600 }, signature, before, 'invalid'],
    ['another file name', { ...grant, filename: 'x.pdf' }, signature, before, 'invalid'],
    ['no file name', { ...grant, filename: undefined }, signature, before, 'invalid'],
    ['a changed signature', grant, signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A'), before, 'invalid'],
    ['a shorter signature', grant, signature.slice(0, 10), before, 'invalid'],
    ['an empty signature', grant, '', before, 'invalid'],
    ['a non-numeric expiry', { ...grant, expires: Number.NaN }, signature, before, 'invalid'],
  ] as const)('%s → %s', (_name, given, sig, now, verdict) => {
    expect(verifyDownload(key, given as DownloadGrant, sig, now)).toBe(verdict);
  });

  it('refuses a link signed under another secret', () => {
    const other = signingKeyOf('another-server-secret-of-32-characters!!');
    expect(verifyDownload(other, grant, signature, before)).toBe('invalid');
  });
});

describe('verifyPartUpload', () => {
  const part: PartUploadGrant = {
    uploadId: 'a'.repeat(32),
    key: 'downloadable/o/f/a.bin',
    number: 1,
    checksum: undefined,
    expires: 1_800_000_000,
  };
  const signed = signPartUpload(key, part);
  it.each([
    ['the link as signed', part, 'valid'],
    ['another part number', { ...part, number: 2 }, 'invalid'],
    ['another upload', { ...part, uploadId: 'b'.repeat(32) }, 'invalid'],
    ['another key', { ...part, key: 'downloadable/o/f/b.bin' }, 'invalid'],
    ['a checksum added', { ...part, checksum: 'x'.repeat(43) + '=' }, 'invalid'],
    ['a later expiry', { ...part, expires: part.expires + 1 }, 'invalid'],
  ] as const)('%s → %s', (_name, given, verdict) => {
    expect(verifyPartUpload(key, given, signed, before)).toBe(verdict);
  });
});
