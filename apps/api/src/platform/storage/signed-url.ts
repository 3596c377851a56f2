import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed download links of the local-disk backend: `expires` (unix seconds) and an HMAC-SHA256 of
 * the key, the expiry and the file name under a key derived from the server secret (so the secret
 * itself signs nothing else). Pure: table-tested.
 */
export interface DownloadGrant {
  key: string;
  /** Unix time in seconds. */
  expires: number;
  filename: string | undefined;
}

export type DownloadVerdict = 'valid' | 'invalid' | 'expired';

export function signingKeyOf(secret: string): Buffer {
  return createHmac('sha256', secret).update('tessera storage download v1').digest();
}

export function signDownload(signingKey: Buffer, grant: DownloadGrant): string {
  return createHmac('sha256', signingKey)
    .update(`${grant.key}\n${grant.expires}\n${grant.filename ?? ''}`)
    .digest('base64url');
}

/**
 * Checks a link: the signature first (a tampered key, expiry or file name is `invalid`, compared in
 * constant time), then the expiry against `now`.
 */
export function verifyDownload(
  signingKey: Buffer,
  grant: DownloadGrant,
  signature: string,
  now: Date,
): DownloadVerdict {
  if (!Number.isSafeInteger(grant.expires) || grant.expires < 0) return 'invalid';
  const expected = Buffer.from(signDownload(signingKey, grant), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return now.getTime() >= grant.expires * 1000 ? 'expired' : 'valid';
}

/**
 * A part upload link of the local-disk backend: which upload, part and checksum, until when. No size
 * or offset: a part is whatever bytes it receives (checked at completion), as on S3.
 */
export interface PartUploadGrant {
  uploadId: string;
  key: string;
  number: number;
  checksum: string | undefined;
  /** Unix time in seconds. */
  expires: number;
}

export function signPartUpload(signingKey: Buffer, grant: PartUploadGrant): string {
  // v2: the links of v1 also signed a start and a size; no link of one verifies as the other.
  return createHmac('sha256', signingKey)
    .update(
      `part-upload v2\n${grant.uploadId}\n${grant.key}\n${grant.number}\n${grant.checksum ?? ''}\n${grant.expires}`,
    )
    .digest('base64url');
}

/** Checks a part upload link as `verifyDownload` checks a download link. */
export function verifyPartUpload(
  signingKey: Buffer,
  grant: PartUploadGrant,
  signature: string,
  now: Date,
): DownloadVerdict {
  if (!Number.isSafeInteger(grant.expires) || grant.expires < 0) return 'invalid';
  if (!Number.isSafeInteger(grant.number)) return 'invalid';
  const expected = Buffer.from(signPartUpload(signingKey, grant), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return now.getTime() >= grant.expires * 1000 ? 'expired' : 'valid';
}
