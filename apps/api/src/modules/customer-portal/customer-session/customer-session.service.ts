import { randomInt, randomUUID } from 'node:crypto';
import type { z } from 'zod/v4';
import { hashToken } from '../../../platform/auth/tokens.js';
import type { Context } from '../../../platform/context.js';
import { TooManyRequests, Unauthorized } from '../../../platform/http/errors.js';
import { incrementCounters, readCounter } from '../../../platform/http/rate-limit.repository.js';
import { runIn } from '../../../platform/jobs/queue.js';
import { serverClock } from '../../../platform/test-clock.js';
import { queueEmail } from '../../../platform/mail/outbox.js';
import { openCustomerSession } from '../../checkouts/checkouts.customer.js';
import { findCustomerByEmail, lockCustomerEmail } from '../../customers/customers.repository.js';
import {
  deleteSessionCodes,
  findOrganizationForCode,
  insertSessionCode,
  takeSessionCode,
} from './customer-session.repository.js';
import type { CustomerSessionCodeAuthenticateRequest, CustomerSessionCodeRequest } from './customer-session.schemas.js';

/**
 * Email-code sign-in to the customer portal (the reference's private `customer-session/request` and
 * `/authenticate`): a customer asks for a code by email address, receives it by email, and exchanges it
 * for a customer session. The answer to a request is the same whether or not the address is a
 * customer's (nobody learns who buys), the code is kept only as an HMAC, works once and for 30 minutes,
 * and a new one replaces the earlier ones.
 */
export const CODE_TTL_MS = 30 * 60 * 1000;
export const CODE_LENGTH = 6;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function generateCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/** Codes are typed by people: case and spaces do not matter. */
export function normalizeCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

export async function requestSessionCode(
  ctx: Context,
  input: z.output<typeof CustomerSessionCodeRequest>,
): Promise<Record<string, never>> {
  const organization = await findOrganizationForCode(ctx.db, input.organization_id);
  if (!organization) return {};
  await lockCustomerEmail(ctx.db, organization.id, input.email);
  const customer = await findCustomerByEmail(ctx.db, organization.id, input.email);
  if (!customer) return {};
  const now = ctx.clock.now();
  const code = generateCode();
  await deleteSessionCodes(ctx.db, customer.id, now);
  await insertSessionCode(ctx.db, {
    id: randomUUID(),
    created_at: now,
    expires_at: new Date(now.getTime() + CODE_TTL_MS),
    code_hash: hashToken(code, ctx.config.secret),
    customer_id: customer.id,
  });
  await queueEmail(ctx, {
    organizationId: organization.id,
    to: customer.email,
    template: 'portal_sign_in_code',
    data: {
      code,
      portalUrl: `${ctx.config.baseUrl}/portal/${encodeURIComponent(organization.slug)}`,
      validMinutes: CODE_TTL_MS / 60_000,
    },
  });
  return {};
}

/**
 * Wrong codes from one address: after MAX_WRONG_CODES in a window, every code from it is refused (429,
 * even a right one) until the window ends. Counted on the pool, outside the route's work, so the
 * refusal that follows a wrong guess cannot roll its count back. Not scaled by RATE_LIMIT_SCALE: it is a
 * guessing bound, not a load limit (the per-address request limits of platform/http/rate-limit.ts come
 * on top).
 */
export const MAX_WRONG_CODES = 10;
export const WRONG_CODE_WINDOW_SECONDS = 60 * 60;

function wrongCodeWindow(ip: string, now: Date) {
  const windowMs = WRONG_CODE_WINDOW_SECONDS * 1000;
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return {
    key: `email-code:wrong:${ip}`,
    windowStart: new Date(start),
    expiresAt: new Date(start + windowMs),
    resetSeconds: Math.max(1, Math.ceil((start + windowMs - now.getTime()) / 1000)),
  };
}

export async function authenticateSessionCode(
  ctx: Context,
  input: z.output<typeof CustomerSessionCodeAuthenticateRequest>,
): Promise<{ token: string }> {
  const window = wrongCodeWindow(ctx.request?.ip ?? 'unknown', serverClock(ctx.clock).now());
  if ((await readCounter(ctx.db, window.key, window.windowStart)) >= MAX_WRONG_CODES) {
    const minutes = Math.ceil(window.resetSeconds / 60);
    throw new TooManyRequests(
      window.resetSeconds,
      `Too many wrong codes: sign-in is locked for ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    );
  }
  const token = await (ctx.transactions ?? runIn(ctx)).transaction(async (tx) => {
    const taken = await takeSessionCode(tx.db, hashToken(normalizeCode(input.code), tx.config.secret), tx.clock.now());
    return taken ? openCustomerSession(tx, taken.customer_id) : null;
  });
  if (token === null) {
    await incrementCounters(ctx.db, [window]);
    throw new Unauthorized('This code is invalid or has expired.');
  }
  return { token };
}
