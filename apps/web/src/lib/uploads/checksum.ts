/**
 * SHA-256 digests in the browser with Web Crypto, base64-encoded as the API (and S3's
 * `x-amz-checksum-sha256`) expect them.
 *
 * Web Crypto has no streaming digest: hashing the whole file reads it into memory at once. Parts are
 * hashed one at a time as they are read; the whole file only up to WHOLE_FILE_DIGEST_MAX_BYTES, beyond
 * which the (optional) whole-file checksum is left out and the per-part checksums still protect every byte.
 */

export const WHOLE_FILE_DIGEST_MAX_BYTES = 256 * 1024 * 1024;

export function base64OfBytes(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

export async function sha256Base64(blob: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  return base64OfBytes(new Uint8Array(digest));
}

/** The whole file's digest, or null when the file is too large to hash in memory. */
export async function wholeFileSha256Base64(file: Blob): Promise<string | null> {
  return file.size <= WHOLE_FILE_DIGEST_MAX_BYTES ? sha256Base64(file) : null;
}
