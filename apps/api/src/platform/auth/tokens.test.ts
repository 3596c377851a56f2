import { describe, expect, it } from 'vitest';
import {
  crc32,
  generateToken,
  hashPassword,
  hashToken,
  isWellFormedToken,
  TOKEN_PREFIX,
  verifyPassword,
} from './tokens.js';

describe('generateToken', () => {
  it('is the prefix, 37 random base62 characters and a 6-character checksum', () => {
    const token = generateToken(TOKEN_PREFIX.organizationAccessToken);
    expect(token).toMatch(/^polar_oat_[0-9A-Za-z]{43}$/);
    expect(isWellFormedToken(token, TOKEN_PREFIX.organizationAccessToken)).toBe(true);
  });

  it('never repeats (at least 128 bits of randomness)', () => {
    const tokens = new Set(Array.from({ length: 2000 }, () => generateToken('p_')));
    expect(tokens.size).toBe(2000);
    // 37 characters of base62 carry 37 * log2(62) ≈ 220 bits.
    expect(37 * Math.log2(62)).toBeGreaterThan(128);
  });

  it('detects a typo through the checksum', () => {
    const token = generateToken(TOKEN_PREFIX.customerSession);
    const last = token.at(-10)!;
    const typo = token.slice(0, -10) + (last === 'a' ? 'b' : 'a') + token.slice(-9);
    expect(isWellFormedToken(typo, TOKEN_PREFIX.customerSession)).toBe(false);
    expect(isWellFormedToken(token, TOKEN_PREFIX.organizationAccessToken)).toBe(false);
  });
});

describe('crc32', () => {
  it.each([
    ['', 0],
    ['a', 0xe8b7be43],
    ['123456789', 0xcbf43926],
  ])('crc32(%j) = %i', (input, expected) => {
    expect(crc32(input)).toBe(expected);
  });
});

describe('hashToken', () => {
  it('is HMAC-SHA256 keyed with the secret, as hex', () => {
    const a = hashToken('polar_oat_x', 'secret-one');
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken('polar_oat_x', 'secret-one')).toBe(a);
    expect(hashToken('polar_oat_x', 'secret-two')).not.toBe(a);
    // RFC 4231-style known answer: HMAC-SHA256(key="key", "The quick brown fox jumps over the lazy dog").
    expect(hashToken('The quick brown fox jumps over the lazy dog', 'key')).toBe(
      'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
  });
});

describe('password hashing', () => {
  it('verifies the right password and rejects a wrong one', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('Correct horse battery staple', stored)).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  it('rejects a stored value of another scheme', async () => {
    expect(await verifyPassword('x', 'bcrypt$whatever')).toBe(false);
  });
});
