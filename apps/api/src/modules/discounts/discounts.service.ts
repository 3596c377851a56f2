import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { IssueCollector, ResourceNotFound, validationError } from '../../platform/http/errors.js';
import { pageOf } from '../../platform/http/query.js';
import { resolveOrganizationForWrite } from '../organizations/organizations.service.js';
import {
  findDiscountByCode,
  findDiscountProducts,
  findOrganizationProductIds,
  findVisibleDiscount,
  insertDiscount,
  listVisibleDiscounts,
  lockVisibleDiscount,
  replaceDiscountProducts,
  updateDiscountRow,
  type DiscountRow,
} from './discounts.repository.js';
import type { DiscountCreateInput, DiscountListParams, DiscountUpdateInput } from './discounts.schemas.js';
import { serializeDiscount, type DiscountWire } from './discounts.serializer.js';
import { recordWebhookEvent } from '../../platform/events.js';

const CODE_TAKEN = 'Discount with this code already exists.';

async function checkProducts(
  ctx: Context,
  issues: IssueCollector,
  organizationId: string,
  ids: string[],
): Promise<string[]> {
  const unique = [...new Set(ids)];
  const found = await findOrganizationProductIds(ctx.db, organizationId, unique);
  ids.forEach((id, index) => {
    if (!found.has(id)) issues.add(['body', 'products', index], 'Product not found.');
  });
  return unique;
}

/** Reads discounts with their products, serialized (one query for all products of a page). */
export async function serializeDiscounts(ctx: Context, rows: DiscountRow[]): Promise<DiscountWire[]> {
  const products = await findDiscountProducts(
    ctx.db,
    rows.map((row) => row.id),
  );
  return rows.map((row) =>
    serializeDiscount(
      row,
      products.filter((p) => p.discount_id === row.id),
    ),
  );
}

async function reload(ctx: Context, id: string): Promise<DiscountWire> {
  const row = await findVisibleDiscount(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return (await serializeDiscounts(ctx, [row]))[0]!;
}

export async function createDiscount(ctx: Context, input: DiscountCreateInput): Promise<DiscountWire> {
  const organization = await resolveOrganizationForWrite(ctx, input.organization_id);
  const issues = new IssueCollector();
  if (input.code && (await findDiscountByCode(ctx.db, organization.id, input.code)))
    issues.add(['body', 'code'], CODE_TAKEN);
  const productIds = await checkProducts(ctx, issues, organization.id, input.products ?? []);
  issues.throwIfAny();

  const id = randomUUID();
  const now = ctx.clock.now();
  try {
    await insertDiscount(ctx.db, {
      id,
      created_at: now,
      modified_at: null,
      deleted_at: null,
      organization_id: organization.id,
      name: input.name,
      code: input.code ?? null,
      type: input.type,
      duration: input.duration,
      // Only the chosen variant's fields are kept (the reference ignores the others).
      duration_in_months: input.duration === 'repeating' ? input.duration_in_months! : null,
      amount: input.type === 'fixed' ? input.amount! : null,
      currency: input.type === 'fixed' ? input.currency : null,
      basis_points: input.type === 'percentage' ? input.basis_points! : null,
      starts_at: input.starts_at ? new Date(input.starts_at) : null,
      ends_at: input.ends_at ? new Date(input.ends_at) : null,
      max_redemptions: input.max_redemptions ?? null,
      metadata: JSON.stringify(input.metadata ?? {}),
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw validationError(['body', 'code'], CODE_TAKEN);
    throw error;
  }
  await replaceDiscountProducts(ctx.db, id, productIds, now);
  const created = await reload(ctx, id);
  await recordWebhookEvent(ctx, organization.id, 'discount.created', created);
  return created;
}

export async function getDiscount(ctx: Context, id: string): Promise<DiscountWire> {
  return reload(ctx, id);
}

export async function listDiscounts(ctx: Context, params: DiscountListParams) {
  const { rows, total } = await listVisibleDiscounts(ctx.db, ctx.subject, params);
  return pageOf(await serializeDiscounts(ctx, rows), total, params);
}

/**
 * Type and duration never change; once redeemed, the amount, currency and percentage are frozen (what a
 * customer was promised stays true); changing the validity window must leave it ending in the future.
 */
export async function updateDiscount(ctx: Context, id: string, input: DiscountUpdateInput): Promise<DiscountWire> {
  const current = await lockVisibleDiscount(ctx.db, ctx.subject, id);
  if (!current) throw new ResourceNotFound();
  const issues = new IssueCollector();
  if (input.type != null && input.type !== current.type) issues.add(['body', 'type'], 'Type cannot be changed.');
  if (input.duration != null && input.duration !== current.duration)
    issues.add(['body', 'duration'], 'Duration cannot be changed.');

  const changes: Parameters<typeof updateDiscountRow>[2] = {};
  if (input.name != null) changes.name = input.name;
  if (input.code !== undefined && input.code !== current.code) {
    if (input.code && (await findDiscountByCode(ctx.db, current.organization_id, input.code, id)))
      issues.add(['body', 'code'], CODE_TAKEN);
    changes.code = input.code;
  }
  if (input.starts_at !== undefined) changes.starts_at = input.starts_at ? new Date(input.starts_at) : null;
  if (input.ends_at !== undefined) changes.ends_at = input.ends_at ? new Date(input.ends_at) : null;
  if (input.max_redemptions !== undefined) changes.max_redemptions = input.max_redemptions;
  if (input.metadata !== undefined) changes.metadata = JSON.stringify(input.metadata);
  if (current.duration === 'repeating' && input.duration_in_months != null)
    changes.duration_in_months = input.duration_in_months;

  const frozen: [keyof typeof changes, unknown, unknown][] = [];
  if (current.type === 'fixed') {
    if (input.amount != null && input.amount !== current.amount) frozen.push(['amount', input.amount, current.amount]);
    // Clients send `currency: "usd"` by default; only a different value is a change.
    if (input.currency != null && input.currency !== current.currency)
      frozen.push(['currency', input.currency, current.currency]);
  } else if (input.basis_points != null && input.basis_points !== current.basis_points) {
    frozen.push(['basis_points', input.basis_points, current.basis_points]);
  }
  for (const [field, value] of frozen) {
    if (current.redemptions_count > 0) {
      issues.add(['body', field], 'This field cannot be changed because the discount has already been redeemed.');
    } else {
      (changes as Record<string, unknown>)[field] = value;
    }
  }

  const startsAt = changes.starts_at !== undefined ? changes.starts_at : current.starts_at;
  const endsAt = changes.ends_at !== undefined ? changes.ends_at : current.ends_at;
  if (startsAt && endsAt && startsAt >= endsAt) issues.add(['body', 'ends_at'], 'starts_at must be before ends_at');
  const windowTouched = [
    'starts_at',
    'ends_at',
    'max_redemptions',
    'amount',
    'currency',
    'basis_points',
    'duration_in_months',
  ].some((field) => field in changes);
  if (windowTouched && endsAt && endsAt < ctx.clock.now())
    issues.add(['body', 'ends_at'], 'Ends at must be in the future.');

  let productIds: string[] | undefined;
  if (input.products != null) productIds = await checkProducts(ctx, issues, current.organization_id, input.products);
  issues.throwIfAny();

  const now = ctx.clock.now();
  try {
    await updateDiscountRow(ctx.db, id, { ...changes, modified_at: now });
  } catch (error) {
    if (isUniqueViolation(error)) throw validationError(['body', 'code'], CODE_TAKEN);
    throw error;
  }
  if (productIds) await replaceDiscountProducts(ctx.db, id, productIds, now);
  const updated = await reload(ctx, id);
  await recordWebhookEvent(ctx, current.organization_id, 'discount.updated', updated);
  return updated;
}

/** Soft delete: subscriptions keep the discount they have; nobody can redeem it any more. */
export async function deleteDiscount(ctx: Context, id: string): Promise<void> {
  const current = await lockVisibleDiscount(ctx.db, ctx.subject, id);
  if (!current) throw new ResourceNotFound();
  const now = ctx.clock.now();
  await updateDiscountRow(ctx.db, id, { deleted_at: now, modified_at: now });
  // The discount as it was deleted (no read finds it any more).
  const [deleted] = await serializeDiscounts(ctx, [{ ...current, deleted_at: now, modified_at: now }]);
  await recordWebhookEvent(ctx, current.organization_id, 'discount.deleted', deleted);
}
