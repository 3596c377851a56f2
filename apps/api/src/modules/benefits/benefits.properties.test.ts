import { describe, expect, it } from 'vitest';
import {
  BenefitCustomCreateProperties,
  BenefitLicenseKeysCreateProperties,
  GUILD_TOKEN_TTL_SECONDS,
  normalizeLicenseKeys,
  signGuildToken,
  verifyGuildToken,
} from './benefits.properties.js';

const SECRET = 'unit-test-secret-0123456789abcdefghijkl';
const NOW = new Date('2026-01-15T12:00:00.000Z');

describe('discord guild tokens', () => {
  it('round-trips a guild id while the token is fresh', () => {
    const token = signGuildToken(SECRET, '123', NOW);
    expect(token.split('.')).toHaveLength(3);
    expect(verifyGuildToken(SECRET, token, NOW)).toBe('123');
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(payload).toEqual({ guild_id: '123', type: 'discord_guild_token', exp: NOW.getTime() / 1000 + 900 });
  });

  it('refuses an expired token, another secret, a tampered payload and garbage', () => {
    const token = signGuildToken(SECRET, '123', NOW);
    const later = new Date(NOW.getTime() + GUILD_TOKEN_TTL_SECONDS * 1000);
    expect(verifyGuildToken(SECRET, token, later)).toBeNull();
    expect(verifyGuildToken(`${SECRET}x`, token, NOW)).toBeNull();
    const [h, , s] = token.split('.');
    const tampered = Buffer.from(JSON.stringify({ guild_id: '999', type: 'discord_guild_token', exp: 9e9 })).toString(
      'base64url',
    );
    expect(verifyGuildToken(SECRET, `${h}.${tampered}.${s}`, NOW)).toBeNull();
    for (const bad of ['', 'a.b', 'a.b.c', '...']) expect(verifyGuildToken(SECRET, bad, NOW)).toBeNull();
  });
});

describe('properties', () => {
  it('stores license key properties with explicit nulls', () => {
    expect(normalizeLicenseKeys(BenefitLicenseKeysCreateProperties.parse({ prefix: 'A' }))).toEqual({
      prefix: 'A',
      expires: null,
      activations: null,
      limit_usage: null,
    });
  });

  it('refuses keys of another type', () => {
    expect(BenefitCustomCreateProperties.safeParse({ note: 'x' }).success).toBe(true);
    expect(BenefitCustomCreateProperties.safeParse({ prefix: 'x' }).success).toBe(false);
  });
});
