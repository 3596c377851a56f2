import { createHmac, randomInt, scrypt, timingSafeEqual, randomBytes } from 'node:crypto';

/**
 * Tokens are a recognisable prefix, 37 random base62 characters (about 220 bits) and a 6-character
 * base62 CRC32 checksum, so secret scanners can recognise them and typos fail fast. Only
 * HMAC-SHA256(server secret, token) is ever stored.
 */
export const TOKEN_PREFIX = {
  organizationAccessToken: 'polar_oat_',
  personalAccessToken: 'polar_pat_',
  customerSession: 'polar_cst_',
  userSession: 'polar_us_',
  checkoutClientSecret: 'polar_c_',
  checkoutLinkClientSecret: 'polar_cl_',
  oauth2AuthorizationCode: 'polar_ac_',
  oauth2AccessTokenUser: 'polar_at_u_',
  oauth2AccessTokenOrganization: 'polar_at_o_',
  oauth2RefreshTokenUser: 'polar_rt_u_',
  oauth2RefreshTokenOrganization: 'polar_rt_o_',
  oauth2ClientId: 'polar_ci_',
  oauth2ClientSecret: 'polar_cs_',
  clientRegistrationToken: 'polar_crt_',
  webhookSecret: 'polar_whs_',
  organizationInvite: 'polar_inv_',
} as const;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 37;
const CHECKSUM_LENGTH = 6;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  while (rest > 0) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out.padStart(width, '0');
}

export function generateToken(prefix: string): string {
  let random = '';
  // randomInt is uniform (no modulo bias).
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(62)];
  return `${prefix}${random}${base62(crc32(random), CHECKSUM_LENGTH)}`;
}

/** True when the token has the prefix, the length and a matching checksum. */
export function isWellFormedToken(token: string, prefix: string): boolean {
  if (!token.startsWith(prefix)) return false;
  const body = token.slice(prefix.length);
  if (body.length !== RANDOM_LENGTH + CHECKSUM_LENGTH || !/^[0-9A-Za-z]+$/.test(body)) return false;
  const random = body.slice(0, RANDOM_LENGTH);
  return body.slice(RANDOM_LENGTH) === base62(crc32(random), CHECKSUM_LENGTH);
}

export function hashToken(token: string, secret: string): string {
  return createHmac('sha256', secret).update(token, 'utf8').digest('hex');
}

// Password hashing: scrypt with N=2^15, r=8, p=1 (OWASP's recommended minimum), 16-byte salt.
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, keylen: 32, maxmem: 64 * 1024 * 1024 };

function scryptAsync(password: string, salt: Buffer, params: typeof SCRYPT): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password,
      salt,
      params.keylen,
      { N: params.N, r: params.r, p: params.p, maxmem: params.maxmem },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), {
    ...SCRYPT,
    N: Number(n),
    r: Number(r),
    p: Number(p),
    keylen: expected.length,
  });
  return timingSafeEqual(expected, actual);
}

/** A fixed hash verified when the user does not exist, so sign-in timing does not reveal accounts. */
export const DUMMY_PASSWORD_HASH =
  'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
