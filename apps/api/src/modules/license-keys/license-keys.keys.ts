import { addMonths } from '../billing/billing.money.js';
import { randomUUID } from 'node:crypto';

/**
 * Key format of the reference: an upper-case UUID, behind the benefit's prefix (trimmed, upper-cased,
 * joined with "-") when it has one: `MYAPP-8F1B2C4E-…`.
 */
export function generateLicenseKey(prefix: string | null, uuid: string = randomUUID()): string {
  const key = uuid.toUpperCase();
  const head = prefix?.trim().toUpperCase();
  return head ? `${head}-${key}` : key;
}

/** `****-` and the key's last six characters. */
export function displayKey(key: string): string {
  return `****-${key.slice(-6)}`;
}

export type Timeframe = 'year' | 'month' | 'day';

/**
 * `now` plus `ttl` calendar years, months or days in UTC (relativedelta: a month from Jan 31 is the
 * last day of February).
 */
export function expiresAt(now: Date, expires: { ttl: number; timeframe: Timeframe } | null): Date | null {
  if (!expires) return null;
  const { ttl, timeframe } = expires;
  if (timeframe === 'day') return new Date(now.getTime() + ttl * 86_400_000);
  return addMonths(now, timeframe === 'year' ? ttl * 12 : ttl);
}

/** Exact equality of two condition maps (keys in any order), as the reference compares dicts. */
export function sameConditions(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ak = Object.keys(a);
  const bk = Object.keys(b);
  if (ak.length !== bk.length) return false;
  return ak.every((k) => Object.prototype.hasOwnProperty.call(b, k) && a[k] === b[k]);
}
