import { onOrganizationClock } from '../../platform/test-clock.js';
import { randomUUID } from 'node:crypto';
import type { Context } from '../../platform/context.js';
import { BadRequest, NotPermitted, ResourceNotFound, TooManyRequests } from '../../platform/http/errors.js';
import { pageOf } from '../../platform/http/query.js';
import type { StoredProperties } from '../benefits/benefits.properties.js';
import type { CustomerRow } from '../customers/customers.repository.js';
import { expiresAt, generateLicenseKey, sameConditions } from './license-keys.keys.js';
import {
  countLiveActivations,
  findBenefitProperties,
  findCustomerLicenseKey,
  findCustomersByIds,
  findLicenseKeyById,
  findLiveActivation,
  findLiveActivations,
  findVisibleLicenseKey,
  hitRateWindow,
  insertActivation,
  insertLicenseKey,
  listCustomerLicenseKeys,
  listVisibleLicenseKeys,
  lockLicenseKeyByKey,
  softDeleteActivation,
  updateLicenseKey,
  type LicenseKeyActivationRow,
  type LicenseKeyChanges,
  type LicenseKeyRow,
} from './license-keys.repository.js';
import {
  MAX_COUNTER,
  type LicenseKeyActivateInput,
  type LicenseKeyDeactivateInput,
  type LicenseKeyListParams,
  type LicenseKeyUpdateInput,
  type LicenseKeyValidateInput,
  type PortalLicenseKeyListParams,
} from './license-keys.schemas.js';

/** The reference allows 3 public calls per key per second. */
export const PUBLIC_CALLS_PER_SECOND = 3;

async function customerOf(ctx: Context, row: LicenseKeyRow): Promise<CustomerRow> {
  const customers = await findCustomersByIds(ctx.db, [row.customer_id]);
  return customers.get(row.customer_id)!;
}

// ---------------------------------------------------------------------------------------------------
// Seller
// ---------------------------------------------------------------------------------------------------

export async function listLicenseKeys(ctx: Context, params: LicenseKeyListParams) {
  const { rows, total } = await listVisibleLicenseKeys(ctx.db, ctx.subject, params);
  const customers = await findCustomersByIds(
    ctx.db,
    rows.map((row) => row.customer_id),
  );
  return pageOf(
    rows.map((row) => ({ row, customer: customers.get(row.customer_id)! })),
    total,
    params,
  );
}

export interface LicenseKeyView {
  row: LicenseKeyRow;
  customer: CustomerRow;
  activations: LicenseKeyActivationRow[];
}

export async function getLicenseKey(ctx: Context, id: string): Promise<LicenseKeyView> {
  const row = await findVisibleLicenseKey(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return { row, customer: await customerOf(ctx, row), activations: await findLiveActivations(ctx.db, row.id) };
}

/** Sent fields overwrite the stored ones (`usage` only when sent). */
export async function updateLicenseKeyAsSeller(ctx: Context, id: string, input: LicenseKeyUpdateInput) {
  const row = await findVisibleLicenseKey(ctx.db, ctx.subject, id, true);
  if (!row) throw new ResourceNotFound();
  const changes: LicenseKeyChanges = { modified_at: ctx.clock.now() };
  if (input.status != null) changes.status = input.status;
  if (input.usage !== undefined) changes.usage = input.usage;
  if (input.limit_activations !== undefined) changes.limit_activations = input.limit_activations;
  if (input.limit_usage !== undefined) changes.limit_usage = input.limit_usage;
  if (input.expires_at !== undefined) changes.expires_at = input.expires_at ? new Date(input.expires_at) : null;
  const updated = await updateLicenseKey(ctx.db, row.id, changes);
  return { row: updated, customer: await customerOf(ctx, updated) };
}

export async function getActivation(ctx: Context, id: string, activationId: string) {
  const key = await findVisibleLicenseKey(ctx.db, ctx.subject, id);
  if (!key) throw new ResourceNotFound();
  const activation = await findLiveActivation(ctx.db, key.id, activationId);
  if (!activation) throw new ResourceNotFound();
  return { activation, key, customer: await customerOf(ctx, key) };
}

// ---------------------------------------------------------------------------------------------------
// Customer portal (customer session)
// ---------------------------------------------------------------------------------------------------

export async function listPortalLicenseKeys(ctx: Context, params: PortalLicenseKeyListParams) {
  const { rows, total } = await listCustomerLicenseKeys(ctx.db, ctx.subject, params);
  const customers = await findCustomersByIds(
    ctx.db,
    rows.map((row) => row.customer_id),
  );
  return pageOf(
    rows.map((row) => ({ row, customer: customers.get(row.customer_id)! })),
    total,
    params,
  );
}

/** Activations are shown only when the benefit lets customers manage them (`enable_customer_admin`). */
export async function getPortalLicenseKey(ctx: Context, id: string): Promise<LicenseKeyView> {
  const row = await findCustomerLicenseKey(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  const props = (await findBenefitProperties(ctx.db, row.benefit_id)) as StoredProperties['license_keys'] | undefined;
  const admin = props?.activations?.enable_customer_admin === true;
  return {
    row,
    customer: await customerOf(ctx, row),
    activations: admin ? await findLiveActivations(ctx.db, row.id) : [],
  };
}

// ---------------------------------------------------------------------------------------------------
// Public calls (no auth)
// ---------------------------------------------------------------------------------------------------

/**
 * Counts the call against its key's one-second window (in the database: API nodes may be several);
 * the fourth call of a second is a 429 with `Retry-After`. The count lives in the call's transaction,
 * so a call that fails afterwards (404, 400, 403) does not use up the budget.
 */
export async function limitPublicCall(ctx: Context, organizationId: string, key: string): Promise<void> {
  const now = ctx.clock.now().getTime();
  const windowStart = new Date(now - (now % 1000));
  const hits = await hitRateWindow(ctx.db, `${organizationId}:${key}`, windowStart);
  if (hits > PUBLIC_CALLS_PER_SECOND) {
    throw new TooManyRequests((windowStart.getTime() + 1000 - now) / 1000, 'Rate limit exceeded');
  }
}

/**
 * Who calls validate, activate or deactivate: `public`, whoever holds the key (the portal's paths, no
 * credentials); `organization`, the organization's own token or member (`/v1/license-keys/…`), who
 * finds only keys of the organizations it may see. The rules are the same for both.
 */
export type KeyCaller = 'public' | 'organization';

async function lockKey(ctx: Context, organizationId: string, key: string, caller: KeyCaller): Promise<LicenseKeyRow> {
  const row = await lockLicenseKeyByKey(
    ctx.db,
    organizationId,
    key,
    caller === 'organization' ? ctx.subject : undefined,
  );
  if (!row) throw new ResourceNotFound();
  return row;
}

/** Validate: the rules of research §2.4, in the reference's order. */
export async function validateLicenseKey(ctx: Context, input: LicenseKeyValidateInput, caller: KeyCaller = 'public') {
  const key = await lockKey(ctx, input.organization_id, input.key, caller);
  const now = ctx.clock.now();
  if (key.status !== 'granted') throw new ResourceNotFound('License key is no longer active.');
  if (key.expires_at && now.getTime() >= key.expires_at.getTime())
    throw new ResourceNotFound('License key has expired.');
  let activation: LicenseKeyActivationRow | null = null;
  if (input.activation_id) {
    activation = (await findLiveActivation(ctx.db, key.id, input.activation_id)) ?? null;
    if (!activation) throw new ResourceNotFound();
    const required = (activation.conditions ?? {}) as Record<string, unknown>;
    if (Object.keys(required).length > 0 && !sameConditions(required, input.conditions))
      throw new ResourceNotFound('License key does not match required conditions');
  }
  if (input.benefit_id && input.benefit_id !== key.benefit_id)
    throw new ResourceNotFound('License key does not match given benefit.');
  if (input.customer_id && input.customer_id !== key.customer_id)
    throw new ResourceNotFound('License key does not match given user.');
  const increment = input.increment_usage ?? 0;
  if (increment) {
    // Without a limit, the column's own bound is the limit (never an overflow).
    const remaining = Math.max(0, (key.limit_usage ?? MAX_COUNTER) - key.usage);
    if (increment > remaining) throw new BadRequest(`License key only has ${remaining} more usages.`);
  }
  const updated = await updateLicenseKey(ctx.db, key.id, {
    modified_at: now,
    validations: Math.min(key.validations + 1, MAX_COUNTER),
    last_validated_at: now,
    ...(increment ? { usage: key.usage + increment } : {}),
  });
  return { key: updated, customer: await customerOf(ctx, updated), activation };
}

/**
 * Activate: 403 when the key needs no activation or its limit is reached. The key row is locked
 * first, so concurrent activations count one after another and the limit holds exactly.
 */
export async function activateLicenseKey(ctx: Context, input: LicenseKeyActivateInput, caller: KeyCaller = 'public') {
  const key = await lockKey(ctx, input.organization_id, input.key, caller);
  if (!key.limit_activations) throw new NotPermitted('License key does not require activation');
  if ((await countLiveActivations(ctx.db, key.id)) >= key.limit_activations)
    throw new NotPermitted('License key activation limit already reached');
  const activation = await insertActivation(ctx.db, {
    id: randomUUID(),
    created_at: ctx.clock.now(),
    license_key_id: key.id,
    label: input.label,
    conditions: input.conditions,
    meta: input.meta,
  });
  return { activation, key, customer: await customerOf(ctx, key) };
}

export async function deactivateLicenseKey(
  ctx: Context,
  input: LicenseKeyDeactivateInput,
  caller: KeyCaller = 'public',
): Promise<void> {
  const key = await lockKey(ctx, input.organization_id, input.key, caller);
  const activation = await findLiveActivation(ctx.db, key.id, input.activation_id);
  if (!activation) throw new ResourceNotFound();
  await softDeleteActivation(ctx.db, activation.id, ctx.clock.now());
}

// ---------------------------------------------------------------------------------------------------
// Grants (called by the grant engine)
// ---------------------------------------------------------------------------------------------------

/** A new key for a grant: the benefit's prefix, expiry from now, its limits. */
export async function createKeyForGrant(
  ctx: Context,
  benefit: { id: string; organization_id: string; properties: unknown },
  customerId: string,
): Promise<LicenseKeyRow> {
  const props = benefit.properties as StoredProperties['license_keys'];
  const now = ctx.clock.now();
  return insertLicenseKey(ctx.db, {
    id: randomUUID(),
    created_at: now,
    organization_id: benefit.organization_id,
    customer_id: customerId,
    benefit_id: benefit.id,
    key: generateLicenseKey(props.prefix),
    status: 'granted',
    limit_activations: props.activations?.limit ?? null,
    limit_usage: props.limit_usage ?? null,
    expires_at: expiresAt(now, props.expires),
  });
}

/** A benefit update: expiry recomputed from now, limits copied, status back to granted. */
export async function refreshKeyForGrant(
  ctx: Context,
  keyId: string,
  benefit: { properties: unknown },
): Promise<LicenseKeyRow | undefined> {
  const props = benefit.properties as StoredProperties['license_keys'];
  const key = await findLicenseKeyById(ctx.db, keyId, true);
  if (!key) return undefined;
  const now = ctx.clock.now();
  return updateLicenseKey(ctx.db, key.id, {
    modified_at: now,
    status: 'granted',
    limit_activations: props.activations?.limit ?? null,
    limit_usage: props.limit_usage ?? null,
    expires_at: expiresAt(now, props.expires),
  });
}

export async function revokeKeyOfGrant(ctx: Context, keyId: string): Promise<void> {
  const key = await findLicenseKeyById(ctx.db, keyId, true);
  if (!key) return;
  await updateLicenseKey(ctx.db, key.id, { modified_at: ctx.clock.now(), status: 'revoked' });
}

// ---------------------------------------------------------------------------------------------------
// The public routes: the per-key rate limit (by the server's clock: it limits real calls), then the
// call on the organization's (test) clock (expiry)
// ---------------------------------------------------------------------------------------------------

export async function publicValidate(ctx: Context, input: LicenseKeyValidateInput) {
  await limitPublicCall(ctx, input.organization_id, input.key);
  return validateLicenseKey(await onOrganizationClock(ctx, input.organization_id), input);
}

export async function publicActivate(ctx: Context, input: LicenseKeyActivateInput) {
  await limitPublicCall(ctx, input.organization_id, input.key);
  return activateLicenseKey(await onOrganizationClock(ctx, input.organization_id), input);
}

export async function publicDeactivate(ctx: Context, input: LicenseKeyDeactivateInput): Promise<void> {
  await limitPublicCall(ctx, input.organization_id, input.key);
  await deactivateLicenseKey(await onOrganizationClock(ctx, input.organization_id), input);
}

// ---------------------------------------------------------------------------------------------------
// The organization's routes (`/v1/license-keys/validate|activate|deactivate`, `license_keys:write`):
// the same calls on the organization's clock, for keys of an organization the caller may see (404
// otherwise), without the per-key rate limit (the reference limits only the public paths)
// ---------------------------------------------------------------------------------------------------

export async function validateAsSeller(ctx: Context, input: LicenseKeyValidateInput) {
  return validateLicenseKey(await onOrganizationClock(ctx, input.organization_id), input, 'organization');
}

export async function activateAsSeller(ctx: Context, input: LicenseKeyActivateInput) {
  return activateLicenseKey(await onOrganizationClock(ctx, input.organization_id), input, 'organization');
}

export async function deactivateAsSeller(ctx: Context, input: LicenseKeyDeactivateInput): Promise<void> {
  await deactivateLicenseKey(await onOrganizationClock(ctx, input.organization_id), input, 'organization');
}
