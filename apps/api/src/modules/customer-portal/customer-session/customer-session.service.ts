import { randomInt, randomUUID } from 'node:crypto';
import type { z } from 'zod/v4';
import { hashToken } from '../../../platform/auth/tokens.js';
import type { Context } from '../../../platform/context.js';
import { Unauthorized } from '../../../platform/http/errors.js';
import { openCustomerSession } from '../../checkouts/checkouts.customer.js';
import { findCustomerByEmail, lockCustomerEmail } from '../../customers/customers.repository.js';
import {
  deleteSessionCodes,
  findOrganizationForCode,
  insertCodeEmail,
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
  const portal = `${ctx.config.baseUrl}/portal/${encodeURIComponent(organization.slug)}`;
  await insertCodeEmail(ctx.db, {
    id: randomUUID(),
    created_at: now,
    organization_id: organization.id,
    to: customer.email,
    subject: `Your sign-in code for ${organization.name}`,
    text_body: [
      `Your code to sign in to the customer portal of ${organization.name} is: ${code}`,
      '',
      `Enter it at ${portal} within 30 minutes. If you did not ask for it, you can ignore this email.`,
    ].join('\n'),
  });
  return {};
}

export async function authenticateSessionCode(
  ctx: Context,
  input: z.output<typeof CustomerSessionCodeAuthenticateRequest>,
): Promise<{ token: string }> {
  const taken = await takeSessionCode(ctx.db, hashToken(normalizeCode(input.code), ctx.config.secret), ctx.clock.now());
  if (!taken) throw new Unauthorized('This code is invalid or has expired.');
  return { token: await openCustomerSession(ctx, taken.customer_id) };
}
