const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LENGTH = 43; // 43 characters of 62: about 256 bits.
const PREFIX = 'whsec_';

/**
 * A new webhook signing secret. The API takes the secret from the caller and never returns it, so the
 * dashboard makes one here from the browser's CSPRNG and shows it once. Bytes at or above 248 are
 * skipped so every character is equally likely (248 is the largest multiple of 62 below 256).
 */
export function generateSigningSecret(random: (bytes: Uint8Array) => void = (bytes) => crypto.getRandomValues(bytes)) {
  let secret = '';
  while (secret.length < LENGTH) {
    const bytes = new Uint8Array(LENGTH);
    random(bytes);
    for (const byte of bytes) {
      if (byte < 248 && secret.length < LENGTH) secret += ALPHABET[byte % ALPHABET.length];
    }
  }
  return PREFIX + secret;
}
