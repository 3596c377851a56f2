import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod/v4';
import { Id, int32 } from '../../platform/http/schemas.js';

/**
 * The six benefit types and their `properties`: what a create or update sends (`*CreateProperties`,
 * strict, so properties of another type are a 422) and what is stored and read (`*Properties`).
 */
export const BENEFIT_TYPES = [
  'custom',
  'discord',
  'github_repository',
  'downloadables',
  'license_keys',
  'meter_credit',
] as const;
export type BenefitType = (typeof BENEFIT_TYPES)[number];

export const BenefitTypeEnum = z.enum(BENEFIT_TYPES).meta({ id: 'BenefitType' });

export const GITHUB_PERMISSIONS = ['pull', 'triage', 'push', 'maintain', 'admin'] as const;
export const LICENSE_KEY_TIMEFRAMES = ['year', 'month', 'day'] as const;

/** Activation limits a license key benefit may set (reference: 1..50). */
export const MAX_LICENSE_KEY_ACTIVATIONS = 50;

// ---------------------------------------------------------------------------------------------------
// Read (stored) properties
// ---------------------------------------------------------------------------------------------------

export const BenefitCustomProperties = z
  .object({ note: z.string().nullable() })
  .meta({ id: 'BenefitCustomProperties' });

export const BenefitDiscordProperties = z
  .object({
    guild_id: z.string(),
    role_id: z.string(),
    // Not stored: Tessera's revocation removes the role only (the serializer says so).
    kick_member: z
      .boolean()
      .meta({ description: 'Whether revoking removes the member from the server: false, the role only is removed.' }),
    guild_token: z.string(),
  })
  .meta({ id: 'BenefitDiscordProperties' });

export const BenefitGitHubRepositoryProperties = z
  .object({
    repository_owner: z.string(),
    repository_name: z.string(),
    permission: z.enum(GITHUB_PERMISSIONS),
  })
  .meta({ id: 'BenefitGitHubRepositoryProperties' });

export const BenefitDownloadablesProperties = z
  .object({ archived: z.record(z.string(), z.boolean()), files: z.array(z.string()) })
  .meta({ id: 'BenefitDownloadablesProperties' });

export const BenefitLicenseKeyExpirationProperties = z
  .object({ ttl: z.int().gt(0), timeframe: z.enum(LICENSE_KEY_TIMEFRAMES) })
  .meta({ id: 'BenefitLicenseKeyExpirationProperties' });

export const BenefitLicenseKeyActivationProperties = z
  .object({ limit: z.int(), enable_customer_admin: z.boolean() })
  .meta({ id: 'BenefitLicenseKeyActivationProperties' });

export const BenefitLicenseKeysProperties = z
  .object({
    prefix: z.string().nullable(),
    expires: BenefitLicenseKeyExpirationProperties.nullable(),
    activations: BenefitLicenseKeyActivationProperties.nullable(),
    limit_usage: z.int().nullable(),
  })
  .meta({ id: 'BenefitLicenseKeysProperties' });

export const BenefitMeterCreditProperties = z
  .object({ units: z.int(), rollover: z.boolean(), meter_id: z.string() })
  .meta({ id: 'BenefitMeterCreditProperties' });

// ---------------------------------------------------------------------------------------------------
// Create / update properties (what clients send)
// ---------------------------------------------------------------------------------------------------

const fileId = Id();

export const BenefitCustomCreateProperties = z
  .strictObject({ note: z.string().nullable().optional() })
  .meta({ id: 'BenefitCustomCreateProperties' });

export const BenefitDiscordCreateProperties = z
  .strictObject({ guild_token: z.string().min(1), role_id: z.string().min(1).max(64) })
  .meta({ id: 'BenefitDiscordCreateProperties' });

/** GitHub's own rules: owners are 1–39 letters, digits or hyphens; repositories 1–100 of [A-Za-z0-9._-]. */
export const BenefitGitHubRepositoryCreateProperties = z
  .strictObject({
    repository_owner: z
      .string()
      .min(1)
      .max(39)
      .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/, 'Invalid GitHub owner name.'),
    repository_name: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[A-Za-z0-9._-]+$/, 'Invalid GitHub repository name.'),
    permission: z.enum(GITHUB_PERMISSIONS),
  })
  .meta({ id: 'BenefitGitHubRepositoryCreateProperties' });

export const BenefitDownloadablesCreateProperties = z
  .strictObject({
    archived: z.record(fileId, z.boolean()).default({}),
    files: z.array(fileId).min(1, 'List should have at least 1 item after validation'),
  })
  .meta({ id: 'BenefitDownloadablesCreateProperties' });

export const BenefitLicenseKeyActivationCreateProperties = z
  .strictObject({
    limit: z.int().min(1).max(MAX_LICENSE_KEY_ACTIVATIONS),
    enable_customer_admin: z.boolean(),
  })
  .meta({ id: 'BenefitLicenseKeyActivationCreateProperties' });

/**
 * The longest a key may live, in any timeframe: ten thousand years still end on a date both
 * JavaScript and PostgreSQL hold.
 */
export const MAX_LICENSE_KEY_TTL = 10_000;

const LicenseKeyExpirationInput = z.strictObject({
  ttl: z.int().gt(0).max(MAX_LICENSE_KEY_TTL),
  timeframe: z.enum(LICENSE_KEY_TIMEFRAMES),
});

export const BenefitLicenseKeysCreateProperties = z
  .strictObject({
    prefix: z.string().nullable().optional(),
    expires: LicenseKeyExpirationInput.nullable().optional(),
    activations: BenefitLicenseKeyActivationCreateProperties.nullable().optional(),
    // Copied to each key's `limit_usage` (an integer column).
    limit_usage: int32().gt(0).nullable().optional(),
  })
  .meta({ id: 'BenefitLicenseKeysCreateProperties' });

export const BenefitMeterCreditCreateProperties = z
  .strictObject({ units: int32().gt(0), rollover: z.boolean(), meter_id: Id() })
  .meta({ id: 'BenefitMeterCreditCreateProperties' });

/** Each type's create properties; updates take the same shapes (properties are replaced whole). */
export const CREATE_PROPERTIES = {
  custom: BenefitCustomCreateProperties,
  discord: BenefitDiscordCreateProperties,
  github_repository: BenefitGitHubRepositoryCreateProperties,
  downloadables: BenefitDownloadablesCreateProperties,
  license_keys: BenefitLicenseKeysCreateProperties,
  meter_credit: BenefitMeterCreditCreateProperties,
} as const;

export type CreateProperties<T extends BenefitType> = z.output<(typeof CREATE_PROPERTIES)[T]>;

export type StoredProperties = {
  custom: z.output<typeof BenefitCustomProperties>;
  discord: Omit<z.output<typeof BenefitDiscordProperties>, 'kick_member'>;
  github_repository: z.output<typeof BenefitGitHubRepositoryProperties>;
  downloadables: z.output<typeof BenefitDownloadablesProperties>;
  license_keys: z.output<typeof BenefitLicenseKeysProperties>;
  meter_credit: z.output<typeof BenefitMeterCreditProperties>;
};

/**
 * The stored form of properties that need no lookups: optional keys become explicit nulls (the read
 * schema requires every key). Discord and meter credit take what the service verified.
 */
export function normalizeLicenseKeys(input: CreateProperties<'license_keys'>): StoredProperties['license_keys'] {
  return {
    prefix: input.prefix ?? null,
    expires: input.expires ?? null,
    activations: input.activations ?? null,
    limit_usage: input.limit_usage ?? null,
  };
}

// ---------------------------------------------------------------------------------------------------
// Discord guild tokens
// ---------------------------------------------------------------------------------------------------

/**
 * A Discord guild token is what the (future) "connect a Discord server" flow hands the dashboard: an
 * HS256 JWT signed with the server secret, `{guild_id, type: "discord_guild_token", exp}`, valid 15
 * minutes, as the reference mints it. Because we sign it ourselves, it is verifiable offline; the
 * reference's extra checks against the Discord API (role exists, bot role above it) need the network
 * and are not done.
 */
export const GUILD_TOKEN_TYPE = 'discord_guild_token';
export const GUILD_TOKEN_TTL_SECONDS = 15 * 60;

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

function hmac(secret: string, data: string): Buffer {
  return createHmac('sha256', secret).update(data).digest();
}

export function signGuildToken(secret: string, guildId: string, now: Date): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(
    JSON.stringify({
      guild_id: guildId,
      type: GUILD_TOKEN_TYPE,
      exp: Math.floor(now.getTime() / 1000) + GUILD_TOKEN_TTL_SECONDS,
    }),
  );
  return `${header}.${payload}.${base64url(hmac(secret, `${header}.${payload}`))}`;
}

/** The guild id of a valid, unexpired guild token signed with `secret`, or null. */
export function verifyGuildToken(secret: string, token: string, now: Date): string | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  const expected = hmac(secret, `${header}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown };
    if (head.alg !== 'HS256') return null;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (claims.type !== GUILD_TOKEN_TYPE) return null;
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now.getTime()) return null;
    if (typeof claims.guild_id !== 'string' || claims.guild_id.length === 0) return null;
    return claims.guild_id;
  } catch {
    return null;
  }
}
