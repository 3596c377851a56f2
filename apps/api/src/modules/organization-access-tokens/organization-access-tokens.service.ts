import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import type { Executor } from '../../platform/db/database.js';
import { generateToken, hashToken, TOKEN_PREFIX } from '../../platform/auth/tokens.js';
import { ResourceNotFound, validationError } from '../../platform/http/errors.js';
import { pageOf } from '../../platform/http/query.js';
import { findVisibleOrganization } from '../organizations/organizations.repository.js';
import {
  findVisibleOrganizationAccessToken,
  insertOrganizationAccessToken,
  listVisibleOrganizationAccessTokens,
  updateOrganizationAccessTokenRow,
  type OrganizationAccessTokenRow,
} from './organization-access-tokens.repository.js';
import type { OrganizationAccessTokenListParams } from './organization-access-tokens.schemas.js';

const UNIT_SECONDS: Record<string, number> = { Y: 365 * 86400, W: 7 * 86400, D: 86400, H: 3600, S: 1 };

/** Seconds in an ISO 8601 duration (years as 365 days, months as 30 days), or the number given. */
export function durationSeconds(value: number | string): number {
  if (typeof value === 'number') return value;
  const [datePart, timePart = ''] = value.slice(1).split('T');
  let total = 0;
  for (const [, amount, unit] of datePart!.matchAll(/(\d+)([YMWD])/g)) {
    total += Number(amount) * (unit === 'M' ? 30 * 86400 : UNIT_SECONDS[unit!]!);
  }
  for (const [, amount, unit] of timePart.matchAll(/(\d+)([HMS])/g)) {
    total += Number(amount) * (unit === 'M' ? 60 : UNIT_SECONDS[unit!]!);
  }
  return total;
}

export interface IssuedToken {
  row: OrganizationAccessTokenRow;
  /** The token in clear: shown once, never stored. */
  token: string;
}

/** Issues a token for an organization the caller has already been allowed to act for. */
export async function issueOrganizationAccessToken(
  db: Executor,
  options: {
    organizationId: string;
    scopes: string[];
    comment: string;
    expiresAt: Date | null;
    now: Date;
    secret: string;
  },
): Promise<IssuedToken> {
  const token = generateToken(TOKEN_PREFIX.organizationAccessToken);
  const row = await insertOrganizationAccessToken(db, {
    id: randomUUID(),
    created_at: options.now,
    modified_at: null,
    deleted_at: null,
    token_hash: hashToken(token, options.secret),
    organization_id: options.organizationId,
    comment: options.comment,
    scopes: [...new Set(options.scopes)].sort(),
    expires_at: options.expiresAt,
    last_used_at: null,
  });
  return { row, token };
}

export async function createOrganizationAccessToken(
  ctx: Context,
  input: { organization_id: string; comment: string; scopes: string[]; expires_in?: number | string | null },
): Promise<IssuedToken> {
  const organization = await findVisibleOrganization(ctx.db, ctx.subject, input.organization_id);
  if (!organization) throw validationError(['body', 'organization_id'], 'Organization not found.');
  let expiresAt: Date | null = null;
  const now = ctx.clock.now();
  if (input.expires_in != null) {
    const seconds = durationSeconds(input.expires_in);
    if (seconds < 60) throw validationError(['body', 'expires_in'], 'Expiry must be at least one minute.');
    expiresAt = new Date(now.getTime() + seconds * 1000);
  }
  return issueOrganizationAccessToken(ctx.db, {
    organizationId: organization.id,
    scopes: input.scopes,
    comment: input.comment,
    expiresAt,
    now,
    secret: ctx.config.secret,
  });
}

export async function listOrganizationAccessTokens(ctx: Context, params: OrganizationAccessTokenListParams) {
  const { rows, total } = await listVisibleOrganizationAccessTokens(ctx.db, ctx.subject, params);
  return pageOf(rows, total, params);
}

export async function updateOrganizationAccessToken(
  ctx: Context,
  id: string,
  input: { comment?: string | null; scopes?: string[] | null },
): Promise<OrganizationAccessTokenRow> {
  const current = await findVisibleOrganizationAccessToken(ctx.db, ctx.subject, id);
  if (!current) throw new ResourceNotFound();
  return updateOrganizationAccessTokenRow(ctx.db, id, {
    modified_at: ctx.clock.now(),
    ...(input.comment != null ? { comment: input.comment } : {}),
    ...(input.scopes != null ? { scopes: [...new Set(input.scopes)].sort() } : {}),
  });
}

/** Revoking is immediate: the next request with the token gets 401. */
export async function revokeOrganizationAccessToken(ctx: Context, id: string): Promise<void> {
  const current = await findVisibleOrganizationAccessToken(ctx.db, ctx.subject, id);
  if (!current) throw new ResourceNotFound();
  const now = ctx.clock.now();
  await updateOrganizationAccessTokenRow(ctx.db, id, { modified_at: now, deleted_at: now });
}
